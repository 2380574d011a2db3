import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { isFlagOn, useFeatureFlags } from '@/lib/feature-flags';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { failureMessage } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { GridToolbar } from '@/ui/grid-toolbar';
import { PageHeader } from '@/ui/page-header';
import { useGridState } from '@/ui/use-grid-state';
import { usePermission } from '@/ui/use-permission';
import { useDeleteSettlementGroup } from '../api/delete-settlement-group';
import { useSettlementGroups } from '../api/get-settlement-groups';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

function SettlementGroupsList() {
  // The search box, answered by the server and kept in the address.
  const grid = useGridState({ address: true });
  const search = grid.query.search ?? '';
  const groups = useSettlementGroups(search);
  const remove = useDeleteSettlementGroup();
  const navigate = useNavigate();
  const canCreate = usePermission('CreateSettlementConfigurations');
  const canEdit = usePermission('EditSettlementConfigurations');
  const canDelete = usePermission('DeleteSettlementConfigurations');

  const confirmDelete = (id: string, name: string) =>
    confirmDestructive({
      title: 'Delete Settlement Group',
      message: `Delete the settlement group ${name} and its configurations?`,
      onConfirm: () =>
        remove.mutate(id, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: 'Settlement group deleted' }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage(
                'An error occurred while deleting the settlement group: ',
                error,
              ),
            }),
        }),
    });

  // spec 3 §2: default sort name ascending (the server's order, kept for equal names by id).
  const sorted = [...(groups.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Stack gap="lg">
      <PageHeader
        title="Settlements"
        description="Early-payment discount rules, offered on the invoices of the accounts that use them."
        actions={
          <Button component={Link} to="/settlements/new" disabled={!canCreate}>
            Add Settlement Group
          </Button>
        }
      />
      <GridToolbar grid={grid} listName="settlement groups" placeholder="Name or description" />
      {groups.isPending ? (
        <LoadingState label="Loading settlement groups" />
      ) : groups.isError ? (
        <Alert color="red">An error occurred loading the data</Alert>
      ) : sorted.length === 0 ? (
        <EmptyState
          message={search ? 'No settlement groups match the search.' : 'No settlement groups yet.'}
        />
      ) : (
        <WideTable>
          <Table striped highlightOnHover aria-label="Settlement groups">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Configurations</Table.Th>
                <Table.Th>Customers</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((group) => (
                <Table.Tr key={group.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Anchor component={Link} to={`/settlements/${group.id}`}>
                        {group.name}
                      </Anchor>
                      {group.isDefault && <Badge color="blue">Default</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>{group.description}</Table.Td>
                  <Table.Td>{group.configurations.length}</Table.Td>
                  <Table.Td>
                    {group.customerEnabled && <Badge color="green">Customer enabled</Badge>}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button
                        size="xs"
                        variant="subtle"
                        leftSection={<IconPencil size={14} />}
                        disabled={!canEdit}
                        onClick={() => void navigate(`/settlements/${group.id}`)}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} />}
                        disabled={!canDelete}
                        onClick={() => confirmDelete(group.id, group.name)}
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
    </Stack>
  );
}

/** spec 3 §2 settlements: the groups when the settlementConfigurations flag is on, else a placeholder. */
export function SettlementsPage() {
  const flags = useFeatureFlags();
  if (!isFlagOn(flags, 'settlementConfigurations'))
    return (
      <Stack gap="lg">
        <PageHeader title="Settlements" />
        <Text>Settlement configurations are not enabled for this site.</Text>
      </Stack>
    );
  return <SettlementGroupsList />;
}
