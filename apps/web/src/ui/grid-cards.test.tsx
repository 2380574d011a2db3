import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { DataGrid, type DataGridColumn } from './data-grid';
import { cardsMediaQuery } from './grid-cards';
import { prepareGridTests } from './grid-test-support';
import { StatusTag } from './status-tag';
import { useGridState } from './use-grid-state';

interface Invoice {
  id: number;
  reference: string;
  customer: string;
  amount: number;
  status: 'Paid' | 'Unpaid';
}

const invoices: Invoice[] = Array.from({ length: 25 }, (_, index) => ({
  id: index + 1,
  reference: `INV-${String(index + 1).padStart(2, '0')}`,
  customer: `Customer ${index + 1}`,
  amount: (index + 1) * 10,
  status: index % 2 === 0 ? 'Paid' : 'Unpaid',
}));

const columns: DataGridColumn<Invoice>[] = [
  { accessor: 'reference', title: 'Reference', sortable: true, filter: { type: 'text' } },
  { accessor: 'customer', title: 'Customer', sortable: true },
  { accessor: 'amount', title: 'Amount', sortable: true, render: (invoice) => `£${invoice.amount}.00` },
  {
    accessor: 'status',
    title: 'Status',
    filter: { type: 'select', options: ['Paid', 'Unpaid'] },
    render: (invoice) => <StatusTag label={invoice.status} />,
  },
];

function InvoiceGrid() {
  const grid = useGridState({ name: 'invoices', defaultSort: { field: 'reference', direction: 'asc' } });
  return (
    <DataGrid
      label="Invoices"
      grid={grid}
      columns={columns}
      records={invoices}
      rowHref={(invoice) => `/invoices/${invoice.id}`}
      card={{ title: 'reference', subtitle: 'customer', amount: 'amount', status: 'status' }}
    />
  );
}

/** A phone: the cards' media query matches (and mantine-datatable's '' as prepareGridTests does). */
function narrowScreen() {
  const stub = window.matchMedia;
  window.matchMedia = (query: string) => {
    const list = stub(query);
    return query === cardsMediaQuery ? { ...list, matches: true } : list;
  };
  return () => {
    window.matchMedia = stub;
  };
}

const cards = () => within(screen.getByRole('list', { name: 'Invoices' })).getAllByRole('listitem');

describe('DataGrid below the md breakpoint', () => {
  let restore: () => void;
  beforeEach(() => {
    prepareGridTests();
    restore = narrowScreen();
  });
  afterEach(() => restore());

  it('shows each record as a card linking to it, with its amount and status, and no table', () => {
    renderWithProviders(<InvoiceGrid />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(cards()).toHaveLength(10);
    const first = within(cards()[0] as HTMLElement);
    const link = first.getByRole('link');
    expect(link).toHaveAttribute('href', '/invoices/1');
    expect(link).toHaveTextContent('INV-01');
    expect(link).toHaveTextContent('Customer 1');
    expect(link).toHaveTextContent('£10.00');
    expect(link).toHaveTextContent('Paid');
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();
  });

  it('pages, sorts and filters as the table does', async () => {
    renderWithProviders(<InvoiceGrid />);
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(screen.getByText('11–20 of 25')).toBeInTheDocument();
    expect(within(cards()[0] as HTMLElement).getByRole('link')).toHaveTextContent('INV-11');

    await userEvent.click(screen.getByRole('button', { name: 'Sort and filter' }));
    await userEvent.click(await screen.findByRole('textbox', { name: 'Sort by' }));
    await userEvent.click(screen.getByRole('option', { name: 'Reference (descending)' }));
    await userEvent.click(screen.getByRole('button', { name: '1' }));
    expect(within(cards()[0] as HTMLElement).getByRole('link')).toHaveTextContent('INV-25');

    await userEvent.click(screen.getByRole('textbox', { name: 'Status' }));
    await userEvent.click(screen.getByRole('option', { name: 'Unpaid' }));
    expect(screen.getByText('1 filter')).toBeInTheDocument();
    expect(screen.getByText('1–10 of 12')).toBeInTheDocument();
    for (const card of cards()) expect(card).toHaveTextContent('Unpaid');
  });

  it('lists every column in a card when the list names no layout', () => {
    function PlainGrid() {
      const grid = useGridState();
      return <DataGrid label="Invoices" grid={grid} columns={columns} records={invoices.slice(0, 1)} />;
    }
    renderWithProviders(<PlainGrid />);
    const card = cards()[0] as HTMLElement;
    for (const text of ['Reference', 'INV-01', 'Customer', 'Customer 1', 'Amount', '£10.00', 'Status', 'Paid'])
      expect(within(card).getByText(text)).toBeInTheDocument();
  });
});
