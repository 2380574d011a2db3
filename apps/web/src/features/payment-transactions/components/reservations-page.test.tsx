import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ReservationsPage } from './reservations-page';

const reservation = (n: number, hoursLeft: number) => ({
  id: `0199f0aa-0000-7000-8000-00000000003${n}`,
  type: 'Payment',
  status: 'Pending',
  allocatedStatus: 'AutoAllocated',
  ledgerlineReference: `LL00000003${n}`,
  createdOn: '2026-11-20T09:55:00.000Z',
  statusDateTime: '2026-11-20T10:00:00.000Z',
  totalAmount: 100 * n,
  currency: 'GBP',
  fee: null,
  feeCurrency: null,
  customerName: `Customer ${n}`,
  companyName: null,
  customerDetails: null,
  accountId: null,
  payerId: null,
  paymentRequestId: null,
  paymentRequest: null,
  paymentProviderId: null,
  paymentProviderName: 'Sandbox',
  paymentProviderReference: `sb_${n}`,
  paymentMethodType: 'Card',
  expiresOn: new Date(Date.now() + hoursLeft * 3_600_000).toISOString(),
});

describe('the reservations queue', () => {
  it('lists reservations lapsing first, captures the chosen ones after a yes, and says which were refused', async () => {
    const first = reservation(1, 5);
    const second = reservation(2, 24 * 6);
    const calls = stubFetch({
      'GET /payment-transactions/reservations': { body: { items: [first, second], totalItems: 2 } },
      'POST /payment-transactions/reservations/capture': {
        body: {
          results: [
            { id: first.id, isError: false, errorMessage: null, paymentTransaction: { ...first, status: 'Paid' } },
            { id: second.id, isError: true, errorMessage: 'The sandbox provider declined the capture.', paymentTransaction: second },
          ],
        },
      },
    });
    renderWithProviders(<ReservationsPage />, { user: aUser() });
    const table = await screen.findByRole('table', { name: 'Reservations' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Ends in 5 h');
    expect(rows[0]).toHaveTextContent('LL000000031');
    expect(rows[1]).toHaveTextContent('Ends in 6 days');
    const captureButton = screen.getByRole('button', { name: 'Capture selected' });
    expect(captureButton).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every reservation on this page' }));
    await userEvent.click(captureButton);
    expect(await screen.findByText("Take the whole of 2 reservations (£300.00) from the payers' cards or accounts?")).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('LL000000032: The sandbox provider declined the capture.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({ ids: [first.id, second.id], note: null });
  });

  it('says when nothing is reserved, and disables what the user may not do', async () => {
    stubFetch({ 'GET /payment-transactions/reservations': { body: { items: [reservation(1, 5)], totalItems: 1 } } });
    const viewer = aUser({ role: 'Viewer', permissions: [] });
    const { unmount } = renderWithProviders(<ReservationsPage />, { user: viewer, flags: { PermissionPolicy: true } });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select LL000000031' }));
    expect(screen.getByRole('button', { name: 'Capture selected' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel selected' })).toBeDisabled();
    unmount();
    stubFetch({ 'GET /payment-transactions/reservations': { body: { items: [], totalItems: 0 } } });
    renderWithProviders(<ReservationsPage />, { user: aUser() });
    expect(await screen.findByText('No payment is reserved: nothing waits to be captured.')).toBeInTheDocument();
  });
});
