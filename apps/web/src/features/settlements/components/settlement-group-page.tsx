import {
  settlementConfigurationSummary,
  settlementDateTypeLabels,
  type SettlementConfiguration,
} from '@ledgerline/contract';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Group,
  Menu,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconDots } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useUpdateCompanyPreferences } from '@/lib/api/company-preferences';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { failureMessage } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { usePermission } from '@/ui/use-permission';
import { spaceWords } from '@/ui/words';
import { useSettlementGroup } from '../api/get-settlement-group';
import { useDeleteSettlementConfiguration } from '../api/save-settlement-configuration';
import type { CreatableType } from './settlement-configuration-form';
import { SettlementConfigurationDialog } from './settlement-configuration-dialog';
import { SettlementGroupForm } from './settlement-group-form';
import { formatMoney } from '@/ui/money-format';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

type Dialog = { type: CreatableType; configuration?: SettlementConfiguration } | null;

function amountOf(configuration: SettlementConfiguration) {
  return configuration.type === 'PercentageDiscount'
    ? `${configuration.percentageDiscount ?? 0}%`
    : formatMoney(configuration.amount ?? 0, configuration.currency);
}

/** spec 3 §2 settlements/{id}: the group page. */
export function SettlementGroupPage() {
  const { id = '' } = useParams();
  const group = useSettlementGroup(id);
  const preferences = useUpdateCompanyPreferences();
  const removeConfiguration = useDeleteSettlementConfiguration(id);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [editing, setEditing] = useState(false);
  const canCreate = usePermission('CreateSettlementConfigurations');
  const canEdit = usePermission('EditSettlementConfigurations');
  const canDelete = usePermission('DeleteSettlementConfigurations');
  const canSetDefault = usePermission('ConfigureSystemSettings');

  if (group.isPending) return <LoadingState label="Loading the settlement group" />;
  if (group.isError || !group.data)
    return <Alert color="red">An error occurred loading the data</Alert>;
  const current = group.data;

  const setDefault = (isDefault: boolean) =>
    preferences.mutate(
      { defaultSettlementConfigurationGroupId: isDefault ? current.id : null },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            message: isDefault
              ? 'Default settlement group set'
              : 'Default settlement group removed',
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: failureMessage('An error occurred while saving the default: ', error),
          }),
      },
    );

  const confirmDelete = (configuration: SettlementConfiguration) =>
    confirmDestructive({
      title: 'Delete Settlement Configuration',
      message: `Delete the configuration "${settlementConfigurationSummary(configuration)}"?`,
      onConfirm: () =>
        removeConfiguration.mutate(configuration.id, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: 'Settlement configuration deleted' }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage(
                'An error occurred while deleting the settlement configuration: ',
                error,
              ),
            }),
        }),
    });

  return (
    <Stack gap="lg">
      {/* spec 2 §2: the settlements breadcrumb, as the detail pages of the other areas. */}
      <Breadcrumbs>
        <Anchor component={Link} to="/settlements">
          Settlements
        </Anchor>
        <Text span>{current.name}</Text>
      </Breadcrumbs>
      <Card withBorder>
        {editing ? (
          <SettlementGroupForm group={current} onDone={() => setEditing(false)} />
        ) : (
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Group gap="xs">
                <Title order={1} size="h2">{current.name}</Title>
                {current.isDefault && <Badge color="blue">Default</Badge>}
              </Group>
              {current.description && <Text c="dimmed">{current.description}</Text>}
              <Group gap="xs">
                <Badge variant="light" color={current.customerEnabled ? 'green' : 'gray'}>
                  {current.customerEnabled ? 'Customer enabled' : 'Customer disabled'}
                </Badge>
                <Badge variant="light" color={current.transactionEnabled ? 'green' : 'gray'}>
                  {current.transactionEnabled ? 'Transaction enabled' : 'Transaction disabled'}
                </Badge>
              </Group>
            </Stack>
            <Group gap="xs">
              <Button variant="default" disabled={!canEdit} onClick={() => setEditing(true)}>
                Edit
              </Button>
              {current.isDefault ? (
                <Button
                  variant="default"
                  disabled={!canSetDefault}
                  loading={preferences.isPending}
                  onClick={() => setDefault(false)}
                >
                  Remove default
                </Button>
              ) : (
                <Button
                  variant="default"
                  disabled={!canSetDefault}
                  loading={preferences.isPending}
                  onClick={() => setDefault(true)}
                >
                  Set as default
                </Button>
              )}
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button rightSection={<IconChevronDown size={16} />} disabled={!canCreate}>
                    New settlement configuration
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setDialog({ type: 'PercentageDiscount' })}>
                    Percentage discount
                  </Menu.Item>
                  <Menu.Item onClick={() => setDialog({ type: 'AbsoluteDiscount' })}>
                    Absolute discount
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          </Group>
        )}
      </Card>
      {current.configurations.length === 0 ? (
        <EmptyState message="There are no settlement configurations in this group." />
      ) : (
        <ScrollArea.Autosize mah={600}>
          <WideTable>
          <Table striped aria-label="Settlement configurations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Days</Table.Th>
                <Table.Th>Date type</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Summary</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {current.configurations.map((configuration) => (
                <Table.Tr key={configuration.id}>
                  <Table.Td>{spaceWords(configuration.type)}</Table.Td>
                  <Table.Td>{configuration.description}</Table.Td>
                  <Table.Td>{configuration.numberOfDays}</Table.Td>
                  <Table.Td>{settlementDateTypeLabels[configuration.dateType]}</Table.Td>
                  <Table.Td>{amountOf(configuration)}</Table.Td>
                  <Table.Td>{settlementConfigurationSummary(configuration)}</Table.Td>
                  <Table.Td>
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <ActionIcon variant="subtle" aria-label="Configuration actions">
                          <IconDots size={16} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          disabled={!canEdit}
                          onClick={() =>
                            setDialog({ type: configuration.type as CreatableType, configuration })
                          }
                        >
                          Edit
                        </Menu.Item>
                        <Menu.Item
                          color="red"
                          disabled={!canDelete}
                          onClick={() => confirmDelete(configuration)}
                        >
                          Delete
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          </WideTable>
        </ScrollArea.Autosize>
      )}
      <SettlementConfigurationDialog
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        groupId={current.id}
        type={dialog?.type ?? 'PercentageDiscount'}
        configuration={dialog?.configuration}
      />
    </Stack>
  );
}
