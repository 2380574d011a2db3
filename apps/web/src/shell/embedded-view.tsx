import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '@/auth/api/get-me';
import { reloadPage } from '@/lib/browser-location';
import { isEmbedded } from '@/lib/session';
import { setCompanyId } from '@/lib/storage';
import { crossTenantCode } from './error-content';

/**
 * spec 3 §2 embedded view, in a frame only: `ptdataset` switches the company, leaves the address
 * and reloads; a `tenantId` that is not the current company's tenant goes to the cross-tenant
 * error page (1000). The current company is always of the signed-in user's tenant (another
 * tenant's is not found), so the user's own tenant is the one to compare.
 */
export function EmbeddedViewChecks() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const query = new URLSearchParams(search);
  const dataset = isEmbedded() ? query.get('ptdataset') : null;
  const tenantId = isEmbedded() && dataset === null ? query.get('tenantId') : null;

  useEffect(() => {
    if (dataset === null) return;
    const id = Number(dataset);
    if (Number.isInteger(id) && id > 0) setCompanyId(id);
    const url = new URL(window.location.href);
    url.searchParams.delete('ptdataset');
    window.history.replaceState(window.history.state, '', url);
    reloadPage();
  }, [dataset]);

  const otherTenant =
    tenantId !== null && user !== undefined && user.tenantId !== tenantId.toLowerCase();
  useEffect(() => {
    if (otherTenant) void navigate(`/error/${crossTenantCode}`, { replace: true });
  }, [otherTenant, navigate]);

  return null;
}
