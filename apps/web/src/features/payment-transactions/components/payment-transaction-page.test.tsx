import type { Permission } from '@ledgerline/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { PaymentTransactionPage } from './payment-transaction-page';

const id = '0199f0aa-0000-7000-8000-000000000001';
const refund = {
  id,
  type: 'Refund',
  status: 'Refunded',
  allocatedStatus: 'NotApplicable',
  ledgerlineReference: 'LL000000040',
  createdOn: '2026-11-20T09:55:00.000Z',
  statusDateTime: '2026-11-20T10:00:00.000Z',
  totalAmount: 99,
  currency: 'GBP',
  fee: 0.5,
  feeCurrency: 'GBP',
  customerName: 'Alice Smith',
  companyName: 'Acme Ltd',
  customerDetails: {
    companyName: 'Acme Ltd',
    firstNames: 'Alice',
    surname: 'Smith',
    emailAddress: 'alice@acme.example',
    city: 'Leeds',
  },
  accountId: null,
  payerId: null,
  paymentRequestId: null,
  paymentRequest: null,
  paymentProviderId: null,
  paymentProviderName: 'GoCardless',
  paymentProviderReference: 'PM123',
  paymentMethodType: 'BankDebit',
};

describe('the payment transaction page', () => {
  // The call names its parts; the page shows the account and the provider
  // configuration as the detail answers them, and the settlement status.
  it('asks for every part, and shows the account, the provider configuration and the settlement status', async () => {
    const providerId = '0199f0aa-0000-7000-8000-0000000000d1';
    const accountId = '0199f0aa-0000-7000-8000-0000000000e1';
    const calls = stubFetch({
      [`GET /payment-transactions/${id}`]: {
        body: {
          ...refund,
          type: 'Payment',
          status: 'Processing',
          settlementStatus: 'Scheduled',
          accountId,
          account: {
            id: accountId,
            accountReference: 'ACC000001',
            name: 'Acme Ltd',
            currency: 'GBP',
          },
          paymentProviderId: providerId,
          paymentProvider: {
            id: providerId,
            name: 'Direct Debits',
            providerName: 'GoCardless',
            isTest: false,
            enabled: true,
          },
          paymentAllocations: [],
          paymentFeeTransactions: [],
        },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser({ permissions: [...aUser().permissions, 'ConfigurePaymentProvider'] }),
      path: `/payment-transactions/${id}`,
      routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
    });
    expect(await screen.findByRole('link', { name: 'ACC000001 – Acme Ltd' })).toHaveAttribute(
      'href',
      `/accounts/${accountId}`,
    );
    expect(screen.getByRole('link', { name: 'Direct Debits (GoCardless)' })).toHaveAttribute(
      'href',
      `/settings/payment-providers/${providerId}`,
    );
    expect(screen.getByText('Settlement status').nextSibling).toHaveTextContent('Scheduled');
    const detail = new URL(
      calls.find((call) => call.url.includes(`/payment-transactions/${id}`))!.url,
      'http://localhost',
    );
    for (const flag of [
      'includeAccount',
      'includePaymentRequest',
      'includePaymentAllocations',
      'includeLatePaymentTransactions',
    ]) {
      expect(detail.searchParams.get(flag)).toBe('true');
    }
  });

  it('lists its allocations and late-payment fee lines in their tabs, with counts', async () => {
    stubFetch({
      [`GET /payment-transactions/${id}`]: {
        body: {
          ...refund,
          type: 'Payment',
          status: 'Paid',
          paymentAllocations: [
            {
              id: '0199f0aa-0000-7000-8000-0000000000a1',
              createdOn: '2026-11-20T10:00:00.000Z',
              type: 'Payment',
              status: 'Allocated',
              entityType: 'Transaction',
              transactionId: '0199f0aa-0000-7000-8000-0000000000b1',
              accountId: null,
              paymentTransactionId: id,
              settlementOfferId: null,
              discountedAmount: 0,
              allocatedAmount: 99,
            },
          ],
          paymentFeeTransactions: [
            {
              id: '0199f0aa-0000-7000-8000-0000000000c1',
              createdOn: '2026-11-20T10:00:00.000Z',
              transactionId: null,
              paymentTransactionId: id,
              feeDetails: [
                { type: 'FixedSum', currency: 'GBP', amount: 40 },
                { type: 'Interest', currency: 'GBP', amount: 2.5 },
              ],
            },
          ],
        },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/payment-transactions/${id}`,
      routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
    });
    const allocationsTab = await screen.findByRole('tab', { name: /Payment allocations/ });
    expect(allocationsTab).toHaveTextContent('1');
    expect(screen.getByRole('tab', { name: /Late payments/ })).toHaveTextContent('2');
    await userEvent.click(allocationsTab);
    expect(await screen.findByRole('link', { name: 'Transaction' })).toHaveAttribute(
      'href',
      '/transactions/0199f0aa-0000-7000-8000-0000000000b1',
    );
    await userEvent.click(screen.getByRole('tab', { name: /Late payments/ }));
    expect(await screen.findByText('Fixed Sum')).toBeInTheDocument();
    expect(screen.getByText('£40.00')).toBeInTheDocument();
  });

  it('links the account, the request and each allocated invoice by its reference', async () => {
    const accountId = '0199f0aa-0000-7000-8000-0000000000d1';
    const requestId = '0199f0aa-0000-7000-8000-0000000000e1';
    stubFetch({
      [`GET /payment-transactions/${id}`]: {
        body: {
          ...refund,
          type: 'Payment',
          status: 'Paid',
          accountId,
          account: { id: accountId, accountReference: 'ACC001', name: 'Acme Ltd', currency: 'GBP' },
          paymentRequestId: requestId,
          paymentRequest: {
            id: requestId,
            customerName: 'Acme Ltd',
            customerReference: 'PO-77',
            requestStatus: 'Completed',
            amountToPay: 99,
            currency: 'GBP',
          },
          paymentAllocations: [
            {
              id: '0199f0aa-0000-7000-8000-0000000000a1',
              createdOn: '2026-11-20T10:00:00.000Z',
              type: 'Payment',
              status: 'Allocated',
              entityType: 'Transaction',
              transactionId: '0199f0aa-0000-7000-8000-0000000000b1',
              transactionReference: 'INV00000042',
              accountId,
              paymentTransactionId: id,
              settlementOfferId: null,
              discountedAmount: 0,
              allocatedAmount: 99,
            },
          ],
        },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/payment-transactions/${id}`,
      routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
    });
    expect(await screen.findByRole('link', { name: 'ACC001 – Acme Ltd' })).toHaveAttribute(
      'href',
      `/accounts/${accountId}`,
    );
    expect(screen.getByRole('link', { name: 'PO-77' })).toHaveAttribute(
      'href',
      `/payment-requests/${requestId}`,
    );
    await userEvent.click(screen.getByRole('tab', { name: /Payment allocations/ }));
    expect(await screen.findByRole('link', { name: 'INV00000042' })).toHaveAttribute(
      'href',
      '/transactions/0199f0aa-0000-7000-8000-0000000000b1',
    );
  });

  it('says beside the amount paid that a Pending payment is not captured yet, keeping the spec’s label', async () => {
    stubFetch({
      [`GET /payment-transactions/${id}`]: {
        body: { ...refund, type: 'Payment', status: 'Pending', totalAmount: 28947 },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/payment-transactions/${id}`,
      routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
    });
    expect(await screen.findByText('Amount paid')).toBeInTheDocument();
    expect(screen.getByText('Pending: not captured yet')).toBeInTheDocument();
  });

  it('titles a refund with its amount and labels it as refunded', async () => {
    stubFetch({ [`GET /payment-transactions/${id}`]: { body: refund } });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/payment-transactions/${id}`,
      routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
    });
    expect(await screen.findByRole('heading', { name: '£99.00' })).toBeInTheDocument();
    expect(screen.getByText('Amount refunded')).toBeInTheDocument();
    expect(screen.getByText('alice@acme.example')).toBeInTheDocument();
    expect(screen.getByText('Bank Debit')).toBeInTheDocument();
    expect(screen.getByText('PM123')).toBeInTheDocument();
  });

  it('shows the load failure', async () => {
    stubFetch({
      [`GET /payment-transactions/${id}`]: {
        status: 500,
        body: { type: 'about:blank', title: 'Internal Server Error', status: 500 },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/payment-transactions/${id}`,
      routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
    });
    expect(await screen.findByText('Loading Error')).toBeInTheDocument();
  });
});

// Spec 2 §2: "The provider card links to the provider configuration"; that page
// needs ConfigurePaymentProvider, so without it the card shows the configuration instead of a
// link that would end in /error/403.
describe('the payment provider card', () => {
  const providerId = '0199f0aa-0000-7000-8000-0000000000d1';
  const paid = {
    ...refund,
    type: 'Payment',
    status: 'Paid',
    paymentProviderId: providerId,
    paymentProviderName: 'Stripe',
  };
  const configuration = {
    id: providerId,
    providerName: 'Stripe',
    name: 'Main Stripe account',
    description: null,
    enabled: false,
    displayPriority: 1,
    isTest: false,
    isDefault: false,
    filterCount: 0,
    settings: {},
    paymentMethodConfigurations: [],
    createdOn: '2026-11-01T09:00:00.000Z',
    updatedOn: '2026-11-01T09:00:00.000Z',
  };
  const renderPage = (permissions: Permission[]) =>
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser({ permissions }),
      path: `/payment-transactions/${id}`,
      routes: [{ path: '/payment-transactions/:id', element: <PaymentTransactionPage /> }],
    });

  it('links to the configuration for those with ConfigurePaymentProvider', async () => {
    const calls = stubFetch({ [`GET /payment-transactions/${id}`]: { body: paid } });
    renderPage(['ConfigurePaymentProvider']);
    expect(await screen.findByRole('link', { name: 'Stripe' })).toHaveAttribute(
      'href',
      `/settings/payment-providers/${providerId}`,
    );
    expect(calls.some((call) => call.url.startsWith('/api/v0/providers'))).toBe(false);
  });

  it('shows the configuration’s name, kind and status, and no link, to those without it', async () => {
    const calls = stubFetch({
      [`GET /payment-transactions/${id}`]: { body: paid },
      'GET /providers': { body: { items: [configuration], totalItems: 1 } },
    });
    renderPage([]);
    expect(await screen.findByText('Main Stripe account')).toBeInTheDocument();
    expect(screen.getByText('Stripe')).toBeInTheDocument();
    expect(screen.getByText('Disabled')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Stripe' })).not.toBeInTheDocument();
    expect(document.querySelector('a[href^="/settings/payment-providers"]')).toBeNull();
    const read = new URL(
      calls.find((call) => call.url.startsWith('/api/v0/providers'))!.url,
      'http://x',
    );
    expect(read.searchParams.get('filter')).toBe(`id eq ${providerId}`);
  });

  it('says so when the configuration is gone', async () => {
    stubFetch({
      [`GET /payment-transactions/${id}`]: { body: paid },
      'GET /providers': { body: { items: [], totalItems: 0 } },
    });
    renderPage([]);
    expect(await screen.findByText('No longer configured')).toBeInTheDocument();
    expect(screen.getByText('Stripe')).toBeInTheDocument();
  });
});
