import { Group, Pagination, Text } from '@mantine/core';

const count = (value: number) => value.toLocaleString('en-GB');

/** The pager's arrow buttons show only an icon: their names, as the grids' (axe button-name). */
const controlNames = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/**
 * The paging of a list that is not a DataGrid (a dialog's or a panel's table), written as the grids
 * write theirs (one paging style): '11–20 of 57' on the left, the page buttons on
 * the right with the same names; nothing when everything fits on one page.
 */
export function Pager({
  page,
  pageSize,
  total,
  onChange,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  label: string;
}) {
  const pages = Math.ceil(total / pageSize);
  if (pages <= 1) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm">
        {count(from)}–{count(to)} of {count(total)}
      </Text>
      <Pagination
        size="sm"
        total={pages}
        value={page}
        onChange={onChange}
        aria-label={label}
        getControlProps={(control) =>
          control in controlNames
            ? { 'aria-label': controlNames[control as keyof typeof controlNames] }
            : {}
        }
      />
    </Group>
  );
}
