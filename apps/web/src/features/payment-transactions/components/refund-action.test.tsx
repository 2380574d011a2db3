import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { RefundAction } from './refund-action';
import { DisputesTable, RefundsTable } from './refunds-and-disputes';

const id = '0199f0aa-0000-7000-8000-000000000019';
const paid = {
  id,
  type: 'Payment',
  status: 'Paid',
  allocatedStatus: 'AutoAllocated',
  ledgerlineReference: 'LL000000019',
  createdOn: '2026-11-20T09:55:00.000Z',
  statusDateTime: '2026-11-20T10:00:00.000Z',
  totalAmount: 250,
  currency: 'GBP',
  fee: null,
  feeCurrency: null,
  customerName: 'Alice Smith',
  companyName: 'Acme Ltd',
  customerDetails: null,
  accountId: null,
  payerId: null,
  paymentRequestId: null,
  paymentRequest: null,
  paymentProviderId: null,
  paymentProviderName: 'Sandbox',
  paymentProviderReference: 'sb_19',
  paymentMethodType: 'Card',
  refundOfId: null,
  refundReason: null,
  refundableAmount: 200,
} as const;

describe('refunding a payment', () => {
  it('refuses more than is left, asks before refunding, and shows a provider refusal as an error', async () => {
    const calls = stubFetch({
      [`POST /payment-transactions/${id}/refund`]: {
        body: { isError: true, errorMessage: 'The card issuer refused the refund.', paymentTransaction: paid, refund: null },
      },
    });
    renderWithProviders(<RefundAction payment={paid} />, { user: aUser() });
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    const amount = await screen.findByRole('textbox', { name: 'Amount to refund' });
    expect(amount).toHaveValue('£200.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '250');
    const dialog = screen.getByRole('dialog', { name: 'Refund payment' });
    await userEvent.click(screen.getAllByRole('button', { name: 'Refund' }).at(-1)!);
    expect(dialog).toHaveTextContent('Amount to refund cannot be more than what is left of the payment (£200.00).');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0');
    await userEvent.click(screen.getAllByRole('button', { name: 'Refund' }).at(-1)!);
    expect(await screen.findByText('Amount to refund must be more than 0.')).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '75.5');
    await userEvent.type(screen.getByRole('textbox', { name: 'Reason' }), 'Damaged goods');
    await userEvent.click(screen.getAllByRole('button', { name: 'Refund' }).at(-1)!);
    expect(await screen.findByText(/Give £75.50 back to the payer through Sandbox\?/)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Yes, refund' }));
    expect(await screen.findByText('The card issuer refused the refund.')).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({ amount: 75.5, reason: 'Damaged goods' });
  });

  it('is disabled without RefundPayment, and absent when nothing is left or for a refund', async () => {
    stubFetch({});
    const standard = aUser({ role: 'Standard', permissions: ['CapturePendingPayment'] });
    const { unmount } = renderWithProviders(<RefundAction payment={paid} />, { user: standard, flags: { PermissionPolicy: true } });
    expect(screen.getByRole('button', { name: 'Refund' })).toBeDisabled();
    unmount();
    const second = renderWithProviders(<RefundAction payment={{ ...paid, refundableAmount: 0 }} />, { user: aUser() });
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
    second.unmount();
    renderWithProviders(<RefundAction payment={{ ...paid, type: 'Refund', refundOfId: id }} />, { user: aUser() });
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
  });
});

describe('refunds and disputes of a payment', () => {
  it('lists refunds with their amount and reason, and disputes with their stage and respond-by date', () => {
    renderWithProviders(
      <>
        <RefundsTable
          payment={{
            ...paid,
            refunds: [
              {
                id: '0199f0aa-0000-7000-8000-000000000020',
                type: 'Refund',
                status: 'Paid',
                ledgerlineReference: 'LL000000020',
                createdOn: '2026-11-21T09:00:00.000Z',
                statusDateTime: '2026-11-21T09:00:00.000Z',
                totalAmount: 50,
                currency: 'GBP',
                paymentProviderReference: 're_1',
                refundOfId: id,
                refundReason: 'Damaged goods',
              },
            ],
          }}
        />
        <DisputesTable
          disputes={[
            {
              id: '0199f0aa-0000-7000-8000-000000000021',
              paymentTransactionId: id,
              disputeReference: 'dp_1',
              amount: 250,
              currency: 'GBP',
              reason: 'product_not_received',
              stage: 'Opened',
              respondBy: '2026-12-01T00:00:00.000Z',
              openedOn: '2026-11-22T09:00:00.000Z',
              closedOn: null,
              updatedOn: '2026-11-22T09:00:00.000Z',
            },
          ]}
        />
      </>,
      { user: aUser() },
    );
    const refunds = screen.getByRole('table', { name: 'Refunds' });
    expect(refunds).toHaveTextContent('LL000000020');
    expect(refunds).toHaveTextContent('Damaged goods');
    expect(refunds).toHaveTextContent('£50.00');
    const disputes = screen.getByRole('table', { name: 'Disputes' });
    expect(disputes).toHaveTextContent('Opened');
    expect(disputes).toHaveTextContent('Product not received');
    expect(disputes).toHaveTextContent('dp_1');
  });
});
