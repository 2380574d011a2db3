import { latePaymentMessages } from '@ledgerline/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { LatePaymentsPage } from './late-payments-page';

const configuration = {
  id: '0199f0aa-0000-7000-8000-0000000000e1',
  feeGroupType: 'LatePayment',
  type: 'Uk',
  name: 'Statutory terms',
  description: 'The Act',
  enabled: true,
  gracePeriodInDays: 5,
  recurringPeriodInDays: null,
  percentage: null,
  amount: null,
  applyCharges: true,
  isDefault: true,
};
const ukInfo = {
  annualStatutoryInterestRate: 8,
  currentBoEBaseRate: 3.75,
  referenceRate: 3.75,
  referenceRateFixedOn: '2026-06-30',
  latePaymentsApplied: false,
  charges: [
    { from: 0, to: 999.99, charge: 40 },
    { from: 1000, to: 9999.99, charge: 70 },
    { from: 10000, to: 0, charge: 100 },
  ],
};

function stub(allowLatePayments: 'true' | 'false') {
  return stubFetch({
    'GET /late-payment-configurations': { body: { items: [configuration], totalItems: 1 } },
    'GET /late-payment-configurations/uk/info': { body: ukInfo },
    'GET /tenant-settings/AllowLatePayments': {
      body: { name: 'AllowLatePayments', value: allowLatePayments },
    },
    'POST /late-payment-configurations': {
      status: 201,
      body: { ...configuration, id: '0199f0aa-0000-7000-8000-0000000000e2', isDefault: false },
    },
  });
}

describe('the late payments page (spec 3 §2)', () => {
  it('lists configurations with the default badge and shows the beta banner when late payments are off', async () => {
    stub('false');
    renderWithProviders(<LatePaymentsPage />, { user: aUser() });
    const table = await screen.findByRole('table', { name: 'Late payment configurations' });
    const row = within(table)
      .getByText('UK statutory', { selector: 'td *, td' })
      .closest('tr') as HTMLElement;
    expect(within(row).getByText('Default')).toBeInTheDocument();
    expect(within(row).getByText('5 days')).toBeInTheDocument();
    expect(
      await screen.findByText(new RegExp(latePaymentMessages.betaBanner.slice(0, 40))),
    ).toBeInTheDocument();
  });

  it('opens the UK form with the statutory panel, and says Custom is not available yet', async () => {
    const calls = stub('true');
    renderWithProviders(<LatePaymentsPage />, { user: aUser() });
    await screen.findByRole('table', { name: 'Late payment configurations' });
    expect(screen.queryByText(/currently in beta/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Custom' }));
    expect(await screen.findByText(latePaymentMessages.customNotAvailable)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'UK statutory' }));
    const dialog = await screen.findByRole('dialog', { name: 'New UK Statutory Late Payment' });
    const costs = await within(dialog).findByRole('table', { name: 'Debt recovery costs' });
    for (const text of [
      'up to £999.99',
      '£1,000 to £9,999.99',
      '£10,000 or more',
      '£40',
      '£70',
      '£100',
    ])
      expect(within(costs).getByText(text)).toBeInTheDocument();
    expect(within(dialog).getByText('11.75%')).toBeInTheDocument();
    const grace = within(dialog).getByRole('textbox', { name: 'Grace period in days' });
    expect(grace).toHaveValue('0');
    await userEvent.clear(grace);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(latePaymentMessages.gracePeriodRequired),
    ).toBeInTheDocument();
    expect(await within(dialog).findByText(latePaymentMessages.nameRequired)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Statutory');
    await userEvent.type(grace, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Late payment configuration added');
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toMatchObject({
      type: 'Uk',
      name: 'Statutory',
      gracePeriodInDays: 3,
      enabled: true,
      applyCharges: true,
    });
  }, 30_000);
});
