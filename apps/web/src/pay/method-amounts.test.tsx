import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { PayApp } from './pay-app';
import {
  goCardlessMethodId,
  openTransactionPage,
  paymentId,
  recordingBrowser,
  requestId,
  sandboxMethodId,
  stripeMethodId,
} from './test-support';

// The methods offered follow the amount the payer chooses (their payment amount filters).

const pagePath = `GET /pay/${requestId}`;
const startPath = `POST /pay/${requestId}/payments`;

function accountPage(methods: ReturnType<typeof openTransactionPage>['methods']) {
  return openTransactionPage({
    requestType: 'Account',
    invoices: [],
    discountTotal: 0,
    feeTotal: 0,
    amountToPay: 800,
    partPayment: { minimumAmount: 1, maximumAmount: 800 },
    methods,
  });
}

const base = { providerName: 'Sandbox', isTest: false, isDefault: false } as const;
const sandbox = {
  ...base,
  configurationId: sandboxMethodId,
  displayName: 'Sandbox card',
  group: 'Card' as const,
  isDefault: true,
  maximumAmount: 500,
};
const stripe = {
  ...base,
  configurationId: stripeMethodId,
  providerName: 'Stripe',
  displayName: 'Card with Stripe',
  group: 'Card' as const,
  minimumAmount: 300,
};
const goCardless = {
  ...base,
  configurationId: goCardlessMethodId,
  providerName: 'GoCardless',
  displayName: 'Direct Debit from your bank',
  group: 'BankDebit' as const,
};

describe('the payer page: methods follow the amount', () => {
  it('shows only the methods that take the amount typed, and pays with the one chosen', async () => {
    const calls = stubFetch({
      [pagePath]: { body: accountPage([sandbox, stripe, goCardless]) },
      [startPath]: {
        body: { paymentId, amount: 250, currency: 'GBP', next: { kind: 'sandbox' } },
      },
    });
    render(<PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />);
    const user = userEvent.setup();
    const amount = await screen.findByLabelText('Amount to pay (GBP)');
    // £800: the Sandbox takes at most £500, so it is not offered; the first offered is chosen.
    expect(screen.queryByRole('radio', { name: /Sandbox card/ })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Card with Stripe/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Direct Debit/ })).not.toBeChecked();

    await user.clear(amount);
    await user.type(amount, '250');
    // £250: Stripe takes £300 or more; the Sandbox (the default) is back and chosen.
    expect(screen.queryByRole('radio', { name: /Card with Stripe/ })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Sandbox card/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Direct Debit/ }));
    expect(screen.getByRole('radio', { name: /Direct Debit/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Sandbox card/ }));

    await user.type(screen.getByLabelText('First names'), 'Ada');
    await user.type(screen.getByLabelText('Surname'), 'Lovelace');
    await user.type(screen.getByLabelText(/Email address/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Pay £250.00' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      configurationId: sandboxMethodId,
      amount: 250,
    });
  });

  it('says when no method takes the amount, and offers them again when it changes', async () => {
    stubFetch({ [pagePath]: { body: accountPage([sandbox]) } });
    render(<PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />);
    const user = userEvent.setup();
    const amount = await screen.findByLabelText('Amount to pay (GBP)');
    expect(screen.getByRole('status')).toHaveTextContent(
      'No way to pay takes £800.00. Please change the amount.',
    );
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '500');
    expect(screen.getByRole('radio', { name: /Sandbox card/ })).toBeChecked();
    expect(screen.queryByText(/No way to pay takes/)).not.toBeInTheDocument();
  });
});
