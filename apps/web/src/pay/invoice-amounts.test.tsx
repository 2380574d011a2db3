import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { PayApp } from './pay-app';
import {
  openTransactionPage,
  paymentId,
  recordingBrowser,
  requestId,
  stripeMethodId,
} from './test-support';

const pagePath = `GET /pay/${requestId}`;
const startPath = `POST /pay/${requestId}/payments`;

/** Both invoices editable: INV-001 required (980 in full), INV-002 may be left out (576.22 with fees). */
function editablePage() {
  const page = openTransactionPage();
  const [first, second] = page.invoices;
  return {
    ...page,
    invoices: [
      { ...first!, editable: { minimumAmount: 0.01, maximumAmount: 980, required: true } },
      { ...second!, editable: { minimumAmount: 10, maximumAmount: 576.22, required: false } },
    ],
  };
}

async function fillPayer(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('First names'), 'Ada');
  await user.type(screen.getByLabelText('Surname'), 'Lovelace');
  await user.type(screen.getByLabelText(/Email address/), 'ada@example.com');
}

describe('the payer page: changing what is paid of each invoice', () => {
  it('shows an amount per editable invoice with its bounds, updates the total, and sends the amounts', async () => {
    const calls = stubFetch({
      [pagePath]: { body: editablePage() },
      [startPath]: {
        body: {
          paymentId,
          amount: 500,
          currency: 'GBP',
          next: { kind: 'redirect', url: 'https://checkout.stripe.com/c/pay/cs_test_2' },
        },
      },
    });
    const browser = recordingBrowser();
    render(<PayApp requestId={requestId} query={{}} browser={browser} />);
    const user = userEvent.setup();
    const first = await screen.findByLabelText('Amount for invoice INV-001 (GBP)');
    const second = screen.getByLabelText('Amount for invoice INV-002 (GBP)');
    expect(first).toHaveValue('980.00');
    expect(second).toHaveValue('576.22');
    expect(first).toHaveAccessibleDescription(
      'Between £0.01 and £980.00; £980.00 pays it in full.',
    );
    expect(screen.getByText(/Total of this payment/)).toHaveTextContent(
      'Total of this payment: £1,556.22',
    );
    // Only the invoice that is not required may be left out.
    expect(screen.queryByLabelText(/Leave invoice INV-001 out/)).not.toBeInTheDocument();

    await fillPayer(user);
    for (const [typed, message] of [
      ['0', 'Amount must be greater than 0'],
      ['990', 'Enter no more than £980.00'],
      ['12.345', 'Enter the amount with at most 2 decimal places'],
    ]) {
      await user.clear(first);
      await user.type(first, typed!);
      await user.click(screen.getByRole('button', { name: /^Pay/ }));
      expect(await screen.findByText(message!)).toBeInTheDocument();
      await waitFor(() => expect(first).toHaveFocus());
      expect(first).toHaveAttribute('aria-invalid', 'true');
    }
    // With late fees, a part is at most what the invoice owes before them.
    await user.clear(first);
    await user.type(first, '500');
    await user.clear(second);
    await user.type(second, '520');
    await user.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(
      await screen.findByText(
        'Pay £576.22 (in full) or at most £500.00: late fees are paid only with the whole invoice',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByLabelText('Leave invoice INV-002 out of this payment'));
    expect(second).toBeDisabled();
    expect(screen.getByText(/Total of this payment/)).toHaveTextContent(
      'Total of this payment: £500.00',
    );
    await user.click(screen.getByRole('radio', { name: /Card with Stripe/ }));
    await user.click(screen.getByRole('button', { name: 'Pay £500.00' }));
    await waitFor(() =>
      expect(browser.goTo).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_2'),
    );
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      configurationId: stripeMethodId,
      invoices: [
        { transactionId: editablePage().invoices[0]!.transactionId, amount: 500 },
        { transactionId: editablePage().invoices[1]!.transactionId, amount: 0 },
      ],
      payer: { firstNames: 'Ada', surname: 'Lovelace', emailAddress: 'ada@example.com' },
    });
  });

  it('shows the server’s message on the invoice it names', async () => {
    const message = 'Enter at least GBP 10.00 for invoice INV-002.';
    stubFetch({
      [pagePath]: { body: editablePage() },
      [startPath]: {
        status: 422,
        body: {
          title: 'Unprocessable Content',
          status: 422,
          detail: message,
          errors: { 'invoices.1.amount': [message] },
        },
      },
    });
    render(<PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />);
    const user = userEvent.setup();
    const second = await screen.findByLabelText('Amount for invoice INV-002 (GBP)');
    await fillPayer(user);
    await user.click(screen.getByRole('button', { name: 'Pay £1,556.22' }));
    await waitFor(() => expect(second).toHaveFocus());
    expect(second).toHaveAccessibleDescription(
      `Between £10.00 and £576.22; £576.22 pays it in full. ${message}`,
    );
  });

  it('says to choose an invoice when every one is left out and nothing else is owed', async () => {
    const page = editablePage();
    stubFetch({
      [pagePath]: {
        body: {
          ...page,
          invoices: [page.invoices[1]!],
          amountToPay: 576.22,
        },
      },
    });
    render(<PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />);
    const user = userEvent.setup();
    await screen.findByLabelText('Amount for invoice INV-002 (GBP)');
    await fillPayer(user);
    await user.click(screen.getByLabelText('Leave invoice INV-002 out of this payment'));
    await user.click(screen.getByRole('button', { name: 'Pay £0.00' }));
    expect(await screen.findByText('Choose at least one invoice to pay.')).toBeInTheDocument();
  });
});
