import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { PendingActions } from './pending-actions';
import { ProviderDataButton } from './provider-data-dialog';

const id = '0199f0aa-0000-7000-8000-000000000009';
const pending = {
  id,
  type: 'Payment',
  status: 'Pending',
  allocatedStatus: 'WaitingToBeAllocated',
  ledgerlineReference: 'LL000000009',
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
  paymentProviderReference: 'pi_9',
  paymentMethodType: 'Card',
} as const;

describe('pending payment actions', () => {
  it('writes the amount to capture as money (not 28947)', async () => {
    renderWithProviders(<PendingActions payment={{ ...pending, totalAmount: 28947 }} />, {
      user: aUser(),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Pending payment' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Capture' }));
    expect(await screen.findByRole('textbox', { name: 'Amount to capture' })).toHaveValue(
      '£28,947.00',
    );
    expect(screen.getByText('At most £28,947.00')).toBeInTheDocument();
  });

  it('captures after a yes, and shows an isError answer as an error', async () => {
    const calls = stubFetch({
      [`POST /payment-transactions/${id}/pending/capture`]: {
        body: {
          isError: true,
          errorMessage: 'The sandbox provider declined the capture.',
          paymentTransaction: pending,
        },
      },
    });
    renderWithProviders(<PendingActions payment={pending} />, { user: aUser() });
    await userEvent.click(screen.getByRole('button', { name: 'Pending payment' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Capture' }));
    const amount = await screen.findByRole('textbox', { name: 'Amount to capture' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '300');
    await userEvent.click(screen.getByRole('button', { name: 'Capture' }));
    expect(
      await screen.findByText('Amount to capture cannot be more than the amount authorised.'),
    ).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '120.5');
    await userEvent.type(screen.getByRole('textbox', { name: 'Note' }), 'Part shipped');
    await userEvent.click(screen.getByRole('button', { name: 'Capture' }));
    expect(await screen.findByText('Capture £120.50 of this payment?')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText('The sandbox provider declined the capture.'),
    ).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({ amountToCapture: 120.5, note: 'Part shipped' });
  });

  it('disables what the user may not do, and shows nothing for a payment that is not pending', async () => {
    stubFetch({});
    const viewer = aUser({ role: 'Viewer', permissions: [] });
    const { unmount } = renderWithProviders(<PendingActions payment={pending} />, {
      user: viewer,
      flags: { PermissionPolicy: true },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Pending payment' }));
    expect(await screen.findByRole('menuitem', { name: 'Capture' })).toBeDisabled();
    expect(screen.getByRole('menuitem', { name: 'Cancel' })).toBeDisabled();
    unmount();
    renderWithProviders(<PendingActions payment={{ ...pending, status: 'Paid' }} />, {
      user: aUser(),
    });
    expect(screen.queryByRole('button', { name: 'Pending payment' })).not.toBeInTheDocument();
  });
});

describe('the provider data dialog', () => {
  it('shows the payload of the last provider event', async () => {
    stubFetch({
      [`GET /provider-events/records/${id}`]: {
        body: {
          items: [
            {
              id: '0199f0aa-0000-7000-8000-0000000000e1',
              providerName: 'Sandbox',
              eventType: 'payment.authorise',
              recordType: null,
              recordId: null,
              status: 'ok',
              payloadFileName: null,
              createdOn: '2026-11-20T09:00:00.000Z',
            },
            {
              id: '0199f0aa-0000-7000-8000-0000000000e2',
              providerName: 'Sandbox',
              eventType: 'payment.capture',
              recordType: 'capture',
              recordId: 'sbx_1',
              status: 'succeeded',
              payloadFileName: 'sbx_1.json',
              createdOn: '2026-11-20T10:00:00.000Z',
            },
          ],
        },
      },
      'GET /provider-events/payloads': (call) => ({
        body: `payload of ${new URL(call.url, 'http://x').searchParams.get('id')}`,
      }),
    });
    renderWithProviders(<ProviderDataButton paymentTransactionId={id} providerName="Sandbox" />, {
      user: aUser(),
    });
    await userEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(
      await screen.findByText('payload of 0199f0aa-0000-7000-8000-0000000000e2'),
    ).toBeInTheDocument();
    expect(screen.getByText('Sandbox · payment.capture · succeeded')).toBeInTheDocument();
  });

  it("says 'Error loading data' when it cannot load", async () => {
    stubFetch({
      [`GET /provider-events/records/${id}`]: {
        status: 500,
        body: { type: 'about:blank', title: 'Internal Server Error', status: 500 },
      },
    });
    renderWithProviders(<ProviderDataButton paymentTransactionId={id} providerName="Sandbox" />, {
      user: aUser(),
    });
    await userEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(
      await screen.findByText('Error loading data', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
  });
});
