import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { aPaymentRequest } from './payment-request-fixture';
import { PaymentRequestPage } from './payment-request-page';

const transactionId = '0199f0aa-0000-7000-8000-000000000071';
const detail = aPaymentRequest(1, {
  test: true,
  canEdit: true,
  canChangeUsage: true,
  transactionAllocations: [
    {
      transactionId,
      amount: 101,
      required: true,
      canEditAmount: false,
      minimumAmount: null,
      maximumAmount: null,
    },
  ],
  transactions: [
    {
      id: transactionId,
      transactionType: 'Invoice',
      transactionReference: 'INV00000001',
      transactionDate: '2020-01-01',
      dueDate: '2020-01-31',
      currency: 'GBP',
      transactionAmount: 101,
      discountedAmount: 0,
      allocatedAmount: 0,
      paidStatus: 'Unpaid',
    },
  ],
  paymentTransactions: [
    {
      id: '0199f0aa-0000-7000-8000-0000000000b2',
      createdOn: '2026-11-21T10:00:00.000Z',
      statusDateTime: '2026-11-21T10:01:00.000Z',
      ledgerlineReference: 'LL-B2',
      status: 'NotAuthorised',
      totalAmount: 101,
      currency: 'GBP',
    },
    {
      id: '0199f0aa-0000-7000-8000-0000000000b1',
      createdOn: '2026-11-20T10:00:00.000Z',
      statusDateTime: '2026-11-20T10:01:00.000Z',
      ledgerlineReference: 'LL-B1',
      status: 'Paid',
      totalAmount: 50,
      currency: 'GBP',
    },
  ],
});
const path = `/payment-requests/${detail.id}`;
const render = (user = aUser()) =>
  renderWithProviders(<PaymentRequestPage />, {
    user,
    path,
    routes: [{ path: '/payment-requests/:id', element: <PaymentRequestPage /> }],
  });

