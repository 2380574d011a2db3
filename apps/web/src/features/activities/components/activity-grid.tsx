import { Button, Group, Stack } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { DataGrid } from '@/ui/data-grid';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useAuditLogs, type ActivityScope } from '../api/get-audit-logs';
import { useActivityColumns } from '../table/use-activity-columns';
import {
  firstPage,
  hasPreviousPage,
  nextPage,
  previousPage,
  type CursorPosition,
} from '../utils/cursor-stack';

/** spec 3 §2: 15 activities a page, newest first, with Previous and Next. */
export function ActivityGrid({ scope, label }: { scope: ActivityScope; label: string }) {
  // The order is the server's (newest first): no sort, filters or paging state to keep; the
  // search box's words only. Two of these grids share the page (the company's
  // and the tenant's), so neither writes the address.
  const grid = useGridState();
  const search = grid.query.search ?? '';
  // The position belongs to the words it was reached with: new words start at the newest.
  const [kept, setKept] = useState({ search, position: firstPage });
  const position = kept.search === search ? kept.position : firstPage;
  const setPosition = (move: (current: CursorPosition) => CursorPosition) =>
    setKept((current) => ({
      search,
      position: move(current.search === search ? current.position : firstPage),
    }));
  const activities = useAuditLogs(scope, position.cursor, search);
  const columns = useActivityColumns();
  const next = activities.isPlaceholderData ? null : activities.data?.next;

  return (
    <Stack gap="sm">
      <GridToolbar grid={grid} listName={label} placeholder="Operation or user" />
      <DataGrid
        label={label}
        grid={grid}
        columns={columns}
        records={activities.data?.items}
        fetching={activities.isPending || activities.isPlaceholderData}
        paging={false}
        noRecordsText="No activities found"
      />
      <Group justify="flex-end" gap="sm">
        <Button
          variant="default"
          leftSection={<IconChevronLeft size={16} />}
          disabled={!hasPreviousPage(position)}
          onClick={() => setPosition(previousPage)}
        >
          Previous
        </Button>
        <Button
          variant="default"
          rightSection={<IconChevronRight size={16} />}
          disabled={!next}
          onClick={() => next && setPosition((current) => nextPage(current, next))}
        >
          Next
        </Button>
      </Group>
    </Stack>
  );
}
