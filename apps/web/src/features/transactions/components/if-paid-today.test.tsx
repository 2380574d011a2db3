import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { TransactionPage } from './transaction-page';

const id = '0199f0aa-0000-7000-8000-000000000001';
const configurationId = '0199f0aa-0000-7000-8000-0000000000c1';
const detail = {
  id,
  transactionReference: 'INV0000001',
  transactionSecondReference: null,
  orderReference: null,
  transactionType: 'Invoice',
  transactionDate: '2026-11-01',
  dueDate: '2026-12-01',
  transactionAmount: 1500,
  discountedAmount: 0,
  allocatedAmount: 0,
  currency: 'GBP',
  paidStatus: 'Unpaid',
  description: null,
  paymentTermsDescription: null,
  postingApplication: null,
  customHostId: null,
  accountId: '0199f0aa-0000-7000-8000-0000000000aa',
  account: {
    id: '0199f0aa-0000-7000-8000-0000000000aa',
    accountReference: 'ACC01',
    name: 'Acme Ltd',
    currency: 'GBP',
  },
  contact: null,
  amountOwed: 1500,
  settlementOffers: [],
  documents: [],
  paymentAllocations: [],
  paymentFeeTransactions: [],
  createdOn: '2026-11-01T10:00:00.000Z',
  updatedOn: '2026-11-01T10:00:00.000Z',
};
const offer = {
  source: 'Generated',
  id: configurationId,
  groupId: '0199f0aa-0000-7000-8000-0000000000b1',
  type: 'PercentageDiscount',
  description: '2% in 10 days',
  validUntil: '2026-11-11',
  discount: 30,
};
const quote = {
  transactionId: id,
  paidOn: '2026-11-05',
  currency: 'GBP',
  outstandingAmount: 1500,
  offers: [offer],
  bestOffer: offer,
  discount: 30,
  fees: [],
  latePayment: null,
  amountToPay: 1470,
};

describe('the "if paid today" line', () => {
  it('shows the discount and the amount to pay, and the generated offer apart', async () => {
    const calls = stubFetch({
      [`GET /transactions/${id}`]: { body: detail },
      [`GET /transactions/${id}/quote`]: { body: quote },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/transactions/${id}`,
      routes: [{ path: '/transactions/:id', element: <TransactionPage /> }],
    });
    const line = await screen.findByLabelText('If paid today');
    expect(within(line).getByText('£30.00')).toBeInTheDocument();
    expect(within(line).getByText('£1,470.00')).toBeInTheDocument();
    expect(within(line).getByText(/generated offer/)).toBeInTheDocument();
    expect(
      calls.find((call) => call.url.startsWith(`/api/v0/transactions/${id}/quote?paidOn=`)),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: /Settlement offers/ }));
    const table = await screen.findByRole('table', { name: 'Offers that apply today' });
    expect(within(table).getByText('Generated')).toBeInTheDocument();
    expect(within(table).getByText('2% in 10 days')).toBeInTheDocument();
  });

  it('shows the fees of a late invoice', async () => {
    stubFetch({
      [`GET /transactions/${id}`]: { body: detail },
      [`GET /transactions/${id}/quote`]: {
        body: {
          ...quote,
          offers: [],
          bestOffer: null,
          discount: 0,
          fees: [
            { type: 'StatutoryInterest', amount: 56.34, description: 'Statutory interest' },
            { type: 'FixedSum', amount: 70, description: 'Fixed-sum debt recovery cost' },
          ],
          latePayment: {
            configurationId,
            interestStart: '2026-02-10',
            daysLate: 35,
            referenceRate: 3.75,
            annualRate: 11.75,
            notApplied: null,
          },
          amountToPay: 1626.34,
        },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/transactions/${id}`,
      routes: [{ path: '/transactions/:id', element: <TransactionPage /> }],
    });
    const line = await screen.findByLabelText('If paid today');
    expect(within(line).getByText('£70.00')).toBeInTheDocument();
    expect(within(line).getByText('£56.34')).toBeInTheDocument();
    expect(within(line).getByText(/11.75% \(8% \+ reference rate 3.75%\)/)).toBeInTheDocument();
  });
});
