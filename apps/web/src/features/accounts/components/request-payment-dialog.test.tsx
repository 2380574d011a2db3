import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { aPaymentRequest, aTransaction, accountId, anAccount } from './account-fixtures';
import { AccountPage } from './account-page';

beforeAll(prepareGridTests);

const first = aTransaction({
  id: '0199f0aa-0000-7000-8000-0000000001d1',
  transactionReference: 'INV0000101',
  transactionAmount: 120,
  allocatedAmount: 20,
});
const second = aTransaction({
  id: '0199f0aa-0000-7000-8000-0000000001d2',
  transactionReference: 'INV0000102',
  transactionAmount: 50,
});
const credit = aTransaction({
  id: '0199f0aa-0000-7000-8000-0000000001d3',
  transactionReference: 'CRN0000001',
  transactionType: 'CreditNote',
  transactionAmount: 30,
});
const settled = aTransaction({
  id: '0199f0aa-0000-7000-8000-0000000001d4',
  transactionReference: 'INV0000104',
  transactionAmount: 40,
  allocatedAmount: 35,
  discountedAmount: 5,
  paidStatus: 'PartPaid',
});
const created = aPaymentRequest({
  id: '0199f0aa-0000-7000-8000-0000000001e1',
  requestType: 'Transaction',
  amountToPay: 130,
  requestUrl: 'http://localhost:3000/pay/0199f0aa-0000-7000-8000-0000000001e1',
  transactionAllocations: [
    {
      transactionId: first.id,
      amount: 100,
      required: true,
      canEditAmount: false,
      minimumAmount: null,
      maximumAmount: null,
    },
    {
      transactionId: second.id,
      amount: 30,
      required: true,
      canEditAmount: false,
      minimumAmount: null,
      maximumAmount: null,
    },
  ],
});

function renderPage(
  options: {
    permissions?: string[];
    policy?: boolean;
    created?: { status: number; body: unknown };
  } = {},
) {
  const calls = stubFetch({
    [`GET /accounts/${accountId}`]: { body: anAccount() },
    'GET /data-sets/all': { body: { items: [aDataset({ id: 1 })] } },
    'GET /transactions': {
      body: { items: [first, second, credit, settled], totalItems: 4, totalItemsEstimated: false },
    },
    'GET /payment-requests': { body: { items: [], totalItems: 0, totalItemsEstimated: false } },
    [`GET /payment-requests/${created.id}`]: { body: created },
    'POST /payment-requests': options.created ?? { status: 201, body: created },
  });
  renderWithProviders(<p>Elsewhere</p>, {
    user: aUser({ permissions: (options.permissions ?? []) as never }),
    flags: options.policy ? { PermissionPolicy: true } : {},
    path: `/accounts/${accountId}`,
    routes: [
      { path: '/accounts/:id', element: <AccountPage /> },
      { path: '/payment-requests/:id', element: <p>The request page</p> },
    ],
  });
  return calls;
}

async function openDialog() {
  await userEvent.click(await screen.findByRole('tab', { name: /Transactions/ }));
  await userEvent.click(await screen.findByRole('button', { name: 'Request payment' }));
  return screen.findByRole('dialog', { name: 'Request payment' });
}

describe('Request payment for several unpaid invoices (spec 2 §2 Account detail, §3 transactionAllocations)', () => {
  it('lists only the unpaid invoices that owe something, and sends the ticked ones in one request', async () => {
    const calls = renderPage();
    const dialog = await openDialog();
    const table = await within(dialog).findByRole('table', { name: 'Unpaid invoices' });
    expect(within(table).getByText('INV0000101')).toBeInTheDocument();
    expect(within(table).getByText('INV0000102')).toBeInTheDocument();
    expect(within(table).queryByText('CRN0000001')).not.toBeInTheDocument();
    expect(within(table).queryByText('INV0000104')).not.toBeInTheDocument();
    const list = calls.find((call) => call.method === 'GET' && call.url.includes('paidStatus'))!;
    expect(new URL(list.url, 'http://localhost').searchParams.get('filter')).toBe(
      `accountId eq ${accountId},paidStatus neq FullyPaid`,
    );

    const send = within(dialog).getByRole('button', { name: 'Request payment' });
    expect(send).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select INV0000101' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select INV0000102' }));
    expect(within(dialog).getByRole('textbox', { name: 'Amount for INV0000101' })).toHaveValue(
      '100',
    );
    const amount = within(dialog).getByRole('textbox', { name: 'Amount for INV0000102' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '30');
    await userEvent.click(send);

    expect(await within(dialog).findByText('New payment request created')).toBeInTheDocument();
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toEqual({
      requestType: 'Transaction',
      accountId,
      currency: 'GBP',
      transactionAllocations: [
        { transactionId: first.id },
        { transactionId: second.id, amount: 30 },
      ],
    });
    // The payment link with a copy button, and the request opens.
    expect(within(dialog).getByRole('link', { name: created.requestUrl })).toHaveAttribute(
      'href',
      created.requestUrl,
    );
    expect(within(dialog).getByRole('button', { name: 'Copy payment link' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('link', { name: 'Open request' }));
    expect(await screen.findByText('The request page')).toBeInTheDocument();
  });

  it('refuses an amount above what the invoice owes, with the server’s message, and sends nothing', async () => {
    const calls = renderPage();
    const dialog = await openDialog();
    await userEvent.click(
      await within(dialog).findByRole('checkbox', { name: 'Select INV0000102' }),
    );
    const amount = within(dialog).getByRole('textbox', { name: 'Amount for INV0000102' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request payment' }));
    expect(
      await within(dialog).findByText(
        'Amount must not be more than the amount outstanding on the transaction',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request payment' }));
    expect(await within(dialog).findByText('Amount must be greater than 0')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('shows a refusal of the server beside the invoice it names', async () => {
    renderPage({
      created: {
        status: 422,
        body: {
          type: 'about:blank',
          title: 'Unprocessable Content',
          status: 422,
          detail: 'The transaction has nothing outstanding to pay',
          errors: {
            'transactionAllocations.1.transactionId': [
              'The transaction has nothing outstanding to pay',
            ],
          },
        },
      },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select all invoices' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request payment' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'An error occurred while creating the payment request: The transaction has nothing outstanding to pay',
    );
    // Entry 1 is the second ticked invoice: its row shows the message, the first row none.
    expect(
      await within(dialog).findByText('The transaction has nothing outstanding to pay'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Amount for INV0000102' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(
      within(dialog).getByRole('textbox', { name: 'Amount for INV0000101' }),
    ).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('is disabled without EditPaymentRequest', async () => {
    renderPage({ policy: true, permissions: ['ViewAccounts'] });
    await userEvent.click(await screen.findByRole('tab', { name: /Transactions/ }));
    expect(await screen.findByRole('button', { name: 'Request payment' })).toBeDisabled();
  });
});
