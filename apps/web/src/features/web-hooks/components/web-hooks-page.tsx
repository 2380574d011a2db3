import { Alert, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { errorMessage } from '@/lib/status-routing';
import { LoadingState } from '@/ui/loading-state';
import { PageHeader } from '@/ui/page-header';
import { useDashboardAccess } from '../api/get-dashboard-access';
import { EndpointsScreen } from './endpoints-screen';

/**
 * spec 3 §2 Web hooks page: with Svix configured, its app portal in a frame whose
 * address comes from dashboard-access; without Svix, Ledgerline's own endpoint screens.
 */
export function WebHooksPage() {
  const access = useDashboardAccess();
  if (access.isPending) return <LoadingState label="Loading web hooks…" />;
  if (access.isError) {
    return (
      <Alert color="red" title="The web hooks could not be loaded">
        {errorMessage(access.error)}
      </Alert>
    );
  }
  const { mode, url, frameable } = access.data;
  if (mode === 'Embedded') return <EndpointsScreen />;
  if (url && frameable) {
    return (
      <iframe
        title="Web hooks"
        src={url}
        allow="clipboard-write"
        style={{ width: '100%', height: 'calc(100vh - 120px)', border: 0 }}
      />
    );
  }
  return (
    <Stack gap="lg">
      <PageHeader title="Web Hooks" />
      <Alert color="blue" icon={<IconInfoCircle size={18} />} title="Managed on your Svix server">
        Web hooks of this company are sent through a self-hosted Svix server. Its application portal
        is not part of self-hosted Svix, so it cannot be shown here: add and change endpoints
        through the Svix server’s API (the company’s application is{' '}
        <code>ledgerline-&lt;tenant&gt;-&lt;company&gt;</code>).
      </Alert>
    </Stack>
  );
}
