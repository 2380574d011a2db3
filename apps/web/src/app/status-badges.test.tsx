import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  aPaymentRequest,
  aPaymentTransaction,
  aTransaction,
} from '@/features/accounts/components/account-fixtures';
import { PaymentRequestsPage } from '@/features/payment-requests/components/payment-requests-page';
import { PaymentTransactionsPage } from '@/features/payment-transactions/components/payment-transactions-page';
import { TransactionsPage } from '@/features/transactions/components/transactions-page';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';

beforeAll(prepareGridTests);

const page = <T,>(items: T[]) => ({
  body: { items, totalItems: items.length, totalItemsEstimated: false },
});
const badgeOf = (table: HTMLElement, text: string) =>
  within(table).getByText(text).closest('.mantine-Badge-root');

// Status columns as coloured badges across the lists.
describe('status columns', () => {
  it('show payment and allocated statuses as badges', async () => {
    stubFetch({ 'GET /payment-transactions': page([aPaymentTransaction({ status: 'Failed' })]) });
    renderWithProviders(<PaymentTransactionsPage />, { user: aUser() });
    const table = await screen.findByRole('table', { name: 'Payment transactions' });
    await within(table).findByText('Failed');
    expect(badgeOf(table, 'Failed')).toHaveAttribute('data-variant', 'light');
    expect(badgeOf(table, 'Auto Allocated')).not.toBeNull();
  });

  it('show request statuses and paid statuses as badges', async () => {
    stubFetch({ 'GET /payment-requests': page([aPaymentRequest({ requestStatus: 'Expired' })]) });
    const requests = renderWithProviders(<PaymentRequestsPage />, { user: aUser() });
    const requestTable = await screen.findByRole('table', { name: 'Payment requests' });
    await within(requestTable).findByText('Expired');
    expect(badgeOf(requestTable, 'Expired')).not.toBeNull();
    requests.unmount();

    // The list asks for its page with each row's quote in one request (GET transactions/quotes).
    stubFetch({ 'GET /transactions/quotes': page([aTransaction({ paidStatus: 'PartPaid' })]) });
    renderWithProviders(<TransactionsPage />, { user: aUser() });
    const transactionTable = await screen.findByRole('table', { name: 'Transactions' });
    await within(transactionTable).findByText('Part Paid');
    expect(badgeOf(transactionTable, 'Part Paid')).not.toBeNull();
  });
});
