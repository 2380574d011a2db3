import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { aPaymentRequest } from './payment-request-fixture';
import { PaymentRequestPage } from './payment-request-page';

const request = aPaymentRequest(7, {
  canEdit: true,
  amountToPay: 28947,
  paymentTransactions: [
    {
      id: '0199f0aa-0000-7000-8000-0000000000c1',
      createdOn: '2026-11-21T10:00:00.000Z',
      statusDateTime: '2026-11-21T10:02:00.000Z',
      ledgerlineReference: 'LL-C1',
      status: 'NotAuthorised',
      totalAmount: 28947,
      currency: 'GBP',
    },
  ],
  mails: [{ sentOn: '2026-11-20T12:00:00.000Z', emailAddress: 'alice@acme.test' }],
});
const path = `/payment-requests/${request.id}`;
const routes = [{ path: '/payment-requests/:id', element: <PaymentRequestPage /> }];
const render = (user = aUser()) =>
  renderWithProviders(<PaymentRequestPage />, { user, path, routes });
const posts = (calls: { method: string; url: string }[]) =>
  calls
    .filter((call) => call.method === 'POST')
    .map((call) => new URL(call.url, 'http://x').pathname);

describe('the payment request page’s actions', () => {
  it('heads the page with the status, the amount as title and the customer and reference beside it', async () => {
    stubFetch({ [`GET /payment-requests/${request.id}`]: { body: request } });
    render();
    expect(
      await screen.findByRole('heading', { level: 1, name: '£28,947.00' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('request-subtitle')).toHaveTextContent('Customer 7 · ACC000007');
  });

  it('copies the link with the spec’s toast', async () => {
    stubFetch({ [`GET /payment-requests/${request.id}`]: { body: request } });
    render();
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(request.requestUrl);
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
  });

  it('resends the link once it was mailed, and says to whom', async () => {
    const calls = stubFetch({
      [`GET /payment-requests/${request.id}`]: { body: request },
      [`POST /payment-requests/${request.id}/send`]: {
        status: 202,
        body: { emailAddress: 'alice@acme.test' },
      },
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Payment request sent to alice@acme.test')).toBeInTheDocument();
    expect(posts(calls)).toEqual([`/api/v0/payment-requests/${request.id}/send`]);
  });

  it('offers Send by e-mail before any mail, and shows the server’s refusal', async () => {
    const unsent = { ...request, mails: [] };
    stubFetch({
      [`GET /payment-requests/${request.id}`]: { body: unsent },
      [`POST /payment-requests/${request.id}/send`]: {
        status: 422,
        body: {
          type: 'about:blank',
          title: 'Unprocessable Content',
          status: 422,
          detail:
            'The payment request has no billing contact e-mail address: add one to its billing contact, then send it',
        },
      },
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send by e-mail' }));
    expect(
      await screen.findByText(
        'An error occurred while sending the payment request: The payment request has no billing contact e-mail address: add one to its billing contact, then send it',
      ),
    ).toBeInTheDocument();
  });

  it('disables Send and Cancel on a request that is not Open, but not Copy link', async () => {
    stubFetch({
      [`GET /payment-requests/${request.id}`]: {
        body: { ...request, requestStatus: 'Cancelled', canEdit: false },
      },
    });
    render();
    expect(await screen.findByRole('button', { name: 'Resend' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel request' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeEnabled();
  });

  it('shows a timeline of the attempts and mails, newest first, payments by reference', async () => {
    stubFetch({ [`GET /payment-requests/${request.id}`]: { body: request } });
    render();
    const timeline = await screen.findByLabelText('Timeline');
    const items = [...timeline.children].map((item) => item.textContent ?? '');
    expect(items).toHaveLength(3);
    expect(items[0]).toContain('Payment LL-C1 of £28,947.00: Not Authorised');
    expect(items[1]).toContain('Link e-mailed to alice@acme.test');
    expect(items[2]).toContain('Request created');
    expect(within(timeline).getByRole('link', { name: 'LL-C1' })).toHaveAttribute(
      'href',
      '/payment-transactions/0199f0aa-0000-7000-8000-0000000000c1',
    );
  });
});
