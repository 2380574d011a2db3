import { svixDashboardAccessSchema } from '@ledgerline/contract';
import { useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { webHookKeys } from './web-hook-keys';

/** spec 3 §7 GET integrations/svix/dashboard-access: the frame source, or the embedded mode. */
export function useDashboardAccess() {
  return useQuery({
    queryKey: [...webHookKeys().all(), 'dashboard-access'],
    queryFn: ({ signal }) =>
      companyClient.get('/integrations/svix/dashboard-access', {
        schema: svixDashboardAccessSchema,
        signal,
      }),
    // The portal link is short-lived: ask again each time the page opens.
    staleTime: 0,
    gcTime: 0,
  });
}
