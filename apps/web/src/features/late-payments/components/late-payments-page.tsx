import { latePaymentMessages, type LatePaymentConfiguration } from '@ledgerline/contract';
import { Alert, Badge, Button, Group, Menu, Stack, Table } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useUpdateCompanyPreferences } from '@/lib/api/company-preferences';
import { tenantSettingQueryOptions } from '@/lib/api/get-tenant-setting';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { failureMessage } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { GridToolbar } from '@/ui/grid-toolbar';
import { PageHeader } from '@/ui/page-header';
import { useGridState } from '@/ui/use-grid-state';
import { usePermission } from '@/ui/use-permission';
import { useLatePayments } from '../api/get-late-payments';
import { useDeleteLatePayment } from '../api/save-late-payment';
import { LatePaymentDialog } from './late-payment-dialog';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

type Dialog = { configuration?: LatePaymentConfiguration } | null;

/** spec 3 §2 late payments: the grid, the add menu, the form and the beta banner. */
export function LatePaymentsPage() {
  // The search box, answered by the server and kept in the address.
  const grid = useGridState({ address: true });
  const search = grid.query.search ?? '';
  const configurations = useLatePayments(search);
  const allowed = useQuery(tenantSettingQueryOptions('AllowLatePayments'));
  const remove = useDeleteLatePayment();
  const preferences = useUpdateCompanyPreferences();
  const [dialog, setDialog] = useState<Dialog>(null);
  const canCreate = usePermission('CreateLatePayments');
  const canEdit = usePermission('EditLatePayments');
  const canDelete = usePermission('DeleteLatePayments');
  const canSetDefault = usePermission('ConfigureSystemSettings');

  const confirmDelete = (configuration: LatePaymentConfiguration) =>
    confirmDestructive({
      title: 'Delete Late Payment Configuration',
      message: `Delete the late payment configuration ${configuration.name}?`,
      onConfirm: () =>
        remove.mutate(configuration.id, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: 'Late payment configuration deleted' }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage(
                'An error occurred while deleting the late payment configuration: ',
                error,
              ),
            }),
        }),
    });

  const setDefault = (configuration: LatePaymentConfiguration, isDefault: boolean) =>
    preferences.mutate(
      { defaultLatePaymentConfigurationId: isDefault ? configuration.id : null },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            message: isDefault
              ? 'Default late payment configuration set'
              : 'Default late payment configuration removed',
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: failureMessage('An error occurred while saving the default: ', error),
          }),
      },
    );

  const sorted = [...(configurations.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Stack gap="lg">
      <PageHeader
        title="Late Payments"
        description="Late-payment fees charged on overdue invoices."
        actions={
          <Menu position="bottom-end">
            <Menu.Target>
              <Button rightSection={<IconChevronDown size={16} />} disabled={!canCreate}>
                Add
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setDialog({})}>UK statutory</Menu.Item>
              <Menu.Item
                onClick={() =>
                  notifications.show({
                    color: 'yellow',
                    message: latePaymentMessages.customNotAvailable,
                  })
                }
              >
                Custom
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        }
      />
      {allowed.data === false && (
        <Alert color="yellow" title="Beta">
          {latePaymentMessages.betaBanner} Please contact us to become a beta site.
        </Alert>
      )}
      <GridToolbar
        grid={grid}
        listName="late payment configurations"
        placeholder="Name or description"
      />
      {configurations.isPending ? (
        <LoadingState label="Loading late payment configurations" />
      ) : configurations.isError ? (
        <Alert color="red">An error occurred loading the data</Alert>
      ) : sorted.length === 0 ? (
        <EmptyState
          message={
            search
              ? 'No late payment configurations match the search.'
              : 'No late payment configurations yet.'
          }
        />
      ) : (
        <WideTable>
          <Table striped highlightOnHover aria-label="Late payment configurations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Grace period</Table.Th>
                <Table.Th>Enabled</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((configuration) => (
                <Table.Tr key={configuration.id}>
                  <Table.Td>
                    <Group gap="xs">
                      {configuration.name}
                      {configuration.isDefault && <Badge color="blue">Default</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>{configuration.type === 'Uk' ? 'UK statutory' : 'Custom'}</Table.Td>
                  <Table.Td>{configuration.description}</Table.Td>
                  <Table.Td>
                    {configuration.gracePeriodInDays}{' '}
                    {configuration.gracePeriodInDays === 1 ? 'day' : 'days'}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={configuration.enabled ? 'green' : 'gray'}>
                      {configuration.enabled ? 'Enabled' : 'Disabled'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button
                        size="xs"
                        variant="subtle"
                        disabled={!canSetDefault}
                        onClick={() => setDefault(configuration, !configuration.isDefault)}
                      >
                        {configuration.isDefault ? 'Remove default' : 'Set as default'}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        disabled={!canEdit}
                        onClick={() => setDialog({ configuration })}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        disabled={!canDelete}
                        onClick={() => confirmDelete(configuration)}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </WideTable>
      )}
      <LatePaymentDialog
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        configuration={dialog?.configuration}
      />
    </Stack>
  );
}
