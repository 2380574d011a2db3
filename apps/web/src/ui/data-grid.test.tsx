import { Anchor } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { renderWithProviders } from '@/test/render';
import { DataGrid, type DataGridColumn } from './data-grid';
import { gridStorageKey } from './grid-state';
import { prepareGridTests } from './grid-test-support';
import { useGridState } from './use-grid-state';

interface Fruit {
  id: number;
  name: string;
  colour: string;
}

const fruits: Fruit[] = Array.from({ length: 25 }, (_, index) => ({
  id: index + 1,
  name: `Fruit ${String(index + 1).padStart(2, '0')}`,
  colour: index % 2 === 0 ? 'Red' : 'Green',
}));

const columns: DataGridColumn<Fruit>[] = [
  { accessor: 'name', title: 'Name', sortable: true, filter: { type: 'text' } },
  {
    accessor: 'colour',
    title: 'Colour',
    sortable: true,
    filter: { type: 'select', options: ['Red', 'Green'] },
  },
];

function FruitGrid() {
  const grid = useGridState({ name: 'fruits', defaultSort: { field: 'name', direction: 'asc' } });
  return <DataGrid label="Fruits" grid={grid} columns={columns} records={fruits} />;
}

const storedKey = gridStorageKey(1, 'fruits');
const stored = () => JSON.parse(window.localStorage.getItem(storedKey) ?? 'null');
const rowNames = () =>
  within(screen.getByRole('table', { name: 'Fruits' }))
    .getAllByRole('row')
    .map((row) => within(row).queryAllByRole('cell')[0]?.textContent)
    .filter((name) => name !== undefined);

beforeAll(prepareGridTests);

