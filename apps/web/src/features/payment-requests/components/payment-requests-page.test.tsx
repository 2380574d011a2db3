import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { aPaymentRequest } from './payment-request-fixture';
import { PaymentRequestsPage } from './payment-requests-page';

beforeAll(prepareGridTests);

const page = (items: unknown[]) => ({
  body: { items, totalItems: items.length, totalItemsEstimated: false },
});

describe('the payment requests list', () => {
  it('asks for the newest first and shows the columns of spec 2 with a view link', async () => {
    const calls = stubFetch({
      'GET /payment-requests': page([
        aPaymentRequest(1),
        aPaymentRequest(2, { requestStatus: 'PartCompleted', captureType: 'Reserve' }),
      ]),
    });
    renderWithProviders(<PaymentRequestsPage />, { user: aUser() });
    expect(await screen.findByText('Customer 1')).toBeInTheDocument();
    const table = screen.getByText('Customer 1').closest('table') as HTMLElement;
    for (const header of [
      'Request type',
      'Created on',
      'Customer name',
      'Amount to pay',
      'Capture type',
      'Request status',
    ]) {
      // The sortable header is its own sort button (not nested with the filter).
      expect(
        within(table).getByRole('button', { name: new RegExp(`^${header}`) }),
      ).toBeInTheDocument();
    }
    expect(within(table).getByText('Part Completed')).toBeInTheDocument();
    expect(within(table).getByText('Reserve')).toBeInTheDocument();
    expect(within(table).getByText('£101.00')).toBeInTheDocument();
    expect(
      within(table).getByRole('link', { name: 'View payment request of Customer 1' }),
    ).toHaveAttribute('href', `/payment-requests/${aPaymentRequest(1).id}`);
    const query = new URL(calls[0]!.url, 'http://localhost').searchParams;
    expect(query.get('sort')).toBe('-createdOn');
    expect(query.get('itemsPerPage')).toBe('10');
  });

  it('says so when there are none', async () => {
    stubFetch({ 'GET /payment-requests': page([]) });
    renderWithProviders(<PaymentRequestsPage />, { user: aUser() });
    expect(await screen.findByText('No payment requests found')).toBeInTheDocument();
  });

  it('disables New Request without EditPaymentRequest and enables it with it', async () => {
    stubFetch({ 'GET /payment-requests': page([aPaymentRequest(1)]) });
    const { unmount } = renderWithProviders(<PaymentRequestsPage />, {
      user: aUser({ role: 'Viewer', permissions: [] }),
      flags: { PermissionPolicy: true },
    });
    expect(await screen.findByRole('button', { name: 'New Request' })).toBeDisabled();
    unmount();
    renderWithProviders(<PaymentRequestsPage />, {
      user: aUser({ permissions: ['EditPaymentRequest'] }),
      flags: { PermissionPolicy: true },
    });
    const button = await screen.findByRole('button', { name: 'New Request' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    expect(await screen.findByRole('dialog', { name: 'New Request' })).toBeInTheDocument();
  });
});
