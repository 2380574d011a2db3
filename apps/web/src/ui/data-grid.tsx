import 'mantine-datatable/styles.css';
import { lastReachablePage, queryLimits } from '@ledgerline/contract';
import { Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useEffect, useMemo, useRef, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { EmptyState } from './empty-state';
import { cardsMediaQuery, GridCards, type GridCardLayout } from './grid-cards';
import { GridFilterControl, type GridFilterSpec } from './grid-filter-control';
import classes from './data-grid.module.css';
import { applyGridState, pageSizeChoices } from './grid-state';
import type { GridController } from './use-grid-state';

const count = (value: number) => value.toLocaleString('en-GB');

/** spec 2 "Grids in general": minimum heights without and with filters. */
export const gridMinHeight = 482;
export const gridMinHeightWithFilters = 523;

export interface DataGridColumn<T> {
  /** The record property shown (and the column's key). */
  accessor: string;
  title: string;
  /** The query field for sort and filter (spec 1 §7); the accessor when not given. */
  field?: string;
  sortable?: boolean;
  filter?: GridFilterSpec;
  render?: (record: T) => ReactNode;
  /** The value sorted and filtered on in a client-side grid; the accessor's property by default. */
  value?: (record: T) => unknown;
  textAlign?: 'left' | 'center' | 'right';
  width?: number | string;
  noWrap?: boolean;
  /** The column's cell in a footer row (a report's totals); any column having one shows the row. */
  footer?: ReactNode;
}

interface DataGridProps<T> {
  grid: GridController;
  columns: readonly DataGridColumn<T>[];
  /** The page of records (server side) or the whole list (client side). */
  records: readonly T[] | undefined;
  /**
   * The server's totalItems for a paged call. Without it the grid filters, sorts and pages
   * `records` itself.
   */
  totalRecords?: number;
  /** The server's total is an estimate (past 10,000 rows): the grid says "about". */
  totalEstimated?: boolean;
  fetching?: boolean;
  /** false: one page, no paging controls (a cursor-paged list brings its own). */
  paging?: boolean;
  idAccessor?: string | ((record: T) => string | number);
  noRecordsText?: string;
  /** The table's accessible name. */
  label: string;
  /**
   * Where a row leads: a click anywhere on the row opens it (as Stripe's lists);
   * the row's own View link stays for keyboard users and for opening in a new tab.
   */
  rowHref?: (record: T) => string | undefined;
  /**
   * Below the md breakpoint the list shows cards: which columns make a card's
   * reference, customer, amount, status and date. Without it a card lists every column.
   */
  card?: GridCardLayout;
}

/** The last column holds a row's actions (View, Edit, Delete): untitled or 'Actions'. */
const isActionColumn = <T,>(column: DataGridColumn<T> | undefined) =>
  column !== undefined && (column.title === '' || column.title === 'Actions');

/** A click on a control inside the row is that control's, not the row's. */
const interactive = 'a, button, input, select, textarea, label, [role="button"], [role="checkbox"]';

const fieldOf = <T,>(column: DataGridColumn<T>) => column.field ?? column.accessor;

/** The pager's arrow buttons show only an icon: their names (axe button-name). */
const paginationControlNames = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;
const paginationControlProps = (control: keyof typeof paginationControlNames) => ({
  'aria-label': paginationControlNames[control],
});

/** What an untitled (action) column's header says to a screen reader (axe empty-table-header). */
export const actionColumnHeader = 'Actions';

/**
 * A sortable column's title: a button of its own, beside the filter button, not around it
 * (axe nested-interactive: mantine-datatable makes the whole header cell the
 * sort button). The header cell says which way it is sorted (aria-sort, set below).
 */
function SortButton({
  title,
  direction,
  onSort,
}: {
  title: string;
  direction: 'asc' | 'desc' | undefined;
  onSort: () => void;
}) {
  const Icon =
    direction === 'asc' ? IconChevronUp : direction === 'desc' ? IconChevronDown : IconSelector;
  return (
    <UnstyledButton
      onClick={onSort}
      fw="inherit"
      fz="inherit"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, maxWidth: '100%' }}
    >
      {/* Breaks between words in a narrow column, never mid-word. */}
      <span style={{ whiteSpace: 'normal', overflowWrap: 'normal', textAlign: 'start' }}>
        {title}
      </span>
      <Icon size={14} aria-hidden style={{ flexShrink: 0, opacity: direction ? 1 : 0.6 }} />
    </UnstyledButton>
  );
}

