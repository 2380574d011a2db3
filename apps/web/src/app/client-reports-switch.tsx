import { useEffect } from 'react';
import { useSiteInfo } from '@/lib/api/get-site-info';
import type { ClientReporter } from '@/lib/client-reports';

/** Turns the error and web-vitals reports on or off as the server's CLIENT_REPORTS says. */
export function ClientReportsSwitch({ reporter }: { reporter: ClientReporter }) {
  const { data } = useSiteInfo();
  const enabled = data?.clientReports;
  useEffect(() => {
    if (enabled !== undefined) reporter.setEnabled(enabled);
  }, [enabled, reporter]);
  return null;
}
