import { exportQuerySchema } from '@ledgerline/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getCompanyId, local } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ExportDialog } from './export-dialog';

beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
});

beforeEach(() => local.set(`ledgerline.payment-transactions.export.${getCompanyId()}`, null));

/** The export call checked by the contract's own query schema, as the server checks it. */
function exportRoute(call: { url: string }) {
  const query = Object.fromEntries(new URL(call.url, 'http://x').searchParams);
  const parsed = exportQuerySchema.safeParse(query);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => issue.message).join(' ');
    return {
      status: 400,
      body: { type: 'about:blank', title: 'Bad Request', status: 400, detail },
    };
  }
  return { body: 'PaymentTransactionId\r\n' };
}

// One day (from = to) is a whole day's export (spec 2 §5).
describe('the export dialog’s dates', () => {
  it('exports one day when from and to are the same day', async () => {
    local.set(
      `ledgerline.payment-transactions.export.${getCompanyId()}`,
      JSON.stringify({ fromDate: '2026-03-04', toDate: '2026-03-04' }),
    );
    const calls = stubFetch({
      'GET /providers': { body: { items: [], totalItems: 0 } },
      'GET /payment-transactions/export': exportRoute,
    });
    renderWithProviders(<ExportDialog opened onClose={() => {}} tableFilter="" />, {
      user: aUser(),
    });
    expect(screen.queryByText('From Date must be less than To Date')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    const sent = new URL(
      calls.find((call) => call.url.startsWith('/api/v0/payment-transactions/export'))!.url,
      'http://x',
    ).searchParams;
    expect(sent.get('fromDate')).toBe('2026-03-04T00:00:00.000Z');
    expect(sent.get('toDate')).toBe('2026-03-04T00:00:00.000Z');
  });

  it('says From Date must be less than To Date when from is later than to', async () => {
    local.set(
      `ledgerline.payment-transactions.export.${getCompanyId()}`,
      JSON.stringify({ fromDate: '2026-03-05', toDate: '2026-03-04' }),
    );
    const calls = stubFetch({ 'GET /providers': { body: { items: [], totalItems: 0 } } });
    renderWithProviders(<ExportDialog opened onClose={() => {}} tableFilter="" />, {
      user: aUser(),
    });
    expect(screen.getByText('From Date must be less than To Date')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
    expect(calls.some((call) => call.url.includes('/export'))).toBe(false);
  });
});

// Spec 2 §2 Export dialog: "When table filters are included and the status or type
// filter is already set, the corresponding select is disabled."
describe('the export dialog’s status and type selects', () => {
  function exportedFilter(calls: { url: string }[]) {
    const exportCall = calls.find((call) =>
      call.url.startsWith('/api/v0/payment-transactions/export'),
    )!;
    return new URL(exportCall.url, 'http://x').searchParams.get('filter');
  }

  it('disables the status select when the table’s status filter is included, and the table’s status applies', async () => {
    const calls = stubFetch({
      'GET /providers': { body: { items: [], totalItems: 0 } },
      'GET /payment-transactions/export': exportRoute,
    });
    renderWithProviders(
      <ExportDialog
        opened
        onClose={() => {}}
        tableFilter="status eq Paid"
        tableFilters={{ status: { type: 'select', value: 'Paid' } }}
      />,
      { user: aUser() },
    );
    const status = screen.getByRole('textbox', { name: 'Status' });
    const type = screen.getByRole('textbox', { name: 'Type' });
    expect(status).toBeEnabled();
    await userEvent.click(screen.getByRole('checkbox', { name: "Include the table's filters" }));
    expect(status).toBeDisabled();
    expect(status).toHaveValue('Paid');
    expect(type).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    expect(exportedFilter(calls)).toBe('status eq Paid');
  });

  it('disables the type select when the table’s type filter is included', async () => {
    stubFetch({ 'GET /providers': { body: { items: [], totalItems: 0 } } });
    renderWithProviders(
      <ExportDialog
        opened
        onClose={() => {}}
        tableFilter="type eq Refund"
        tableFilters={{ type: { type: 'select', value: 'Refund' } }}
      />,
      { user: aUser() },
    );
    await userEvent.click(screen.getByRole('checkbox', { name: "Include the table's filters" }));
    expect(screen.getByRole('textbox', { name: 'Type' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Type' })).toHaveValue('Refund');
    expect(screen.getByRole('textbox', { name: 'Status' })).toBeEnabled();
  });

  it('keeps both selects and sends their choice when the table’s filters are not included', async () => {
    const calls = stubFetch({
      'GET /providers': { body: { items: [], totalItems: 0 } },
      'GET /payment-transactions/export': exportRoute,
    });
    renderWithProviders(
      <ExportDialog
        opened
        onClose={() => {}}
        tableFilter="status eq Paid"
        tableFilters={{ status: { type: 'select', value: 'Paid' } }}
      />,
      { user: aUser() },
    );
    expect(screen.getByRole('textbox', { name: 'Status' })).toBeEnabled();
    await userEvent.click(screen.getByRole('textbox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Refund' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    expect(exportedFilter(calls)).toBe('type eq Refund');
  });
});

// "include table filters" carries the list's search box too.
describe('the export dialog and the table’s search', () => {
  const exported = (calls: { url: string }[]) => {
    const exportCall = calls.find((call) =>
      call.url.startsWith('/api/v0/payment-transactions/export'),
    )!;
    return new URL(exportCall.url, 'http://x').searchParams;
  };

  it('sends the search with the table’s filters when they are included, even with no filter', async () => {
    const calls = stubFetch({
      'GET /providers': { body: { items: [], totalItems: 0 } },
      'GET /payment-transactions/export': exportRoute,
    });
    renderWithProviders(
      <ExportDialog opened onClose={() => {}} tableFilter="" tableSearch="Acme" />,
      { user: aUser() },
    );
    const include = screen.getByRole('checkbox', { name: "Include the table's filters" });
    expect(include).toBeEnabled();
    expect(screen.getByText('With the search “Acme”')).toBeInTheDocument();
    expect(screen.queryByText('The table has no filters.')).not.toBeInTheDocument();
    await userEvent.click(include);
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    expect(exported(calls).get('search')).toBe('Acme');
  });

  it('leaves the search out when the table’s filters are not included', async () => {
    const calls = stubFetch({
      'GET /providers': { body: { items: [], totalItems: 0 } },
      'GET /payment-transactions/export': exportRoute,
    });
    renderWithProviders(
      <ExportDialog opened onClose={() => {}} tableFilter="status eq Paid" tableSearch="Acme" />,
      { user: aUser() },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    expect(exported(calls).has('search')).toBe(false);
  });
});