/**
 * The grid of every list: sortable columns, paging with page size choices, column filters, loading
 * and empty states. State lives in a GridController (useGridState).
 */
export function DataGrid<T>({
  grid,
  columns,
  records,
  totalRecords,
  totalEstimated = false,
  fetching = false,
  paging = true,
  idAccessor = 'id',
  noRecordsText = 'No records found',
  label,
  rowHref,
  card,
}: DataGridProps<T>) {
  const navigate = useNavigate();
  // Read at once (not after a first render as a table) so a phone never flashes the table.
  const asCards = useMediaQuery(cardsMediaQuery, false, { getInitialValueInEffect: false });
  const { state, setPage, setPageSize, setSort, setFilter } = grid;
  const clientSide = totalRecords === undefined;
  const wrapper = useRef<HTMLDivElement>(null);

  const shown = useMemo(() => {
    const all = records ?? [];
    if (!clientSide) return { items: [...all], totalItems: totalRecords };
    const valueOf = (record: T, field: string) => {
      const column = columns.find((candidate) => fieldOf(candidate) === field);
      if (column?.value) return column.value(record);
      return (record as Record<string, unknown>)[column?.accessor ?? field];
    };
    return applyGridState(
      all,
      paging ? state : { ...state, page: 1, pageSize: all.length || 1 },
      valueOf,
    );
  }, [records, clientSide, totalRecords, columns, state, paging]);

  // Offset paging reaches the first rows only (contract queryLimits.offsetMax); the pager offers
  // the pages it can open and says why it stops.
  const reachableRows = clientSide
    ? shown.totalItems
    : Math.min(shown.totalItems, lastReachablePage(state.pageSize) * state.pageSize);
  const pagesStopEarly = reachableRows < shown.totalItems;
  // After a delete or a narrower filter the page may lie beyond the last one: go to the last.
  const lastPage = Math.max(1, Math.ceil(reachableRows / state.pageSize));
  useEffect(() => {
    if (paging && !fetching && records !== undefined && state.page > lastPage) setPage(lastPage);
  }, [paging, fetching, records, state.page, lastPage, setPage]);

  const hasFilters = columns.some((column) => column.filter);

  // mantine-datatable's filter buttons carry no text: name them after their column. A sorted
  // column's header cell says which way (the sort buttons are ours: SortButton).
  useEffect(() => {
    for (const column of columns) {
      const header = wrapper.current?.querySelector(`th[data-accessor="${column.accessor}"]`);
      const sortedHere = state.sort !== null && state.sort.field === fieldOf(column);
      if (sortedHere && column.sortable) {
        header?.setAttribute(
          'aria-sort',
          state.sort?.direction === 'desc' ? 'descending' : 'ascending',
        );
      } else {
        header?.removeAttribute('aria-sort');
      }
      if (!column.filter) continue;
      const button = header?.querySelector('.mantine-datatable-header-cell-filter-action-icon');
      button?.setAttribute('aria-label', `Filter ${column.title}`);
    }
  });

  const sortBy = (column: DataGridColumn<T>) => {
    const field = fieldOf(column);
    const direction =
      state.sort?.field === field && state.sort.direction === 'asc' ? 'desc' : 'asc';
    setSort({ field, direction });
  };

  const tableColumns = columns.map((column): DataTableColumn<T> => {
    const field = fieldOf(column);
    const filter = state.filters[field];
    const sortedHere = state.sort?.field === field;
    return {
      accessor: column.accessor,
      title: column.sortable ? (
        <SortButton
          title={column.title}
          direction={sortedHere ? state.sort?.direction : undefined}
          onSort={() => sortBy(column)}
        />
      ) : column.title === '' ? (
        <VisuallyHidden>{actionColumnHeader}</VisuallyHidden>
      ) : (
        column.title
      ),
      textAlign: column.textAlign,
      width: column.width,
      noWrap: column.noWrap,
      footer: column.footer,
      render: column.render ? (record) => column.render?.(record) : undefined,
      filtering: filter !== undefined,
      filter: column.filter
        ? ({ close }) => (
            <GridFilterControl
              spec={column.filter as GridFilterSpec}
              label={column.title}
              filter={filter}
              onChange={(next) => setFilter(field, next)}
              close={close}
            />
          )
        : undefined,
    };
  });

  const tableProps = {
    'aria-label': label,
    withTableBorder: true,
    borderRadius: 'md',
    striped: true,
    highlightOnHover: true,
    minHeight: hasFilters ? gridMinHeightWithFilters : gridMinHeight,
    columns: tableColumns,
    records: shown.items,
    idAccessor,
    fetching,
    // One empty-state style everywhere.
    emptyState: <EmptyState message={noRecordsText} />,
    // A table wider than its box scrolls: the keyboard can reach and scroll it too (axe
    // scrollable-region-focusable), and a screen reader hears what it is.
    scrollAreaProps: {
      viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `${label}, scrollable` },
    },
    // Too wide for the screen: the table scrolls and the actions stay in view.
    pinLastColumn: isActionColumn(columns.at(-1)),
    ...(rowHref
      ? {
          onRowClick: ({ record, event }: { record: T; event: MouseEvent }) => {
            const href = rowHref(record);
            const target = event.target as HTMLElement;
            if (!href || target.closest(interactive)) return;
            // Selecting text in a row is not a click on it.
            if (window.getSelection()?.toString()) return;
            if (event.metaKey || event.ctrlKey) window.open(href, '_blank', 'noopener');
            else void navigate(href);
          },
          rowStyle: () => ({ cursor: 'pointer' }),
        }
      : {}),
  } as const;

  const paginationText = (from: number, to: number) =>
    `${count(from)}–${count(to)} of ${totalEstimated ? 'about ' : ''}${count(shown.totalItems)}`;
  const stopNote =
    paging && pagesStopEarly ? (
      <Text size="xs" c="dimmed" mt={4}>
        Pages reach the first {queryLimits.offsetMax.toLocaleString('en-GB')} rows: filter the list
        or sort it the other way to see the rest.
      </Text>
    ) : null;

  if (asCards) {
    const page = Math.min(state.page, lastPage);
    const from = shown.totalItems === 0 ? 0 : (page - 1) * state.pageSize + 1;
    const to = Math.min(page * state.pageSize, reachableRows);
    const rowKey = (record: T) =>
      typeof idAccessor === 'function'
        ? idAccessor(record)
        : ((record as Record<string, unknown>)[idAccessor] as string | number);
    return (
      <div>
        <GridCards<T>
          grid={grid}
          columns={columns}
          items={shown.items}
          layout={card}
          rowKey={rowKey}
          rowHref={rowHref}
          label={label}
          fetching={fetching}
          noRecordsText={noRecordsText}
          pager={
            paging && shown.totalItems > 0
              ? { page, lastPage, text: paginationText(from, to) }
              : undefined
          }
        />
        {stopNote}
      </div>
    );
  }

  return (
    <div ref={wrapper} className={classes.grid}>
      {paging ? (
        <DataTable<T>
          {...tableProps}
          page={Math.min(state.page, lastPage)}
          onPageChange={setPage}
          totalRecords={reachableRows}
          recordsPerPage={state.pageSize}
          recordsPerPageOptions={[...pageSizeChoices]}
          onRecordsPerPageChange={setPageSize}
          recordsPerPageLabel="Rows per page"
          paginationText={({ from, to }) => paginationText(from, to)}
          loadingText="Loading"
          getPaginationControlProps={paginationControlProps}
        />
      ) : (
        <DataTable<T> {...tableProps} />
      )}
      {stopNote}
    </div>
  );
}
