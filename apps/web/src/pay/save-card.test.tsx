import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { saveCardLabel } from './components/pay-form';
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

// A card is stored only when the payer agrees. The box shows for a method whose
// configuration stores cards, ticked at first when its save-card default is on.

const pagePath = `GET /pay/${requestId}`;
const startPath = `POST /pay/${requestId}/payments`;

const base = { isTest: false, isDefault: false } as const;
const stripe = {
  ...base,
  configurationId: stripeMethodId,
  providerName: 'Stripe',
  displayName: 'Card with Stripe',
  group: 'Card' as const,
  isDefault: true,
  saveCard: { checkedByDefault: true },
};
const oppwa = {
  ...base,
  configurationId: sandboxMethodId,
  providerName: 'Oppwa',
  displayName: 'Card with Total Processing',
  group: 'Card' as const,
  saveCard: { checkedByDefault: false },
};
const goCardless = {
  ...base,
  configurationId: goCardlessMethodId,
  providerName: 'GoCardless',
  displayName: 'Direct Debit from your bank',
  group: 'BankDebit' as const,
};

function renderPage() {
  const calls = stubFetch({
    [pagePath]: { body: openTransactionPage({ methods: [stripe, oppwa, goCardless] }) },
    [startPath]: {
      body: {
        paymentId,
        amount: 150,
        currency: 'GBP',
        next: { kind: 'redirect', url: 'https://checkout.stripe.com/c/pay/cs_test' },
      },
    },
  });
  render(<PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />);
  return calls;
}

async function payAs(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('First names'), 'Ada');
  await user.type(screen.getByLabelText('Surname'), 'Lovelace');
  await user.type(screen.getByLabelText(/Email address/), 'ada@example.com');
  await user.click(screen.getByRole('button', { name: /^Pay / }));
}

describe('the payer page: save this card', () => {
  it('ticked by default for a method whose default is on; the payer’s answer is sent', async () => {
    const calls = renderPage();
    const user = userEvent.setup();
    const box = await screen.findByRole('checkbox', { name: saveCardLabel });
    expect(box).toBeChecked();
    await user.click(box);
    expect(box).not.toBeChecked();
    await payAs(user);
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      configurationId: stripeMethodId,
      saveCard: false,
    });
  });

  it('unticked for a method whose default is off; hidden for a method that stores no card', async () => {
    const calls = renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /Total Processing/ }));
    expect(screen.getByRole('checkbox', { name: saveCardLabel })).not.toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Direct Debit/ }));
    expect(screen.queryByRole('checkbox', { name: saveCardLabel })).not.toBeInTheDocument();
    // Back to the card: the box as it was, then ticked by the payer.
    await user.click(screen.getByRole('radio', { name: /Total Processing/ }));
    await user.click(screen.getByRole('checkbox', { name: saveCardLabel }));
    await payAs(user);
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      configurationId: sandboxMethodId,
      saveCard: true,
    });
  });

  it('a method without the box sends no save-card choice', async () => {
    const calls = renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /Direct Debit/ }));
    await payAs(user);
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const body = calls.find((call) => call.method === 'POST')?.body as Record<string, unknown>;
    expect(body.configurationId).toBe(goCardlessMethodId);
    expect(body).not.toHaveProperty('saveCard');
  });
});
