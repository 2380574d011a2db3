import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { PaymentTransactionsPage } from './payment-transactions-page';

beforeAll(prepareGridTests);

function aPayment(n: number) {
  return {
    id: `0199f0aa-0000-7000-8000-${String(n).padStart(12, '0')}`,
    type: 'Payment',
    status: n % 2 ? 'Paid' : 'NotAuthorised',
    allocatedStatus: 'WaitingToBeAllocated',
    ledgerlineReference: `LL${String(n).padStart(9, '0')}`,
    createdOn: '2026-11-20T09:55:00.000Z',
    statusDateTime: '2026-11-20T10:00:00.000Z',
    totalAmount: 100 + n,
    currency: 'GBP',
    fee: null,
    feeCurrency: null,
    customerName: `Customer ${n}`,
    companyName: 'Acme Ltd',
    customerDetails: null,
    accountId: null,
    payerId: null,
    paymentRequestId: null,
    paymentProviderId: null,
    paymentProviderName: null,
    paymentProviderReference: null,
    paymentMethodType: 'Card',
  };
}

describe('the payment transactions list', () => {
  it('asks for the newest first and shows the columns of spec 2, the id only when asked', async () => {
    const calls = stubFetch({
      'GET /payment-transactions': {
        body: {
          items: [aPayment(1), aPayment(2)],
          totalItems: 1_000_000,
          totalItemsEstimated: true,
        },
      },
    });
    renderWithProviders(<PaymentTransactionsPage />, { user: aUser() });
    expect(await screen.findByText('Customer 1')).toBeInTheDocument();
    const table = screen.getByText('Customer 1').closest('table') as HTMLElement;
    expect(within(table).getByText('Not Authorised')).toBeInTheDocument();
    expect(within(table).getByText('£101.00')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'View payment LL000000001' })).toHaveAttribute(
      'href',
      `/payment-transactions/${aPayment(1).id}`,
    );
    expect(screen.getByText(/of about 1,000,000/)).toBeInTheDocument();
    const query = new URL(calls[0]!.url, 'http://localhost').searchParams;
    expect(query.get('sort')).toBe('-statusDateTime');
    expect(query.get('itemsPerPage')).toBe('10');
    expect(within(table).queryByRole('columnheader', { name: 'Id' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Show id' }));
    expect(await within(table).findByRole('columnheader', { name: 'Id' })).toBeInTheDocument();
    expect(within(table).getByText(aPayment(2).id)).toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    stubFetch({
      'GET /payment-transactions': {
        body: { items: [], totalItems: 0, totalItemsEstimated: false },
      },
    });
    renderWithProviders(<PaymentTransactionsPage />, { user: aUser() });
    expect(await screen.findByText('No payment transactions found')).toBeInTheDocument();
  });
});

// A search box and several statuses, answered by the server, kept in the address.
describe('the payment transactions toolbar', () => {
  const page = { items: [aPayment(1)], totalItems: 1, totalItemsEstimated: false };
  const queryOf = (call: { url: string }) => new URL(call.url, 'http://localhost').searchParams;

  it('searches on the server and writes the search into the address', async () => {
    const calls = stubFetch({ 'GET /payment-transactions': { body: page } });
    const { router } = renderWithProviders(<PaymentTransactionsPage />, {
      user: aUser(),
      path: '/payment-transactions',
    });
    await screen.findByText('Customer 1');
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search payment transactions' }),
      'LL0001{Enter}',
    );
    await vi.waitFor(() => expect(queryOf(calls.at(-1)!).get('search')).toBe('LL0001'));
    expect(queryOf(calls.at(-1)!).get('page')).toBe('1');
    expect(new URLSearchParams(router.state.location.search).get('search')).toBe('LL0001');
  });

  it('asks for several statuses at once from the multi-select', async () => {
    const calls = stubFetch({ 'GET /payment-transactions': { body: page } });
    const { router } = renderWithProviders(<PaymentTransactionsPage />, {
      user: aUser(),
      path: '/payment-transactions',
    });
    await screen.findByText('Customer 1');
    const statuses = screen.getByRole('textbox', { name: 'Status' });
    await userEvent.click(statuses);
    await userEvent.click(await screen.findByRole('option', { name: 'Failed' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Rejected' }));
    await vi.waitFor(() =>
      expect(queryOf(calls.at(-1)!).get('filter')).toBe('status eq Failed,status eq Rejected'),
    );
    expect(new URLSearchParams(router.state.location.search).get('f.status')).toBe(
      'in:Failed,Rejected',
    );
  });

  it('opens the view the address describes: search, statuses, sort and page', async () => {
    const calls = stubFetch({
      'GET /payment-transactions': { body: { ...page, totalItems: 100 } },
    });
    renderWithProviders(<PaymentTransactionsPage />, {
      user: aUser(),
      path: '/payment-transactions?search=Acme&f.status=in:Failed,Rejected&sort=totalAmount&page=3',
    });
    await screen.findByText('Customer 1');
    const query = queryOf(calls[0]!);
    expect(query.get('search')).toBe('Acme');
    expect(query.get('filter')).toBe('status eq Failed,status eq Rejected');
    expect(query.get('sort')).toBe('totalAmount');
    expect(query.get('page')).toBe('3');
    expect(screen.getByRole('searchbox', { name: 'Search payment transactions' })).toHaveValue(
      'Acme',
    );
  });
});
