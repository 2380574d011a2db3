import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { RejectedPaymentsPanel, SuccessfulPaymentsPanel } from './latest-payments-panel';

const payment = {
  id: '0199f0aa-0000-7000-8000-000000000001',
  type: 'Payment',
  status: 'Paid',
  allocatedStatus: 'AutoAllocated',
  ledgerlineReference: 'LL000000001',
  createdOn: '2026-11-20T09:55:00.000Z',
  statusDateTime: '2026-11-20T10:00:00.000Z',
  totalAmount: 1234.5,
  currency: 'GBP',
  fee: null,
  feeCurrency: null,
  customerName: 'Alice Smith',
  companyName: 'Acme Ltd',
  customerDetails: null,
  accountId: null,
  payerId: null,
  paymentRequestId: '0199f0aa-0000-7000-8000-000000000002',
  paymentRequest: {
    id: '0199f0aa-0000-7000-8000-000000000002',
    customerName: 'Acme Trading',
    customerReference: 'ACC1',
    requestStatus: 'Completed',
    amountToPay: 1234.5,
    currency: 'GBP',
  },
  paymentProviderId: null,
  paymentProviderName: 'Stripe',
  paymentProviderReference: 'pi_1',
  paymentMethodType: 'Card',
};

describe('the dashboard payment panels', () => {
  it('lists the latest paid payments as the spec asks for them, each linking to its transaction', async () => {
    const calls = stubFetch({
      'GET /payment-transactions': {
        body: { items: [payment], totalItems: 1, totalItemsEstimated: false },
      },
    });
    renderWithProviders(<SuccessfulPaymentsPanel />, { user: aUser() });
    const link = await screen.findByRole('link', { name: /Acme Trading/ });
    expect(link).toHaveAttribute('href', `/payment-transactions/${payment.id}`);
    // The currency as the rest of the site writes it, £1,234.50, not GBP 1,234.50.
    expect(link).toHaveTextContent('£1,234.50');
    expect(link).not.toHaveTextContent('GBP');
    expect(link).toHaveTextContent('2026/11/20 10:00:00');
    const query = new URL(calls[0]!.url, 'http://localhost').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      page: '1',
      itemsPerPage: '8',
      sort: '-StatusDateTime',
      filter: 'Status eq Paid',
      expand: 'paymentrequest',
    });
    expect(calls[0]!.headers.get('dataset-id')).toBe('1');
  });

  it('says so when there are no payments of either kind', async () => {
    stubFetch({
      'GET /payment-transactions': {
        body: { items: [], totalItems: 0, totalItemsEstimated: false },
      },
      'GET /payment-transactions/status/all-failures': {
        body: { items: [], totalItems: 0, totalItemsEstimated: false },
      },
    });
    renderWithProviders(
      <>
        <SuccessfulPaymentsPanel />
        <RejectedPaymentsPanel />
      </>,
      { user: aUser() },
    );
    expect(await screen.findByText('No successful payments')).toBeInTheDocument();
    expect(await screen.findByText('No failed payments')).toBeInTheDocument();
  });
});
