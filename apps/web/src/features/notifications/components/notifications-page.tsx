import {
  addNotificationRecipientBody,
  notificationLimits,
  type NotificationName,
  type NotificationRecipient,
} from '@ledgerline/contract';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { failureMessage } from '@/ui/form-errors';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { LoadingState } from '@/ui/loading-state';
import { PageHeader } from '@/ui/page-header';
import {
  useAddRecipient,
  useCustomerNotifications,
  useDeleteRecipient,
  useNotificationUsers,
  useUpdateCustomerNotifications,
  useUpdateRecipient,
} from '../api/notifications';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';
import { CountTab } from '@/ui/count-tab';

const labels: Record<NotificationName, string> = {
  TenantPaymentSuccessful: 'Payment successful',
  TenantPaymentFailed: 'Payment failed',
  TenantPaymentProcessing: 'Payment processing',
  TenantPaymentDisputed: 'Payment disputed',
  PaymentPending: 'Payment pending',
  PaymentPendingCancelled: 'Pending payment cancelled',
  PaymentPendingCompleted: 'Pending payment completed',
};

const failed = (what: string) => (error: unknown) =>
  notifications.show({
    color: 'red',
    message: failureMessage(`An error occurred while ${what}: `, error),
  });

type AddForm = {
  type: 'LedgerlineUser' | 'EmailAddress';
  userId: string | null;
  emailAddress: string;
};

function AddRecipient({
  availableUsers,
}: {
  availableUsers: { id: string; displayName: string; emailAddress: string }[];
}) {
  const add = useAddRecipient();
  // spec 3 §2: the Ledgerline-user option only while users not yet added exist.
  const types = [
    ...(availableUsers.length > 0 ? [{ value: 'LedgerlineUser', label: 'Ledgerline user' }] : []),
    { value: 'EmailAddress', label: 'E-mail address' },
  ];
  const form = useForm<AddForm>({
    mode: 'controlled',
    initialValues: { type: 'EmailAddress', userId: null, emailAddress: '' },
    validate: zod4Resolver(addNotificationRecipientBody),
  });
  const submit = form.onSubmit((values) =>
    add.mutate(
      values.type === 'EmailAddress'
        ? { type: values.type, emailAddress: values.emailAddress }
        : { type: values.type, userId: values.userId },
      {
        onSuccess: () => {
          form.reset();
          notifications.show({ color: 'green', message: 'Notification user successfully added' });
        },
        onError: failed('adding the notification user'),
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end">
        <Select
          label="Recipient"
          data={types}
          allowDeselect={false}
          {...form.getInputProps('type')}
        />
        {form.values.type === 'LedgerlineUser' ? (
          <Select
            label="User"
            placeholder="Choose a user"
            data={availableUsers.map((u) => ({
              value: u.id,
              label: `${u.displayName} (${u.emailAddress})`,
            }))}
            {...form.getInputProps('userId')}
          />
        ) : (
          <TextInput
            label="E-mail address"
            maxLength={notificationLimits.emailAddress}
            {...form.getInputProps('emailAddress')}
          />
        )}
        <Button type="submit" leftSection={<IconPlus size={16} />} loading={add.isPending}>
          Add
        </Button>
      </Group>
    </form>
  );
}

function RecipientRow({ recipient }: { recipient: NotificationRecipient }) {
  const update = useUpdateRecipient();
  const remove = useDeleteRecipient();
  return (
    <Table.Tr>
      <Table.Td>{recipient.displayName}</Table.Td>
      {recipient.notificationSettings.map((setting) => (
        <Table.Td key={setting.notificationName}>
          <Switch
            aria-label={`${labels[setting.notificationName]} for ${recipient.displayName}`}
            checked={setting.isEnabled}
            onChange={(event) =>
              update.mutate(
                {
                  id: recipient.id,
                  notificationSettings: [
                    {
                      notificationName: setting.notificationName,
                      isEnabled: event.currentTarget.checked,
                    },
                  ],
                },
                { onError: failed('updating the notification user') },
              )
            }
          />
        </Table.Td>
      ))}
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove ${recipient.displayName}`}
          onClick={() =>
            confirmDestructive({
              title: 'Remove Recipient',
              message: `Stop sending notifications to ${recipient.displayName}?`,
              confirmLabel: 'Remove',
              onConfirm: () =>
                remove.mutate(recipient.id, {
                  onSuccess: () =>
                    notifications.show({
                      color: 'green',
                      message: 'Notification user successfully deleted',
                    }),
                  onError: failed('deleting the notification user'),
                }),
            })
          }
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
}

function UserTab() {
  const { data, isPending } = useNotificationUsers();
  if (isPending || !data) return <LoadingState label="Loading the notification users" />;
  const names =
    data.items[0]?.notificationSettings.map((s) => s.notificationName) ??
    (['TenantPaymentSuccessful', 'TenantPaymentFailed', 'TenantPaymentProcessing'] as const);
  return (
    <Stack>
      <AddRecipient availableUsers={data.availableUsers} />
      {data.items.length === 0 ? (
        <EmptyState message="No recipients yet. Every notification is off for a new recipient." />
      ) : (
        <WideTable>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Recipient</Table.Th>
              {names.map((name) => (
                <Table.Th key={name}>{labels[name]}</Table.Th>
              ))}
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((recipient) => (
              <RecipientRow key={recipient.id} recipient={recipient} />
            ))}
          </Table.Tbody>
        </Table>
        </WideTable>
      )}
    </Stack>
  );
}

function CustomerTab() {
  const { data, isPending } = useCustomerNotifications();
  const update = useUpdateCustomerNotifications();
  if (isPending || !data) return <LoadingState label="Loading the customer notifications" />;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        E-mails to the payer of a payment, at the address they gave.
      </Text>
      {data.notificationSettings.map((setting) => (
        <Switch
          key={setting.notificationName}
          label={labels[setting.notificationName]}
          checked={setting.isEnabled}
          onChange={(event) =>
            update.mutate(
              {
                notificationSettings: [
                  {
                    notificationName: setting.notificationName,
                    isEnabled: event.currentTarget.checked,
                  },
                ],
              },
              { onError: failed('updating the customer notifications') },
            )
          }
        />
      ))}
    </Stack>
  );
}

/** spec 3 §2 /settings/notifications: the User and Customer tabs. */
export function NotificationsPage() {
  // The same query as the User tab's (one call): its recipients counted on the tab.
  const recipients = useNotificationUsers();
  return (
    <Stack>
      <PageHeader
        title="Notifications"
        description="Who Ledgerline e-mails when a payment changes."
      />
      <Card withBorder>
        <Tabs defaultValue="users">
          <Tabs.List>
            <CountTab value="users" label="User" count={recipients.data?.items.length} />
            <Tabs.Tab value="customer">Customer</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="users" pt="md">
            <UserTab />
          </Tabs.Panel>
          <Tabs.Panel value="customer" pt="md">
            <CustomerTab />
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}
