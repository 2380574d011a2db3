import { Alert, Badge, Button, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DateTime } from '@/ui/date-time';
import { failureMessage } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { Money } from '@/ui/money';
import { usePermission } from '@/ui/use-permission';
import { WideTable } from '@/ui/wide-table';
import { useAccountReminders, useSendAccountReminder } from '../api/account-reminders';

const statusColour = { Queued: 'gray', Sending: 'blue', Sent: 'green', Failed: 'red' } as const;

/** Every reminder mailed to the account, newest first, and Send now. */
export function AccountRemindersTab({ accountId }: { accountId: string }) {
  const [page, setPage] = useState(1);
  const reminders = useAccountReminders(accountId, page);
  const send = useSendAccountReminder(accountId);
  const canSend = usePermission('ConfigureSystemSettings');

  const sendNow = () =>
    send.mutate(undefined, {
      onSuccess: (answer) =>
        notifications.show({
          color: answer.reminders > 0 ? 'green' : 'yellow',
          message:
            answer.reminders > 0
              ? 'Reminder sent'
              : answer.customerNotificationsAllowed
                ? 'Nothing is due for this account today (or its reminders are paused, off, or held for a dispute)'
                : 'Customer notifications are switched off for this tenant',
        }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          message: failureMessage('The reminder could not be sent', error),
        }),
    });

  const data = reminders.data;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          One mail per run lists every invoice a step of the account&apos;s schedule has reached.
        </Text>
        <Button onClick={sendNow} loading={send.isPending} disabled={!canSend}>
          Send now
        </Button>
      </Group>
      {reminders.isPending ? (
        <LoadingState label="Loading reminders" />
      ) : reminders.isError || !data ? (
        <Alert color="red">An error occurred loading the data</Alert>
      ) : data.items.length === 0 ? (
        <Text c="dimmed">No reminders sent yet.</Text>
      ) : (
        <>
          <WideTable>
            <Table striped aria-label="Reminders">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th>Subject</Table.Th>
                  <Table.Th>Invoices</Table.Th>
                  <Table.Th>Total owed</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((reminder) => (
                  <Table.Tr key={reminder.id}>
                    <Table.Td>
                      <DateTime value={reminder.createdOn} />
                    </Table.Td>
                    <Table.Td>{reminder.emailAddress}</Table.Td>
                    <Table.Td>{reminder.subject}</Table.Td>
                    <Table.Td>
                      {reminder.invoices.map((invoice) => invoice.transactionReference).join(', ')}
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        {reminder.totals.map((total) => (
                          <Money
                            key={total.currency}
                            amount={total.totalOwed}
                            currency={total.currency}
                          />
                        ))}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={statusColour[reminder.status]}
                        title={reminder.errorMessage ?? undefined}
                      >
                        {reminder.status}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </WideTable>
          {data.totalItems > 20 ? (
            <Pagination total={Math.ceil(data.totalItems / 20)} value={page} onChange={setPage} />
          ) : null}
        </>
      )}
    </Stack>
  );
}
