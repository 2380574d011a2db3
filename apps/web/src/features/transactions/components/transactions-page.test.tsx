import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { TransactionsPage } from './transactions-page';

beforeAll(prepareGridTests);

function aTransaction(n: number, dueDate: string | null) {
  return {
    id: `0199f0aa-0000-7000-8000-${String(n).padStart(12, '0')}`,
    transactionReference: `INV${String(n).padStart(7, '0')}`,
    transactionSecondReference: null,
    orderReference: null,
    transactionType: n % 2 ? 'Invoice' : 'CreditNote',
    transactionDate: '2026-11-20',
    dueDate,
    transactionAmount: 100 + n,
    discountedAmount: 0,
    allocatedAmount: 0,
    currency: 'GBP',
    paidStatus: n % 2 ? 'PartPaid' : 'Unpaid',
    description: null,
    paymentTermsDescription: null,
    postingApplication: null,
    customHostId: null,
    accountId: '0199f0aa-0000-7000-8000-0000000000aa',
    account: {
      id: '0199f0aa-0000-7000-8000-0000000000aa',
      accountReference: 'ACC01',
      name: `Account ${n}`,
      currency: 'GBP',
    },
    createdOn: '2026-11-20T10:00:00.000Z',
    updatedOn: '2026-11-20T10:00:00.000Z',
  };
}

describe('the transactions list', () => {
  it('asks for the newest first with the account, and shows the columns of spec 2', async () => {
    const calls = stubFetch({
      'GET /transactions/quotes': {
        body: {
          items: [aTransaction(1, '2026-12-20'), aTransaction(2, null)],
          totalItems: 2,
          totalItemsEstimated: false,
        },
      },
    });
    renderWithProviders(<TransactionsPage />, { user: aUser() });
    expect(await screen.findByText('Account 1')).toBeInTheDocument();
    const table = screen.getByText('Account 1').closest('table') as HTMLElement;
    // Sortable headers are buttons; the account name filters but does not sort.
    for (const header of ['Reference', 'Type', 'Date', 'Amount', 'Due date', 'Paid status']) {
      expect(
        within(table).getByRole('button', { name: new RegExp(`^${header}`) }),
      ).toBeInTheDocument();
    }
    expect(within(table).getByRole('columnheader', { name: /^Account name/ })).toBeInTheDocument();
    expect(within(table).getByText('Credit Note')).toBeInTheDocument();
    expect(within(table).getByText('Part Paid')).toBeInTheDocument();
    expect(within(table).getByText('£101.00')).toBeInTheDocument();
    expect(
      within(table).getByRole('link', { name: 'View transaction INV0000002' }),
    ).toHaveAttribute('href', `/transactions/${aTransaction(2, null).id}`);
    // spec 2 §2: the due date is blank, not N/A, when there is none.
    const secondRow = within(table).getByText('INV0000002').closest('tr') as HTMLElement;
    expect(within(secondRow).queryByText('N/A')).not.toBeInTheDocument();
    expect(within(secondRow).getAllByRole('cell')[5]).toHaveTextContent(/^$/);
    const query = new URL(calls[0]!.url, 'http://localhost').searchParams;
    expect(query.get('sort')).toBe('-transactionDate');
    expect(query.get('expand')).toBe('account');
    expect(query.get('itemsPerPage')).toBe('10');
  });

  it('badges invoices past due with their days late, not paid or credit notes', async () => {
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    stubFetch({
      'GET /transactions/quotes': {
        body: {
          items: [
            aTransaction(1, day(-12)),
            aTransaction(3, day(5)),
            { ...aTransaction(5, day(-40)), paidStatus: 'FullyPaid' },
            aTransaction(2, day(-9)), // a credit note
          ],
          totalItems: 4,
          totalItemsEstimated: false,
        },
      },
    });
    renderWithProviders(<TransactionsPage />, { user: aUser() });
    const row = async (reference: string) =>
      (await screen.findByText(reference)).closest('tr') as HTMLElement;
    expect(within(await row('INV0000001')).getByText('Overdue · 12 days')).toBeInTheDocument();
    for (const reference of ['INV0000003', 'INV0000005', 'INV0000002'])
      expect(within(await row(reference)).queryByText(/Overdue/)).not.toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    stubFetch({
      'GET /transactions/quotes': {
        body: { items: [], totalItems: 0, totalItemsEstimated: false },
      },
    });
    renderWithProviders(<TransactionsPage />, { user: aUser() });
    expect(await screen.findByText('No transactions found')).toBeInTheDocument();
  });

  it('shows what each transaction costs if paid today, asked for today', async () => {
    const quoted = aTransaction(3, null);
    const calls = stubFetch({
      'GET /transactions/quotes': {
        body: {
          items: [
            {
              ...quoted,
              quote: { discount: 2.06, fees: 0, amountToPay: 100.94, bestOfferSource: 'Generated' },
            },
          ],
          totalItems: 1,
          totalItemsEstimated: false,
        },
      },
    });
    renderWithProviders(<TransactionsPage />, { user: aUser() });
    expect(await screen.findByText('£100.94')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /To pay today/ })).toBeInTheDocument();
    const query = new URL(calls[0]!.url, 'http://localhost').searchParams;
    expect(query.get('paidOn')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
