import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { aPaymentRequest } from './payment-request-fixture';
import { PaymentRequestPage } from './payment-request-page';

const open = aPaymentRequest(1, { canEdit: true });
const path = `/payment-requests/${open.id}`;
const routes = [{ path: '/payment-requests/:id', element: <PaymentRequestPage /> }];

describe('cancelling a payment request', () => {
  it('asks first; keeping the request sends nothing, confirming cancels it', async () => {
    const calls = stubFetch({
      [`GET /payment-requests/${open.id}`]: { body: open },
      [`POST /payment-requests/${open.id}/cancel`]: {
        body: { ...open, requestStatus: 'Cancelled', canEdit: false },
      },
    });
    renderWithProviders(<PaymentRequestPage />, { user: aUser(), path, routes });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel request' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel Payment Request' });
    expect(dialog).toHaveTextContent(
      'Its payment link will say it was cancelled and nothing more can be paid through it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep request' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Cancel request' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel Payment Request' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel request' }));
    expect(await screen.findByText('Payment request cancelled')).toBeInTheDocument();
    expect(
      calls
        .filter((call) => call.method === 'POST')
        .map((call) => new URL(call.url, 'http://x').pathname),
    ).toEqual([`/api/v0/payment-requests/${open.id}/cancel`]);
  });

  it('shows the server’s refusal', async () => {
    stubFetch({
      [`GET /payment-requests/${open.id}`]: { body: open },
      [`POST /payment-requests/${open.id}/cancel`]: {
        status: 409,
        body: {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          detail:
            'A payment of this request is in progress: wait until the payer has finished, then try again',
        },
      },
    });
    renderWithProviders(<PaymentRequestPage />, { user: aUser(), path, routes });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Payment Request' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel request' }));
    expect(await screen.findByText(/A payment of this request is in progress/)).toBeInTheDocument();
  });

  it('is disabled for a request that is not Open, and without EditPaymentRequest', async () => {
    stubFetch({
      [`GET /payment-requests/${open.id}`]: {
        body: { ...open, requestStatus: 'Completed', canEdit: false },
      },
    });
    const first = renderWithProviders(<PaymentRequestPage />, { user: aUser(), path, routes });
    expect(await screen.findByRole('button', { name: 'Cancel request' })).toBeDisabled();
    first.unmount();
    stubFetch({ [`GET /payment-requests/${open.id}`]: { body: open } });
    renderWithProviders(<PaymentRequestPage />, {
      user: aUser({ role: 'Viewer', permissions: [] }),
      flags: { PermissionPolicy: true },
      path,
      routes,
    });
    expect(await screen.findByRole('button', { name: 'Cancel request' })).toBeDisabled();
  });
});
