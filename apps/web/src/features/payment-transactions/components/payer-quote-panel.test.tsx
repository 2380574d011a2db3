import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultUserSetting, type PaymentTransaction } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { PaymentTransactionPage } from './payment-transaction-page';

const id = '0199f0aa-0000-7000-8000-000000000001';
const overdue = '0199f0aa-0000-7000-8000-0000000000b1';
const early = '0199f0aa-0000-7000-8000-0000000000b2';
const offerId = '0199f0aa-0000-7000-8000-0000000000d1';
const payment: PaymentTransaction = {
  id,
  type: 'Payment',
  status: 'Paid',
  allocatedStatus: 'AutoAllocated',
  ledgerlineReference: 'LL000000041',
  createdOn: '2026-11-20T18:30:00.000Z',
  statusDateTime: '2026-11-20T18:31:00.000Z',
  totalAmount: 1417.42,
  currency: 'GBP',
  fee: null,
  feeCurrency: null,
  customerName: 'Late And Early Ltd',
  companyName: 'Late And Early Ltd',
  customerDetails: null,
  accountId: null,
  payerId: null,
  paymentRequestId: null,
  paymentRequest: null,
  paymentProviderId: null,
  paymentProviderName: 'Sandbox',
  paymentProviderReference: 'sbx_pay_1',
  paymentMethodType: 'Card',
  paymentAllocations: [],
  paymentFeeTransactions: [],
  payerQuote: {
    quotedAt: '2026-11-20T18:30:00.000Z',
    quotedOn: '2026-11-20',
    currency: 'GBP',
    invoices: [
      {
        transactionId: overdue,
        reference: 'INV-900',
        outstandingAmount: 900,
        discount: 0,
        offer: null,
        fees: [
          { type: 'StatutoryInterest', amount: 2.42, description: 'Statutory interest at 11.75% a year for 30 days' },
          { type: 'FixedSum', amount: 40, description: 'Fixed-sum debt recovery cost' },
        ],
        feesReason: 'This invoice was due on 21 October 2026. UK law lets the seller add interest at 8% over the Bank of England base rate and a fixed sum of £40 for late payment.',
        chosenAmount: null,
        amountToPay: 942.42,
      },
      {
        transactionId: early,
        reference: 'INV-500',
        outstandingAmount: 500,
        discount: 25,
        offer: { id: offerId, source: 'Manual', description: '£25 off for paying this week', validUntil: '2026-11-25' },
        fees: [],
        feesReason: null,
        chosenAmount: null,
        amountToPay: 475,
      },
    ],
    discountTotal: 25,
    feeTotal: 42.42,
    total: 1417.42,
    amountChosen: 1417.42,
  },
};

function render(body: PaymentTransaction, timeZoneId: string = defaultUserSetting.timeZoneId) {
  stubFetch({ [`GET /payment-transactions/${id}`]: { body } });
  renderWithProviders(<p>Elsewhere</p>, {
    user: aUser({ userSetting: { ...defaultUserSetting, timeZoneId } }),
    path: `/payment-transactions/${id}`,
    routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
  });
}

describe('the payment transaction page: offered to the payer', () => {
  it('shows each invoice as offered, with links, offer, fees and the total, quoted at in the user’s time zone', async () => {
    render(payment, 'Tokyo Standard Time');
    const tab = await screen.findByRole('tab', { name: /^Offered to the payer/ });
    await userEvent.click(tab);
    expect(tab).toHaveAttribute('aria-selected', 'true');

    const late = await screen.findByRole('table', { name: 'Invoice INV-900' });
    expect(within(late).getByRole('rowheader', { name: 'Outstanding' }).closest('tr')).toHaveTextContent('£900.00');
    expect(within(late).getByRole('rowheader', { name: /Statutory interest/ }).closest('tr')).toHaveTextContent('£2.42');
    expect(within(late).getByText('Statutory interest at 11.75% a year for 30 days')).toBeInTheDocument();
    expect(within(late).getByRole('rowheader', { name: /Fixed sum/ }).closest('tr')).toHaveTextContent('£40.00');
    expect(within(late).getByRole('rowheader', { name: 'To pay' }).closest('tr')).toHaveTextContent('£942.42');
    expect(screen.getByText(/UK law lets the seller add interest/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'INV-900' })).toHaveAttribute('href', `/transactions/${overdue}`);

    const discounted = screen.getByRole('table', { name: 'Invoice INV-500' });
    const discount = within(discounted).getByRole('rowheader', { name: /Discount/ });
    expect(discount).toHaveTextContent(`£25 off for paying this week (offer ${offerId}), valid until 2026/11/25`);
    expect(discount.closest('tr')).toHaveTextContent('£25.00');
    expect(within(discounted).getByRole('rowheader', { name: 'To pay' }).closest('tr')).toHaveTextContent('£475.00');
    expect(within(discounted).queryByRole('rowheader', { name: /Statutory interest/ })).not.toBeInTheDocument();

    const total = screen.getByRole('table', { name: 'Total' });
    expect(within(total).getByRole('rowheader', { name: 'Discounts' }).closest('tr')).toHaveTextContent('£25.00');
    expect(within(total).getByRole('rowheader', { name: 'Late fees' }).closest('tr')).toHaveTextContent('£42.42');
    expect(within(total).getByRole('rowheader', { name: 'Total offered' }).closest('tr')).toHaveTextContent('£1,417.42');
    expect(within(total).queryByRole('rowheader', { name: 'Amount the payer chose' })).not.toBeInTheDocument();
    // 18:30 UTC is 03:30 the next day in Tokyo.
    const quotedAt = screen.getByText(/What the payer was offered/).querySelector('time')!;
    expect(quotedAt).toHaveAttribute('dateTime', '2026-11-20T18:30:00.000Z');
    expect(quotedAt).toHaveTextContent('2026/11/21 03:30');
  });

  it('shows the amount the payer chose beside the total offered for a part payment', async () => {
    render({
      ...payment,
      totalAmount: 30,
      payerQuote: { ...payment.payerQuote!, invoices: [], discountTotal: 0, feeTotal: 0, total: 100, amountChosen: 30 },
    });
    await userEvent.click(await screen.findByRole('tab', { name: /^Offered to the payer/ }));
    const total = await screen.findByRole('table', { name: 'Total' });
    expect(within(total).getByRole('rowheader', { name: 'Total offered' }).closest('tr')).toHaveTextContent('£100.00');
    expect(within(total).getByRole('rowheader', { name: 'Amount the payer chose' }).closest('tr')).toHaveTextContent('£30.00');
    expect(within(total).queryByRole('rowheader', { name: 'Discounts' })).not.toBeInTheDocument();
  });

  it('shows nothing for a payment not made on the payer page', async () => {
    render({ ...payment, payerQuote: null });
    expect(await screen.findByRole('tab', { name: /Payment allocations/ })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /^Offered to the payer/ })).not.toBeInTheDocument();
  });
});
