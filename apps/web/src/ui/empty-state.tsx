import { Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * What every list, tab and panel shows when it has nothing to show (one
 * empty-state style): the same quiet icon above the message, centred, and an action when there is
 * a next step. Grids use it too (DataGrid's noRecordsText), on desktop and as cards.
 */
export function EmptyState({ message, action }: { message: ReactNode; action?: ReactNode }) {
  return (
    <Stack align="center" gap={6} py="lg" px="md" data-empty-state>
      <IconInbox size={28} stroke={1.5} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text c="dimmed" ta="center" size="sm">
        {message}
      </Text>
      {action}
    </Stack>
  );
}
