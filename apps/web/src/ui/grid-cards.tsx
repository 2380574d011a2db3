import { Badge, Button, Card, Group, Loader, Pagination, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from './data-grid';
import { GridFilterControl, type GridFilterSpec } from './grid-filter-control';
import { pageSizeChoices } from './grid-state';
import type { GridController } from './use-grid-state';
import { EmptyState } from './empty-state';

/**
 * Which columns a list's card shows where: a reference as its title, the
 * customer under it, the amount and the status on the right, and a date. Each names a column's
 * accessor; the card shows that column's cell.
 */
export interface GridCardLayout {
  title: string;
  subtitle?: string;
  amount?: string;
  status?: string;
  date?: string;
}

/**
 * Below Mantine's md breakpoint (62em) a list shows cards. Written as max-width so that a
 * matchMedia answering false (jsdom, a desktop) keeps the table.
 */
export const cardsMediaQuery = '(max-width: 61.99em)';

const fieldOf = <T,>(column: DataGridColumn<T>) => column.field ?? column.accessor;

/** A column's cell for a record: its render, or the record's property. */
export function cellOf<T>(column: DataGridColumn<T> | undefined, record: T): ReactNode {
  if (!column) return null;
  if (column.render) return column.render(record);
  const value = (record as Record<string, unknown>)[column.accessor];
  return value === null || value === undefined ? '' : String(value);
}

interface GridCardsProps<T> {
  grid: GridController;
  columns: readonly DataGridColumn<T>[];
  items: readonly T[];
  layout: GridCardLayout | undefined;
  rowKey: (record: T) => string | number;
  rowHref?: (record: T) => string | undefined;
  label: string;
  fetching: boolean;
  noRecordsText: string;
  /** The pager's state, worked out by DataGrid; undefined: no pager. */
  pager?: { page: number; lastPage: number; text: string };
}

/** The sort and the column filters of the table's headers, as a panel above the cards. */
function CardControls<T>({
  grid,
  columns,
}: {
  grid: GridController;
  columns: readonly DataGridColumn<T>[];
}) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { state, setSort, setFilter } = grid;
  const sortable = columns.filter((column) => column.sortable);
  const filterable = columns.filter((column) => column.filter);
  if (sortable.length === 0 && filterable.length === 0) return null;
  const active = Object.keys(state.filters).length;
  const sortChoices = sortable.flatMap((column) => [
    { value: `${fieldOf(column)}:asc`, label: `${column.title} (ascending)` },
    { value: `${fieldOf(column)}:desc`, label: `${column.title} (descending)` },
  ]);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={toggle} aria-expanded={opened}>
          Sort and filter
        </Button>
        {active > 0 ? (
          <Badge variant="light" color="blue" radius="sm">
            {active === 1 ? '1 filter' : `${active} filters`}
          </Badge>
        ) : null}
      </Group>
      {opened ? (
        <Card withBorder padding="sm">
          <Stack gap="sm">
            {sortable.length > 0 ? (
              <Select
                label="Sort by"
                data={sortChoices}
                value={state.sort ? `${state.sort.field}:${state.sort.direction}` : null}
                allowDeselect={false}
                comboboxProps={{ withinPortal: false }}
                onChange={(value) => {
                  if (!value) return;
                  const [field, direction] = value.split(':');
                  if (field) setSort({ field, direction: direction === 'desc' ? 'desc' : 'asc' });
                }}
              />
            ) : null}
            {filterable.map((column) => (
              <GridFilterControl
                key={column.accessor}
                spec={column.filter as GridFilterSpec}
                label={column.title}
                filter={state.filters[fieldOf(column)]}
                onChange={(next) => setFilter(fieldOf(column), next)}
                close={close}
              />
            ))}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}

/** One record as a card: the layout's parts, or every column as a labelled line. */
function RecordCard<T>({
  record,
  columns,
  layout,
  href,
}: {
  record: T;
  columns: readonly DataGridColumn<T>[];
  layout: GridCardLayout | undefined;
  href: string | undefined;
}) {
  const column = (accessor: string | undefined) =>
    accessor === undefined
      ? undefined
      : columns.find((candidate) => candidate.accessor === accessor);
  if (layout) {
    const body = (
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {cellOf(column(layout.title), record)}
          </Text>
          <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }} data-card-part="amount">
            {cellOf(column(layout.amount), record)}
          </Text>
        </Group>
        <Group justify="space-between" wrap="nowrap" align="center" gap="sm">
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {cellOf(column(layout.subtitle), record)}
          </Text>
          <div data-card-part="status" style={{ flexShrink: 0 }}>
            {cellOf(column(layout.status), record)}
          </div>
        </Group>
        {layout.date ? (
          <Text size="xs" c="dimmed">
            {cellOf(column(layout.date), record)}
          </Text>
        ) : null}
      </Stack>
    );
    // The whole card opens the record; its parts hold no links of their own.
    return href ? (
      <Card component={Link} to={href} withBorder padding="sm" data-grid-card>
        {body}
      </Card>
    ) : (
      <Card withBorder padding="sm" data-grid-card>
        {body}
      </Card>
    );
  }
  return <ColumnLinesCard record={record} columns={columns} />;
}

/** No layout: each column as 'Title: value', the actions (untitled column) last. */
function ColumnLinesCard<T>({
  record,
  columns,
}: {
  record: T;
  columns: readonly DataGridColumn<T>[];
}) {
  return (
    <Card withBorder padding="sm" data-grid-card>
      <Stack gap={4}>
        {columns.map((candidate) =>
          candidate.title === '' || candidate.title === 'Actions' ? (
            <Group key={candidate.accessor} justify="flex-end">
              {cellOf(candidate, record)}
            </Group>
          ) : (
            <Group
              key={candidate.accessor}
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              align="flex-start"
            >
              <Text size="xs" c="dimmed">
                {candidate.title}
              </Text>
              <Text size="sm" ta="right" style={{ overflowWrap: 'anywhere' }} component="div">
                {cellOf(candidate, record)}
              </Text>
            </Group>
          ),
        )}
      </Stack>
    </Card>
  );
}

/**
 * A list on a small screen: the same records, paging, sort and filters as the
 * table, each record a card that fits the width of a phone.
 */
export function GridCards<T>({
  grid,
  columns,
  items,
  layout,
  rowKey,
  rowHref,
  label,
  fetching,
  noRecordsText,
  pager,
}: GridCardsProps<T>) {
  const { state, setPage, setPageSize } = grid;
  return (
    <Stack gap="sm">
      <CardControls grid={grid} columns={columns} />
      <Stack gap="xs" role="list" aria-label={label} aria-busy={fetching}>
        {items.map((record) => (
          <div role="listitem" key={rowKey(record)}>
            <RecordCard
              record={record}
              columns={columns}
              layout={layout}
              href={rowHref?.(record)}
            />
          </div>
        ))}
      </Stack>
      {fetching && items.length === 0 ? (
        <Group justify="center" p="md">
          <Loader size="sm" aria-label="Loading" />
        </Group>
      ) : null}
      {!fetching && items.length === 0 ? <EmptyState message={noRecordsText} /> : null}
      {pager ? (
        <Stack gap="xs" align="center">
          <Text size="sm">{pager.text}</Text>
          <Pagination
            total={pager.lastPage}
            value={pager.page}
            onChange={setPage}
            size="sm"
            siblings={0}
            boundaries={1}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
          <Select
            label="Rows per page"
            size="xs"
            w={120}
            data={pageSizeChoices.map(String)}
            value={String(state.pageSize)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            onChange={(value) => value && setPageSize(Number(value))}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
