import { Button, Group, Stack } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { DataGrid } from '@/ui/data-grid';
import { useGridState } from '@/ui/use-grid-state';
import { useAuditLogs, type ActivityScope } from '../api/get-audit-logs';
import { useActivityColumns } from '../table/use-activity-columns';
import { firstPage, hasPreviousPage, nextPage, previousPage } from '../utils/cursor-stack';

/** spec 3 §2: 15 activities a page, newest first, with Previous and Next. */
export function ActivityGrid({ scope, label }: { scope: ActivityScope; label: string }) {
  const [position, setPosition] = useState(firstPage);
  const activities = useAuditLogs(scope, position.cursor);
  const columns = useActivityColumns();
  // The order is the server's (newest first): no sort, filters or paging state to keep.
  const grid = useGridState();
  const next = activities.isPlaceholderData ? null : activities.data?.next;

  return (
    <Stack gap="sm">
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
