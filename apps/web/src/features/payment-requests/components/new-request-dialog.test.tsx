import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format } from 'date-fns';
import { paymentRequestMessages } from '@ledgerline/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { aPaymentRequest } from './payment-request-fixture';
import { NewRequestDialog } from './new-request-dialog';

const accounts = {
  body: {
    items: [
      {
        id: '0199f0aa-0000-7000-8000-0000000000a1',
        accountReference: 'ACC000001',
        name: 'Acme Ltd',
        currency: 'GBP',
      },
      {
        id: '0199f0aa-0000-7000-8000-0000000000a2',
        accountReference: 'ACC000002',
        name: 'Brookfield Ltd',
        currency: 'USD',
      },
    ],
    totalItems: 2,
  },
};

describe('the New Request dialog', () => {
  it('loads 20 accounts, fills the defaults of spec 2 and sends the trimmed request', async () => {
    const onClose = vi.fn();
    const calls = stubFetch({
      'GET /accounts': accounts,
      'POST /payment-requests': { status: 201, body: aPaymentRequest(9) },
    });
    renderWithProviders(<NewRequestDialog opened onClose={onClose} />, { user: aUser() });
    expect(await screen.findByRole('textbox', { name: 'Account' })).toHaveValue(
      'ACC000001 – Acme Ltd',
    );
    const accountsQuery = new URL(calls[0]!.url, 'http://localhost').searchParams;
    expect(accountsQuery.get('itemsPerPage')).toBe('20');
    expect(screen.getByRole('textbox', { name: 'Currency' })).toHaveValue('GBP');
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveValue('100.00');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue(
      'Goods and/or services.',
    );
    expect(screen.getByRole('textbox', { name: 'Payment terms' })).toHaveValue(
      '30 days from transaction date',
    );
    const today = format(new Date(), 'yyyy-MM-dd');
    const due = format(addDays(new Date(), 30), 'yyyy-MM-dd');
    await userEvent.type(screen.getByRole('textbox', { name: 'Payment terms' }), '  ');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('New payment request created')).toBeInTheDocument();
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toEqual({
      requestType: 'Transaction',
      accountId: accounts.body.items[0]!.id,
      currency: 'GBP',
      amount: 100,
      transactionDate: today,
      dueDate: due,
      description: 'Goods and/or services.',
      paymentTerms: '30 days from transaction date',
    });
    // The new request's link to share, then Done closes.
    expect(screen.getByRole('textbox', { name: 'Payment link' })).toHaveValue(
      aPaymentRequest(9).requestUrl,
    );
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('after Create offers Copy, Send, the request and an Undo that cancels it', async () => {
    const onClose = vi.fn();
    const created = aPaymentRequest(9);
    const calls = stubFetch({
      'GET /accounts': accounts,
      'POST /payment-requests': { status: 201, body: created },
      [`POST /payment-requests/${created.id}/send`]: {
        status: 202,
        body: { emailAddress: 'alice@acme.test' },
      },
      [`POST /payment-requests/${created.id}/cancel`]: {
        body: { ...created, requestStatus: 'Cancelled' },
      },
    });
    renderWithProviders(<NewRequestDialog opened onClose={onClose} />, { user: aUser() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create' }));
    expect(
      await screen.findByRole('dialog', { name: 'Payment request created' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the payment request' })).toHaveAttribute(
      'href',
      `/payment-requests/${created.id}`,
    );
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(created.requestUrl);
    await user.click(screen.getByRole('button', { name: 'Send by e-mail' }));
    expect(await screen.findByText('Payment request sent to alice@acme.test')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo: cancel this request' }));
    expect(await screen.findByText('Payment request cancelled')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    expect(
      calls
        .filter((call) => call.method === 'POST')
        .map((call) => new URL(call.url, 'http://x').pathname),
    ).toEqual([
      '/api/v0/payment-requests',
      `/api/v0/payment-requests/${created.id}/send`,
      `/api/v0/payment-requests/${created.id}/cancel`,
    ]);
  });

  it('keeps the chosen account when it is chosen again (a required select does not deselect)', async () => {
    stubFetch({ 'GET /accounts': accounts });
    renderWithProviders(<NewRequestDialog opened onClose={() => {}} />, { user: aUser() });
    const account = await screen.findByRole('textbox', { name: 'Account' });
    expect(account).toHaveValue('ACC000001 – Acme Ltd');
    await userEvent.click(account);
    await userEvent.click(screen.getByRole('option', { name: 'ACC000001 – Acme Ltd' }));
    expect(account).toHaveValue('ACC000001 – Acme Ltd');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.queryByText('Account is required')).not.toBeInTheDocument();
  });

  it('keeps the two date fields level when one of them shows an error', async () => {
    stubFetch({ 'GET /accounts': accounts });
    renderWithProviders(<NewRequestDialog opened onClose={() => {}} />, { user: aUser() });
    const due = await screen.findByRole('textbox', { name: 'Due date' });
    await userEvent.clear(due);
    await userEvent.type(due, '2026-13-45');
    await userEvent.tab();
    expect(await screen.findByText(paymentRequestMessages.dateInvalid)).toBeInTheDocument();
    // jsdom lays nothing out: what keeps them level is the row aligning its fields to the top,
    // so the error under one field does not push the other down to the middle.
    const row = due.closest<HTMLElement>('.mantine-Group-root')!;
    expect(row).toContainElement(screen.getByRole('textbox', { name: 'Transaction date' }));
    expect(row.style.getPropertyValue('--group-align')).toBe('flex-start');
  });

  it('offers the six currencies of spec 2', async () => {
    stubFetch({ 'GET /accounts': accounts });
    renderWithProviders(<NewRequestDialog opened onClose={() => {}} />, { user: aUser() });
    await userEvent.click(await screen.findByRole('textbox', { name: 'Currency' }));
    for (const code of ['GBP', 'USD', 'EUR', 'THB', 'CAD', 'YEN'])
      expect(screen.getByRole('option', { name: code })).toBeInTheDocument();
  });

  it('shows the rules of spec 2 §5 and sends nothing while they fail', async () => {
    const calls = stubFetch({ 'GET /accounts': accounts });
    renderWithProviders(<NewRequestDialog opened onClose={() => {}} />, { user: aUser() });
    const amount = await screen.findByRole('textbox', { name: 'Amount' });
    await userEvent.clear(amount);
    const description = screen.getByRole('textbox', { name: 'Description' });
    await userEvent.clear(description);
    await userEvent.click(description);
    await userEvent.paste('d'.repeat(101));
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Amount is required')).toBeInTheDocument();
    expect(screen.getByText('Description must be at most 100 characters')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0));
  });

  it('shows Loading Error when the accounts cannot be read', async () => {
    stubFetch({
      'GET /accounts': {
        status: 500,
        body: { type: 'about:blank', title: 'Internal Server Error', status: 500 },
      },
    });
    renderWithProviders(<NewRequestDialog opened onClose={() => {}} />, { user: aUser() });
    expect(await screen.findByText('Loading Error')).toBeInTheDocument();
  });
});
