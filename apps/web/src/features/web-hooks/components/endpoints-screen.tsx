import type { WebHookEndpoint } from '@ledgerline/contract';
import { Button, Code, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { DataGrid } from '@/ui/data-grid';
import { failureMessage } from '@/ui/form-errors';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useDeleteEndpoint } from '../api/delete-endpoint';
import { useEndpoints } from '../api/get-endpoints';
import { useEndpointColumns } from '../table/use-endpoint-columns';
import { EndpointDetailDialog } from './endpoint-detail-dialog';
import { EndpointFormDialog } from './endpoint-form-dialog';

/** The form dialog keeps its endpoint while it closes; `key` gives every opening a fresh form. */
interface FormState {
  opened: boolean;
  endpoint?: WebHookEndpoint;
  key: number;
}

/** Embedded delivery (no Svix): the company's endpoints, their secrets and delivery logs. */
export function EndpointsScreen() {
  const grid = useGridState({ defaultSort: { field: 'url', direction: 'asc' }, address: true });
  const endpoints = useEndpoints(true, grid.query.search ?? '');
  const [form, setForm] = useState<FormState>({ opened: false, key: 0 });
  const [openedId, setOpenedId] = useState<string | null>(null);
  const { mutate: deleteEndpoint } = useDeleteEndpoint();

  const edit = useCallback(
    (endpoint?: WebHookEndpoint) =>
      setForm((current) => ({ opened: true, endpoint, key: current.key + 1 })),
    [],
  );
  const open = useCallback((endpoint: WebHookEndpoint) => setOpenedId(endpoint.id), []);
  const remove = useCallback(
    (endpoint: WebHookEndpoint) =>
      confirmDestructive({
        title: 'Delete endpoint',
        message: `Are you sure you want to delete the endpoint ${endpoint.url}? Nothing more is sent to it and its delivery log is deleted.`,
        onConfirm: () =>
          deleteEndpoint(endpoint.id, {
            onSuccess: () => notifications.show({ color: 'green', message: 'Endpoint deleted.' }),
            onError: (error) =>
              notifications.show({
                color: 'red',
                message: failureMessage('An error occurred while deleting the endpoint: ', error),
              }),
          }),
      }),
    [deleteEndpoint],
  );
  const columns = useEndpointColumns({ onOpen: open, onEdit: edit, onDelete: remove });
  const opened = endpoints.data?.find((endpoint) => endpoint.id === openedId);

  return (
    <Stack gap="lg">
      <PageHeader
        title="Web Hooks"
        description={
          <>
            <Text size="sm" c="dimmed">
              Ledgerline tells your systems about payments as they happen: it POSTs each event (a
              payment captured, a request created…) as JSON to your endpoints, and tries again for
              about a day and a half when an endpoint does not answer with a 2xx status.
            </Text>
            <Text size="sm" c="dimmed" mt={4}>
              Each request is signed with the endpoint’s secret in the headers{' '}
              <Code>webhook-id</Code>, <Code>webhook-timestamp</Code> and{' '}
              <Code>webhook-signature</Code> (Standard Webhooks): verify it with any Standard
              Webhooks or Svix library.
            </Text>
          </>
        }
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => edit()}>
            Add endpoint
          </Button>
        }
      />
      <GridToolbar grid={grid} listName="web hook endpoints" placeholder="URL or description" />
      <DataGrid
        label="Web hook endpoints"
        grid={grid}
        columns={columns}
        records={endpoints.data}
        fetching={endpoints.isPending}
        noRecordsText="No endpoints yet. Add one to start receiving events."
      />
      <EndpointFormDialog
        key={form.key}
        opened={form.opened}
        endpoint={form.endpoint}
        onClose={() => setForm((c) => ({ ...c, opened: false }))}
      />
      {opened && <EndpointDetailDialog endpoint={opened} onClose={() => setOpenedId(null)} />}
    </Stack>
  );
}