describe('the payment request page', () => {
  it('shows the amount as title and the details, payment URL, QR code and contacts', async () => {
    const calls = stubFetch({ [`GET /payment-requests/${detail.id}`]: { body: detail } });
    render();
    expect(await screen.findByRole('heading', { name: '£101.00' })).toBeInTheDocument();
    expect(new URL(calls[0]!.url, 'http://localhost').searchParams.get('expand')).toBe(
      'transactions',
    );
    expect(screen.getByText('Test')).toBeInTheDocument();
    // The status at the top and beside the amount in the details card (spec 2 §2).
    expect(screen.getAllByText('Open')).toHaveLength(2);
    expect(screen.getByRole('link', { name: detail.requestUrl })).toHaveAttribute(
      'href',
      detail.requestUrl,
    );
    expect(screen.getByRole('button', { name: 'Copy payment URL' })).toBeInTheDocument();
    expect(screen.getByText('Alice Smith')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'QR code' }));
    const qr = await screen.findByRole('img', { name: `QR code of ${detail.requestUrl}` });
    expect(qr).toHaveAttribute('width', '256');
  });

  it('lists the transactions with overdue styling and the payment attempts newest first with links', async () => {
    stubFetch({ [`GET /payment-requests/${detail.id}`]: { body: detail } });
    render();
    await userEvent.click(
      await screen.findByRole('tab', { name: /^Transactions\s*1 transactions$/ }),
    );
    expect(await screen.findByText('INV00000001')).toBeInTheDocument();
    expect(document.querySelector('[data-overdue]')).not.toBeNull();
    await userEvent.click(
      screen.getByRole('tab', { name: /^Payment transactions\s*2 payment transactions$/ }),
    );
    const tab = await screen.findByRole('tabpanel', { name: /Payment transactions/ });
    // References, not UUIDs.
    const links = within(tab).getAllByRole('link', { name: /^LL-B/ });
    expect(links.map((link) => link.textContent)).toEqual(['LL-B2', 'LL-B1']);
    expect(tab).not.toHaveTextContent('0199f0aa');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/payment-transactions/0199f0aa-0000-7000-8000-0000000000b2',
      '/payment-transactions/0199f0aa-0000-7000-8000-0000000000b1',
    ]);
  });

  it('edits allocation info and sends the rules of spec 2 §5', async () => {
    const calls = stubFetch({
      [`GET /payment-requests/${detail.id}`]: { body: detail },
      [`PATCH /payment-requests/${detail.id}/transaction-allocation-info`]: { body: detail },
    });
    render();
    await userEvent.click(await screen.findByRole('tab', { name: /Transactions/ }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit allocation info of INV00000001' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit allocation info' });
    expect(within(dialog).getByRole('textbox', { name: 'Minimum amount' })).toBeDisabled();
    await userEvent.click(
      within(within(dialog).getByRole('radiogroup', { name: 'Can edit amount' })).getByLabelText(
        'Yes',
      ),
    );
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Minimum amount' }), '20');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Maximum amount' }), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'Maximum Amount must be greater than 0 and/or Minimum Amount',
      ),
    ).toBeInTheDocument();
    const maximum = within(dialog).getByRole('textbox', { name: 'Maximum amount' });
    await userEvent.clear(maximum);
    await userEvent.type(maximum, '150');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment request updated')).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH')!;
    expect(patch.body).toEqual([
      {
        transactionId,
        amount: 101,
        required: true,
        canEditAmount: true,
        minimumAmount: 20,
        maximumAmount: 150,
      },
    ]);
  });

  // 999,999 on a £101 invoice with a maximum of 300 was accepted.
  it('keeps the allocation amount within its limits and what the invoice owes', async () => {
    const calls = stubFetch({ [`GET /payment-requests/${detail.id}`]: { body: detail } });
    render();
    await userEvent.click(await screen.findByRole('tab', { name: /Transactions/ }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit allocation info of INV00000001' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit allocation info' });
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    await userEvent.click(
      within(within(dialog).getByRole('radiogroup', { name: 'Can edit amount' })).getByLabelText(
        'Yes',
      ),
    );
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Maximum amount' }), '300');
    await userEvent.clear(amount);
    await userEvent.type(amount, '999999');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Amount must not be more than the Maximum Amount'),
    ).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '250.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'Amount must not be more than the amount outstanding on the transaction',
      ),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  // An unset required / canEditAmount stayed unset only until the first edit.
  it('keeps unset required and canEditAmount unset (null, not false) when only the amount changes', async () => {
    const unset = {
      ...detail,
      transactionAllocations: [
        {
          transactionId,
          amount: 101,
          required: null,
          canEditAmount: null,
          minimumAmount: null,
          maximumAmount: null,
        },
      ],
    };
    const calls = stubFetch({
      [`GET /payment-requests/${detail.id}`]: { body: unset },
      [`PATCH /payment-requests/${detail.id}/transaction-allocation-info`]: { body: unset },
    });
    render();
    await userEvent.click(await screen.findByRole('tab', { name: /Transactions/ }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit allocation info of INV00000001' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit allocation info' });
    for (const name of ['Required', 'Can edit amount']) {
      expect(
        within(within(dialog).getByRole('radiogroup', { name })).getByLabelText('Not set'),
      ).toBeChecked();
    }
    expect(within(dialog).getByRole('textbox', { name: 'Minimum amount' })).toBeDisabled();
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '90');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment request updated')).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH')!;
    expect(patch.body).toEqual([
      {
        transactionId,
        amount: 90,
        required: null,
        canEditAmount: null,
        minimumAmount: null,
        maximumAmount: null,
      },
    ]);
  });

  it('sets required to No and back to Not set', async () => {
    const calls = stubFetch({
      [`GET /payment-requests/${detail.id}`]: { body: detail },
      [`PATCH /payment-requests/${detail.id}/transaction-allocation-info`]: { body: detail },
    });
    render();
    await userEvent.click(await screen.findByRole('tab', { name: /Transactions/ }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit allocation info of INV00000001' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit allocation info' });
    const required = within(dialog).getByRole('radiogroup', { name: 'Required' });
    expect(within(required).getByLabelText('Yes')).toBeChecked();
    await userEvent.click(within(required).getByLabelText('Not set'));
    await userEvent.click(
      within(within(dialog).getByRole('radiogroup', { name: 'Can edit amount' })).getByLabelText(
        'No',
      ),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment request updated')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual([
      {
        transactionId,
        amount: 101,
        required: null,
        canEditAmount: false,
        minimumAmount: null,
        maximumAmount: null,
      },
    ]);
  });

  it('shows the cannot-edit hint and disables editing when the request is not Open', async () => {
    stubFetch({
      [`GET /payment-requests/${detail.id}`]: {
        body: { ...detail, requestStatus: 'Completed', canEdit: false },
      },
    });
    render();
    expect(
      await screen.findByText('Only Open payment requests can be edited.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit details' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit billing contact' })).toBeDisabled();
  });

  it('disables editing without EditPaymentRequest', async () => {
    stubFetch({ [`GET /payment-requests/${detail.id}`]: { body: detail } });
    renderWithProviders(<PaymentRequestPage />, {
      user: aUser({ role: 'Viewer', permissions: [] }),
      flags: { PermissionPolicy: true },
      path,
      routes: [{ path: '/payment-requests/:id', element: <PaymentRequestPage /> }],
    });
    expect(await screen.findByRole('button', { name: 'Edit details' })).toBeDisabled();
  });

  it('edits the details and shows the server rule message', async () => {
    const calls = stubFetch({
      [`GET /payment-requests/${detail.id}`]: { body: detail },
      'PATCH /payment-requests': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'One or more fields are invalid.',
          errors: { validUntil: ['Valid To must be less than Valid From'] },
        },
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit payment request' });
    const description = within(dialog).getByRole('textbox', { name: 'Description' });
    await userEvent.clear(description);
    await userEvent.type(description, '  New words ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Valid To must be less than Valid From'),
    ).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH')!;
    // Only the description; the valid-from instant is not resent as a UTC midnight.
    expect(patch.body).toEqual({ id: detail.id, description: 'New words' });
  });

  it('sends a changed valid-to day and keeps the other dates out of the body', async () => {
    const calls = stubFetch({
      [`GET /payment-requests/${detail.id}`]: {
        body: {
          ...detail,
          validFrom: '2026-06-01T15:45:12.345Z',
          validUntil: '2026-06-30T23:59:59.999Z',
        },
      },
      'PATCH /payment-requests': { body: detail },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit payment request' });
    const validTo = within(dialog).getByRole('textbox', { name: 'Valid to' });
    // In the user's date format (the default yyyy/MM/dd).
    expect(validTo).toHaveValue('2026/06/30');
    await userEvent.clear(validTo);
    await userEvent.type(validTo, '2026/07/15');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment request updated')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({
      id: detail.id,
      validUntil: '2026-07-15T23:59:59.999Z',
    });
  });

  // 'Valid to 30 June' showed 29 June west of Greenwich.
  it.each(['Pacific Standard Time', 'New Zealand Standard Time', 'GMT Standard Time'])(
    'shows Valid from 1 June and Valid to 30 June in %s',
    async (timeZoneId) => {
      stubFetch({
        [`GET /payment-requests/${detail.id}`]: {
          body: {
            ...detail,
            validFrom: '2026-06-01T00:00:00.000Z',
            validUntil: '2026-06-30T23:59:59.999Z',
          },
        },
      });
      render(aUser({ userSetting: { ...aUser().userSetting, timeZoneId } }));
      await screen.findByRole('heading', { name: '£101.00' });
      expect(screen.getByText('Valid from').nextSibling).toHaveTextContent('2026/06/01');
      expect(screen.getByText('Valid to').nextSibling).toHaveTextContent('2026/06/30');
    },
  );

  // Amounts follow the currency's minor units.
  it('shows a JPY request without decimals', async () => {
    stubFetch({
      [`GET /payment-requests/${detail.id}`]: {
        body: { ...detail, currency: 'JPY', amountToPay: 101 },
      },
    });
    render();
    expect(await screen.findByRole('heading', { name: 'JP¥101' })).toBeInTheDocument();
  });

  it('shows a KWD request with three decimals', async () => {
    stubFetch({
      [`GET /payment-requests/${detail.id}`]: {
        body: { ...detail, currency: 'KWD', amountToPay: 1.234 },
      },
    });
    render();
    expect(await screen.findByRole('heading', { name: /^KWD\s1\.234$/ })).toBeInTheDocument();
  });

  it("shows the account's default usage type when the request has none of its own (spec 2 §4)", async () => {
    stubFetch({
      [`GET /payment-requests/${detail.id}`]: {
        body: {
          ...detail,
          options: { usage: null },
          account: { ...detail.account!, defaultUsageType: 'Multiple' },
        },
      },
    });
    render();
    await screen.findByRole('heading', { name: '£101.00' });
    expect(screen.getByText('Usage type').nextSibling).toHaveTextContent('Multiple');
  });

  // The server names the contact's field by its whole path; the dialog edits one contact.
  it('shows a billingContact.address.city error from the server under the City input of the contact dialog', async () => {
    stubFetch({
      [`GET /payment-requests/${detail.id}`]: { body: detail },
      'PATCH /payment-requests': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'One or more fields are invalid.',
          errors: { 'billingContact.address.city': ['City must be at most 255 characters'] },
        },
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit billing contact' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const city = within(dialog).getByRole('textbox', { name: 'City' });
    await waitFor(() =>
      expect(city).toHaveAccessibleDescription('City must be at most 255 characters'),
    );
  });

  // Spec 2 §8: "a 403 shows a forbidden toast for the operation" ('Forbidden request', spec 1 §2.5).
  it('shows the forbidden toast, not the generic failure, when the server refuses the edit with 403', async () => {
    stubFetch({
      [`GET /payment-requests/${detail.id}`]: { body: detail },
      'PATCH /payment-requests': {
        status: 403,
        body: {
          type: 'about:blank',
          title: 'Forbidden',
          status: 403,
          detail: 'This needs the EditPaymentRequest permission.',
        },
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit payment request' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Forbidden request')).toBeInTheDocument();
    expect(screen.queryByText(/An error occurred/)).not.toBeInTheDocument();
    expect(
      screen.queryByText(/This needs the EditPaymentRequest permission/),
    ).not.toBeInTheDocument();
  });

  it('says when there are no payment attempts and hides Transactions for an Account request', async () => {
    stubFetch({
      [`GET /payment-requests/${detail.id}`]: {
        body: { ...detail, requestType: 'Account', transactions: [], paymentTransactions: [] },
      },
    });
    render();
    await userEvent.click(await screen.findByRole('tab', { name: /Payment transactions/ }));
    expect(
      await screen.findByText('There have been no payment attempts for this payment request.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /^Transactions/ })).not.toBeInTheDocument();
  });

  it('says the request was not found when the company has none with the id', async () => {
    stubFetch({});
    render();
    expect(await screen.findByText('The payment request was not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Payment Requests' })).toBeInTheDocument();
  });
});
