import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { reminderMessages } from '@ledgerline/contract';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ReminderSchedulesPage } from './reminder-schedules-page';

const scheduleId = '0199f0aa-0000-7000-8000-0000000000d1';
const accountId = '0199f0aa-0000-7000-8000-0000000000a1';
const schedule = {
  id: scheduleId,
  name: 'Standard dunning',
  steps: [
    {
      id: '0199f0aa-0000-7000-8000-0000000000e1',
      days: -3,
      subject: 'Soon',
      body: '{invoiceTable}',
    },
    {
      id: '0199f0aa-0000-7000-8000-0000000000e2',
      days: 7,
      subject: 'Late',
      body: '{invoiceTable}',
    },
  ],
  isDefault: true,
  createdOn: '2026-11-01T10:00:00.000Z',
  updatedOn: '2026-11-01T10:00:00.000Z',
};
const preferences = {
  defaultSettlementConfigurationGroupId: null,
  defaultLatePaymentConfigurationId: null,
  defaultCountryId: 826,
  defaultEditPaymentStatus: 'Disable',
  allowTransactionCurrencyChange: 'Disable',
  defaultReminderScheduleId: scheduleId,
  reminderTime: '09:00',
  reminderTimeZone: 'Europe/London',
};
const preview = {
  date: '2026-11-27',
  customerNotificationsAllowed: true,
  totalItems: 1,
  skipped: { disputed: 2, paused: 1, noEmailAddress: 0 },
  items: [
    {
      accountId,
      accountReference: 'ACC-1',
      accountName: 'Alpha Trading',
      emailAddress: 'a@payer.example',
      scheduleId,
      scheduleName: 'Standard dunning',
      subject: 'Late',
      invoices: [
        {
          transactionId: '0199f0aa-0000-7000-8000-0000000000f1',
          transactionReference: 'INV-1',
          dueDate: '2026-11-20',
          currency: 'GBP',
          outstandingAmount: 120,
          lateFees: 0,
          stepId: '0199f0aa-0000-7000-8000-0000000000e2',
          days: 7,
        },
      ],
      totals: [{ currency: 'GBP', totalOwed: 120, lateFees: 0 }],
    },
  ],
};

const routes = {
  'GET /reminder-schedules': { body: { items: [schedule], totalItems: 1 } },
  'GET /company-settings/preferences': { body: preferences },
  'GET /reminders/preview': { body: preview },
};

describe('reminder schedules', () => {
  it('lists the schedules with their steps and the default, and what goes out tomorrow', async () => {
    const calls = stubFetch({
      ...routes,
      'POST /reminders/run': {
        body: {
          date: '2026-11-27',
          customerNotificationsAllowed: true,
          reminders: 1,
          invoices: 1,
          reminderIds: [],
        },
      },
    });
    renderWithProviders(<ReminderSchedulesPage />, { user: aUser() });
    const table = await screen.findByRole('table', { name: 'Reminder schedules' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Standard dunningDefault');
    expect(row).toHaveTextContent('3 before, 7 after');
    const toSend = await screen.findByRole('table', { name: 'Reminders to send' });
    expect(toSend).toHaveTextContent('ACC-1 - Alpha Trading');
    expect(screen.getByText(/2 with a disputed amount, 1 paused/)).toBeInTheDocument();
    await userEvent.click(within(toSend).getByRole('button', { name: 'Send now' }));
    await screen.findByText('Reminder sent to Alpha Trading');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      accountId,
      date: '2026-11-27',
    });
  }, 20_000);

  it('checks a new schedule before saving it and posts its steps', async () => {
    const calls = stubFetch({
      ...routes,
      'POST /reminder-schedules': { status: 201, body: schedule },
    });
    renderWithProviders(<ReminderSchedulesPage />, { user: aUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'New Reminder Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Reminder Schedule' });
    const subject = within(dialog).getByRole('textbox', { name: 'Step 1 subject' });
    await userEvent.clear(subject);
    await userEvent.click(subject);
    await userEvent.paste('Pay {totalOwing}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(reminderMessages.nameRequired)).toBeInTheDocument();
    expect(
      within(dialog).getByText(reminderMessages.unknownPlaceholder('totalOwing')),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Name' }));
    await userEvent.paste('Gentle');
    await userEvent.clear(subject);
    await userEvent.click(subject);
    await userEvent.paste('Invoices of {company}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Reminder schedule created');
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      name: 'Gentle',
      steps: [{ days: 1, subject: 'Invoices of {company}' }],
    });
  }, 45_000);

  it('deletes a schedule only once confirmed', async () => {
    const calls = stubFetch({
      ...routes,
      [`DELETE /reminder-schedules/${scheduleId}`]: { status: 204 },
    });
    renderWithProviders(<ReminderSchedulesPage />, { user: aUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Standard dunning' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Reminder Schedule' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Reminder schedule deleted');
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  }, 20_000);
});