describe('DataGrid', () => {
  it('pages 10 rows by default and sorts by a clicked column', async () => {
    renderWithProviders(<FruitGrid />);
    expect(rowNames()).toHaveLength(10);
    expect(rowNames()[0]).toBe('Fruit 01');
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /^Name/ }));
    expect(rowNames()[0]).toBe('Fruit 25');
  });

  it('remembers filters, sort, page and page size per company and grid name', async () => {
    const first = renderWithProviders(<FruitGrid />);
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(rowNames()[0]).toBe('Fruit 11');
    await userEvent.click(screen.getByRole('button', { name: 'Filter Colour' }));
    await userEvent.click(await screen.findByRole('textbox', { name: 'Colour' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Green' }));
    expect(stored()).toMatchObject({
      page: 1,
      pageSize: 10,
      sort: { field: 'name', direction: 'asc' },
      filters: { colour: { type: 'select', value: 'Green' } },
    });
    first.unmount();

    renderWithProviders(<FruitGrid />);
    expect(rowNames()).toEqual(
      fruits
        .filter((fruit) => fruit.colour === 'Green')
        .slice(0, 10)
        .map((fruit) => fruit.name),
    );
    expect(screen.getByText('1–10 of 12')).toBeInTheDocument();
  });

  it('keeps another company’s state apart', () => {
    window.localStorage.setItem(
      gridStorageKey(2, 'fruits'),
      JSON.stringify({ page: 3, pageSize: 10, sort: null, filters: {} }),
    );
    window.localStorage.setItem(storageKeys.companyId, '1');
    renderWithProviders(<FruitGrid />);
    expect(rowNames()[0]).toBe('Fruit 01');
  });

  it('starts from the defaults with a clearGrid query parameter and removes it', async () => {
    window.localStorage.setItem(
      storedKey,
      JSON.stringify({
        page: 2,
        pageSize: 20,
        sort: { field: 'name', direction: 'desc' },
        filters: {},
      }),
    );
    const { router } = renderWithProviders(<FruitGrid />, { path: '/fruits?clearGrid=true' });
    expect(rowNames()[0]).toBe('Fruit 01');
    expect(rowNames()).toHaveLength(10);
    expect(stored()).toMatchObject({ page: 1, pageSize: 10, sort: { direction: 'asc' } });
    expect(router.state.location.search).toBe('');
  });

  it("drops a select filter when 'All' is chosen", async () => {
    window.localStorage.setItem(
      storedKey,
      JSON.stringify({
        page: 1,
        pageSize: 10,
        sort: null,
        filters: { colour: { type: 'select', value: 'Red' } },
      }),
    );
    renderWithProviders(<FruitGrid />);
    expect(screen.getByText('1–10 of 13')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Filter Colour' }));
    await userEvent.click(await screen.findByRole('textbox', { name: 'Colour' }));
    await userEvent.click(await screen.findByRole('option', { name: 'All' }));
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();
    expect(stored().filters).toEqual({});
  });

  it('shows the empty state', () => {
    function EmptyGrid() {
      const grid = useGridState();
      return (
        <DataGrid
          label="Nothing"
          grid={grid}
          columns={columns}
          records={[]}
          noRecordsText="No fruit"
        />
      );
    }
    renderWithProviders(<EmptyGrid />);
    expect(screen.getAllByText('No fruit').length).toBeGreaterThan(0);
  });

  it('offers the pages the server reaches (the first 10,000 rows) and says how to see the rest', async () => {
    function ServerGrid() {
      const grid = useGridState({ name: 'big', defaultSort: { field: 'name', direction: 'asc' } });
      return (
        <DataGrid
          label="Fruits"
          grid={grid}
          columns={columns}
          records={fruits.slice(0, 10)}
          totalRecords={1_000_000}
          totalEstimated
        />
      );
    }
    window.localStorage.setItem(
      gridStorageKey(1, 'big'),
      JSON.stringify({
        page: 5000,
        pageSize: 10,
        sort: { field: 'name', direction: 'asc' },
        filters: {},
      }),
    );
    renderWithProviders(<ServerGrid />);
    // A remembered page past the reachable ones moves to the last reachable page.
    expect(await screen.findByText('9,991–10,000 of about 1,000,000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '1000' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '1001' })).not.toBeInTheDocument();
    expect(
      screen.getByText(
        'Pages reach the first 10,000 rows: filter the list or sort it the other way to see the rest.',
      ),
    ).toBeInTheDocument();
  });

  // The whole row opens the record; View stays; the action column is pinned.
  it('opens a row where it is clicked, keeps its View link, and pins the action column', async () => {
    const linked: DataGridColumn<Fruit>[] = [
      ...columns,
      {
        accessor: 'view',
        title: '',
        render: (fruit) => (
          <Anchor component={Link} to={`/fruits/${fruit.id}`} aria-label={`View ${fruit.name}`}>
            View
          </Anchor>
        ),
      },
    ];
    function LinkedGrid() {
      const grid = useGridState({ defaultSort: { field: 'name', direction: 'asc' } });
      return (
        <DataGrid
          label="Fruits"
          grid={grid}
          columns={linked}
          records={fruits}
          rowHref={(fruit) => `/fruits/${fruit.id}`}
        />
      );
    }
    const { router } = renderWithProviders(<LinkedGrid />, {
      path: '/fruits',
      routes: [{ path: '/fruits/:id', element: <p>Fruit page</p> }],
    });
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(table.closest('.mantine-datatable-pin-last-column')).not.toBeNull();
    const view = screen.getByRole('link', { name: 'View Fruit 03' });
    expect(view).toHaveAttribute('data-inherit', 'true');

    await userEvent.click(screen.getByText('Fruit 02'));
    expect(router.state.location.pathname).toBe('/fruits/2');
    await router.navigate('/fruits');
    await userEvent.click(await screen.findByRole('link', { name: 'View Fruit 03' }));
    expect(router.state.location.pathname).toBe('/fruits/3');
  });

  // Escape closes a column filter.
  it('closes a filter popover with Escape', async () => {
    renderWithProviders(<FruitGrid />);
    await userEvent.click(screen.getByRole('button', { name: 'Filter Name' }));
    const input = await screen.findByRole('textbox', { name: /Name/ });
    await waitFor(() => expect(input).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /Name/ })).toBeNull());
  });

  // axe nested-interactive, empty-table-header, scrollable-region-focusable.
  it('keeps the sort and filter buttons side by side, names every header and the scroll box', async () => {
    const withView: DataGridColumn<Fruit>[] = [
      ...columns,
      { accessor: 'view', title: '', render: (fruit) => <a href={`/f/${fruit.id}`}>View</a> },
    ];
    function ViewGrid() {
      const grid = useGridState({ defaultSort: { field: 'name', direction: 'asc' } });
      return <DataGrid label="Fruits" grid={grid} columns={withView} records={fruits} />;
    }
    renderWithProviders(<ViewGrid />);
    const table = screen.getByRole('table', { name: 'Fruits' });
    const sortName = within(table).getByRole('button', { name: 'Name' });
    const filterName = within(table).getByRole('button', { name: 'Filter Name' });
    expect(sortName.contains(filterName)).toBe(false);
    expect(filterName.contains(sortName)).toBe(false);
    // The header cells are column headers, not buttons, and say how the grid is sorted.
    const nameHeader = within(table).getByRole('columnheader', { name: /^Name/ });
    expect(nameHeader).toContainElement(sortName);
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByRole('columnheader', { name: /^Colour/ })).not.toHaveAttribute(
      'aria-sort',
    );
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();

    await userEvent.click(sortName);
    await waitFor(() => expect(nameHeader).toHaveAttribute('aria-sort', 'descending'));
    expect(rowNames()[0]).toBe('Fruit 25');

    const scrollBox = screen.getByRole('region', { name: 'Fruits, scrollable' });
    expect(scrollBox).toHaveAttribute('tabindex', '0');
    expect(scrollBox).toContainElement(table);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeInTheDocument();
  });
});
