import { isCalendarDate } from '@ledgerline/contract';
import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { failureMessage } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { Money } from '@/ui/money';
import { useDateFormat } from '@/ui/use-date-format';
import { usePermission } from '@/ui/use-permission';
import { WideTable } from '@/ui/wide-table';
import { useReminderPreview } from '../api/get-reminder-preview';
import { useRunReminders } from '../api/run-reminders';

/** What the reminder run of a day sends (tomorrow by default), with Send now per account. */
export function ReminderPreview() {
  const [day, setDay] = useState<string | null>(null);
  const chosen = day && isCalendarDate(day) ? day : null;
  const { formatDate } = useDateFormat();
  const preview = useReminderPreview(chosen);
  const run = useRunReminders();
  const canSend = usePermission('ConfigureSystemSettings');

  const sendNow = (accountId: string, name: string, date: string) =>
    run.mutate(
      { accountId, date },
      {
        onSuccess: (answer) =>
          notifications.show({
            color: answer.reminders > 0 ? 'green' : 'yellow',
            message:
              answer.reminders > 0
                ? `Reminder sent to ${name}`
                : answer.customerNotificationsAllowed
                  ? `Nothing is due for ${name} on ${formatDate(date)}`
                  : 'Customer notifications are switched off for this tenant',
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: failureMessage('The reminder could not be sent', error),
          }),
      },
    );

  const data = preview.data;
  return (
    <Stack gap="sm" component="section" aria-labelledby="reminder-preview-title">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4" id="reminder-preview-title">
          {chosen ? `What goes out on ${formatDate(chosen)}` : 'What goes out tomorrow'}
        </Title>
        <CalendarDateInput
          label="Day"
          placeholder="Tomorrow"
          clearable
          value={day}
          onChange={setDay}
          popoverProps={{ withinPortal: false }}
          w={220}
        />
      </Group>
      {preview.isPending ? (
        <LoadingState label="Loading the preview" />
      ) : preview.isError || !data ? (
        <Alert color="red">An error occurred loading the preview</Alert>
      ) : (
        <>
          {!data.customerNotificationsAllowed ? (
            <Alert color="yellow">
              Customer notifications are switched off for this tenant: no reminder goes out.
            </Alert>
          ) : null}
          <Text size="sm" c="dimmed">
            {data.totalItems === 1
              ? '1 account gets a reminder'
              : `${data.totalItems} accounts get a reminder`}{' '}
            on {formatDate(data.date)}. Held back: {data.skipped.disputed} with a disputed amount,{' '}
            {data.skipped.paused} paused, {data.skipped.noEmailAddress} without an e-mail address.
          </Text>
          {data.items.length > 0 ? (
            <WideTable>
              <Table striped aria-label="Reminders to send">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Account</Table.Th>
                    <Table.Th>E-mail</Table.Th>
                    <Table.Th>Subject</Table.Th>
                    <Table.Th>Invoices</Table.Th>
                    <Table.Th>Total owed</Table.Th>
                    <Table.Th aria-label="Actions" />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((item) => (
                    <Table.Tr key={item.accountId}>
                      <Table.Td>
                        <Anchor component={Link} to={`/accounts/${item.accountId}`}>
                          {item.accountReference} - {item.accountName}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{item.emailAddress}</Table.Td>
                      <Table.Td>{item.subject}</Table.Td>
                      <Table.Td>
                        {item.invoices.map((invoice) => invoice.transactionReference).join(', ')}
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={0}>
                          {item.totals.map((total) => (
                            <Money
                              key={total.currency}
                              amount={total.totalOwed}
                              currency={total.currency}
                            />
                          ))}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="light"
                          disabled={!canSend}
                          loading={run.isPending && run.variables?.accountId === item.accountId}
                          onClick={() => sendNow(item.accountId, item.accountName, data.date)}
                        >
                          Send now
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </WideTable>
          ) : null}
        </>
      )}
    </Stack>
  );
}
