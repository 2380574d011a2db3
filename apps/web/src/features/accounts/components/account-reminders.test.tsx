import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { accountId } from './account-fixtures';
import { AccountReminderSettings } from './account-reminder-settings';
import { AccountRemindersTab } from './account-reminders-tab';

const scheduleId = '0199f0aa-0000-7000-8000-0000000000d1';
const reminder = {
  id: '0199f0aa-0000-7000-8000-0000000000c9',
  accountId,
  scheduleId,
  runOn: '2026-11-26',
  source: 'Schedule',
  emailAddress: 'a@payer.example',
  subject: 'Final reminder from Acme',
  body: 'Dear Alpha',
  statementUrl: 'http://localhost:3000/statement/abc',
  invoices: [
    {
      transactionId: '0199f0aa-0000-7000-8000-0000000000f1',
      transactionReference: 'INV-1',
      dueDate: '2026-11-10',
      currency: 'GBP',
      outstandingAmount: 120,
      lateFees: 0,
      stepId: '0199f0aa-0000-7000-8000-0000000000e2',
      days: 7,
    },
  ],
  totals: [{ currency: 'GBP', totalOwed: 120, lateFees: 0 }],
  status: 'Sent',
  errorMessage: null,
  createdOn: '2026-11-26T09:00:00.000Z',
  sentOn: '2026-11-26T09:00:01.000Z',
};

describe('an account’s reminders', () => {
  it('lists the reminders sent and sends one now', async () => {
    const calls = stubFetch({
      [`GET /accounts/${accountId}/reminders`]: { body: { items: [reminder], totalItems: 1 } },
      'POST /reminders/run': {
        body: {
          date: '2026-11-26',
          customerNotificationsAllowed: true,
          reminders: 0,
          invoices: 0,
          reminderIds: [],
        },
      },
    });
    renderWithProviders(<AccountRemindersTab accountId={accountId} />, { user: aUser() });
    const table = await screen.findByRole('table', { name: 'Reminders' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Final reminder from Acme');
    expect(row).toHaveTextContent('INV-1');
    expect(row).toHaveTextContent('Sent');
    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
    await screen.findByText(/Nothing is due for this account today/);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ accountId });
  }, 30_000);

  it('offers the schedules by name and saves the choice and the pause', async () => {
    const calls = stubFetch({
      [`GET /accounts/${accountId}/reminder-settings`]: {
        body: { reminderSchedule: 'default', remindersPaused: false },
      },
      'GET /reminder-schedules': {
        body: {
          items: [
            {
              id: scheduleId,
              name: 'Standard dunning',
              steps: [],
              isDefault: false,
              createdOn: reminder.createdOn,
              updatedOn: reminder.createdOn,
            },
          ],
          totalItems: 1,
        },
      },
      [`PUT /accounts/${accountId}/reminder-settings`]: ({ body }) => ({ body }),
    });
    renderWithProviders(<AccountReminderSettings accountId={accountId} />, { user: aUser() });
    await userEvent.click(await screen.findByRole('textbox', { name: 'Reminder schedule' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Standard dunning' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Pause reminders' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save reminders' }));
    await screen.findByText('Reminder settings updated');
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      reminderSchedule: scheduleId,
      remindersPaused: true,
    });
  }, 30_000);
});
