import { allocatedStatuses } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ExportDialog } from './export-dialog';
import { ImportDialog } from './import-dialog';

beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
});

describe('the export dialog', () => {
  it('starts from the spec’s defaults, sends the unticked statuses and the table filter, and remembers the options', async () => {
    const calls = stubFetch({
      'GET /payment-transactions/export': { body: 'PaymentTransactionId\r\n' },
    });
    const { unmount } = renderWithProviders(
      <ExportDialog opened onClose={() => {}} tableFilter="status eq Paid" />,
      { user: aUser() },
    );
    expect(screen.getByRole('textbox', { name: 'Export type' })).toHaveValue(
      'Payments and allocations',
    );
    expect(screen.getByRole('checkbox', { name: 'Waiting To Be Allocated' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Error' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Auto Allocated' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Auto Allocated' }));
    await userEvent.click(screen.getByRole('checkbox', { name: "Include the table's filters" }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('file exported successfully')).toBeInTheDocument();
    // The dialog also reads the providers list; the export is the call to /export.
    const exportCall = calls.find((call) =>
      call.url.startsWith('/api/v0/payment-transactions/export'),
    )!;
    const query = new URL(exportCall.url, 'http://localhost').searchParams;
    expect(query.get('exportType')).toBe('PaymentsAndAllocations');
    expect(query.get('excludeAllocatedStatus')).toBe('Unallocated,ManuallyAllocated,NotApplicable');
    expect(query.get('filter')).toBe('status eq Paid');
    expect(exportCall.headers.get('dataset-id')).toBe('1');
    unmount();
    renderWithProviders(<ExportDialog opened onClose={() => {}} tableFilter="" />, {
      user: aUser(),
    });
    expect(screen.getByRole('checkbox', { name: 'Auto Allocated' })).toBeChecked();
  });

  it('gives way to the table’s allocated status filter when it is included', async () => {
    stubFetch({});
    window.localStorage.clear();
    renderWithProviders(
      <ExportDialog
        opened
        onClose={() => {}}
        tableFilter="allocatedStatus eq Error"
        tableFilters={{ allocatedStatus: { type: 'select', value: 'Error' } }}
      />,
      { user: aUser() },
    );
    await userEvent.click(screen.getByRole('checkbox', { name: "Include the table's filters" }));
    expect(screen.getByRole('checkbox', { name: 'Error' })).toBeDisabled();
    expect(screen.getByText('The table’s allocated status filter applies.')).toBeInTheDocument();
  });
});

describe('the import dialog', () => {
  it('uploads the file and shows the counts and the rows that need a look', async () => {
    const calls = stubFetch({
      'POST /payment-transactions/allocated-status/import': {
        body: {
          processedCount: 2,
          importedCount: 1,
          notImportedCount: 1,
          duplicatedCount: 0,
          results: [
            {
              id: 'a',
              line: 2,
              resultStatus: 'Ok',
              importStatus: 'Imported',
              allocatedStatus: 'Error',
              message: 'Allocated status changed from Unallocated to Error.',
            },
            {
              id: 'nope',
              line: 3,
              resultStatus: 'Error',
              importStatus: 'NotImported',
              allocatedStatus: 'Error',
              message: "'nope' is not a payment transaction id.",
            },
          ],
        },
      },
    });
    renderWithProviders(<ImportDialog opened onClose={() => {}} />, { user: aUser() });
    const file = new File(['PaymentTransactionId,AllocatedStatus\r\n'], 'statuses.csv', {
      type: 'text/csv',
    });
    // Mantine's FileInput labels a button and keeps the file input beside it.
    await userEvent.upload(document.querySelector('input[type="file"]') as HTMLInputElement, file);
    expect(screen.getByRole('button', { name: 'File' })).toHaveTextContent('statuses.csv');
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText("'nope' is not a payment transaction id.")).toBeInTheDocument();
    expect(screen.getByText('Processed').nextSibling).toHaveTextContent('2');
    expect(screen.getByText('Imported', { selector: 'p' }).nextSibling).toHaveTextContent('1');
    await waitFor(() => expect(calls[0]!.body).toBeInstanceOf(FormData));
    expect(((calls[0]!.body as FormData).get('file') as File).name).toBe('statuses.csv');
    expect(calls[0]!.headers.get('dataset-id')).toBe('1');
  });

  // The dialog says what the file holds and offers a template to start from.
  it('explains the columns and offers a CSV template the import reads', async () => {
    renderWithProviders(<ImportDialog opened onClose={() => {}} />, { user: aUser() });
    const columns = await screen.findByRole('table', { name: 'Import file columns' });
    expect(within(columns).getByText('PaymentTransactionId')).toBeInTheDocument();
    expect(within(columns).getByText('AllocatedStatus')).toBeInTheDocument();
    for (const status of allocatedStatuses)
      expect(within(columns).getByText(status)).toBeInTheDocument();
    expect(within(columns).getByText('(waiting to be allocated)')).toBeInTheDocument();

    const template = screen.getByRole('link', { name: 'Download the CSV template' });
    expect(template).toHaveAttribute('download', 'allocated-statuses-template.csv');
    const href = template.getAttribute('href') ?? '';
    expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    const text = decodeURIComponent(href.slice(href.indexOf(',') + 1));
    const [header, example, rest] = text.split('\r\n');
    expect(header).toBe('PaymentTransactionId,AllocatedStatus');
    const [id, status] = (example ?? '').split(',');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(allocatedStatuses).toContain(status);
    expect(rest).toBe('');
  });
});
