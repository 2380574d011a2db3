import type { TransactionDetail } from '@ledgerline/contract';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RejectedPaymentsPanel } from '@/features/payment-transactions/components/latest-payments-panel';
import { PaymentAllocationsTab } from '@/features/transactions/components/payments-tabs';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { DataGrid, type DataGridColumn } from './data-grid';
import { EmptyState } from './empty-state';
import { cardsMediaQuery } from './grid-cards';
import { prepareGridTests } from './grid-test-support';
import { useGridState } from './use-grid-state';

const columns: DataGridColumn<{ id: number; name: string }>[] = [
  { accessor: 'name', title: 'Name' },
];

function EmptyGrid() {
  const grid = useGridState({ name: 'empty', defaultSort: { field: 'name', direction: 'asc' } });
  return (
    <DataGrid
      label="Fruits"
      grid={grid}
      columns={columns}
      records={[]}
      noRecordsText="No fruit found"
    />
  );
}

/** The one empty state: its icon and its message, the same markup wherever it shows. */
function expectTheEmptyState(message: string) {
  const text = screen.getByText(message);
  const state = text.closest('[data-empty-state]');
  expect(state, `'${message}' is not shown by EmptyState`).not.toBeNull();
  expect(state?.querySelector('svg[aria-hidden]')).not.toBeNull();
}

// One empty-state style, one shared component.
describe('the empty state', () => {
  let restore = () => {};
  beforeEach(() => prepareGridTests());
  afterEach(() => restore());

  it('shows a quiet icon above its message and an action when given', () => {
    renderWithProviders(
      <EmptyState message="Nothing here yet." action={<button type="button">Add one</button>} />,
    );
    expectTheEmptyState('Nothing here yet.');
    expect(screen.getByRole('button', { name: 'Add one' })).toBeInTheDocument();
  });

  it('is what an empty grid shows, as a table and as cards', () => {
    const { unmount } = renderWithProviders(<EmptyGrid />);
    expectTheEmptyState('No fruit found');
    unmount();

    const stub = window.matchMedia;
    window.matchMedia = (query: string) => {
      const list = stub(query);
      return query === cardsMediaQuery ? { ...list, matches: true } : list;
    };
    restore = () => {
      window.matchMedia = stub;
    };
    renderWithProviders(<EmptyGrid />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expectTheEmptyState('No fruit found');
  });

  it('is what a dashboard panel and a detail tab show with nothing in them', async () => {
    stubFetch({
      'GET /payment-transactions/status/all-failures': {
        body: { items: [], totalItems: 0, totalItemsEstimated: false },
      },
    });
    renderWithProviders(
      <>
        <RejectedPaymentsPanel />
        <PaymentAllocationsTab
          transaction={{ paymentAllocations: [], currency: 'GBP' } as unknown as TransactionDetail}
        />
      </>,
      { user: aUser() },
    );
    await screen.findByText('No failed payments');
    expectTheEmptyState('No failed payments');
    expectTheEmptyState('No payment allocations');
  });
});
