import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ExportDialog } from './export-dialog';

beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
});

const stripe = {
  id: '0199f0aa-0000-7000-8000-0000000000c1',
  name: 'Card payments',
  providerName: 'Stripe',
};
const goCardless = {
  id: '0199f0aa-0000-7000-8000-0000000000c2',
  name: 'Direct debits',
  providerName: 'GoCardless',
};

// Spec 2 §2, §3, §7 — the export's payment provider, from the providers list.
describe('the export dialog’s payment provider', () => {
  it('offers the company’s providers and sends the chosen one', async () => {
    const calls = stubFetch({
      'GET /providers': { body: { items: [stripe, goCardless], totalItems: 2 } },
      'GET /payment-transactions/export': { body: 'PaymentTransactionId\r\n' },
    });
    renderWithProviders(<ExportDialog opened onClose={() => {}} tableFilter="" />, {
      user: aUser(),
    });
    const select = screen.getByRole('textbox', { name: 'Payment provider' });
    expect(select).toHaveValue('All providers');
    await userEvent.click(select);
    await userEvent.click(
      await screen.findByRole('option', { name: 'Direct debits (GoCardless)' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    const exportCall = calls.find((call) =>
      call.url.startsWith('/api/v0/payment-transactions/export'),
    )!;
    expect(new URL(exportCall.url, 'http://x').searchParams.get('paymentProviderId')).toBe(
      goCardless.id,
    );
  });

  it('says when the list cannot be read and still exports every provider', async () => {
    const calls = stubFetch({
      'GET /payment-transactions/export': { body: 'PaymentTransactionId\r\n' },
    });
    renderWithProviders(<ExportDialog opened onClose={() => {}} tableFilter="" />, {
      user: aUser(),
    });
    expect(
      await screen.findByText('The payment providers could not be loaded.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    const exportCall = calls.find((call) =>
      call.url.startsWith('/api/v0/payment-transactions/export'),
    )!;
    expect(new URL(exportCall.url, 'http://x').searchParams.has('paymentProviderId')).toBe(false);
  });
});
