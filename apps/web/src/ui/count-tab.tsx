import type { Count } from '@ledgerline/contract';
import { Badge, Tabs } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A tab with the count badge of spec 2 §2, the one way every tab that holds a list shows how many:
 * a light badge after the label, named for screen readers ('3 documents'),
 * 'about' and '~' when the server estimated it, nothing while the count is not known yet.
 */
export function CountTab({
  value,
  label,
  count,
  attention = false,
  noun = label.toLowerCase(),
  leftSection,
}: {
  value: string;
  label: string;
  count: Count | number | undefined;
  /** Something in the list needs a look (an open dispute): the badge turns orange. */
  attention?: boolean;
  /** What the badge counts, for its name ('3 activities'); the label in lower case by default. */
  noun?: string;
  leftSection?: ReactNode;
}) {
  const known = typeof count === 'number' ? { count, estimated: false } : count;
  return (
    <Tabs.Tab
      value={value}
      leftSection={leftSection}
      rightSection={
        known ? (
          <Badge
            size="sm"
            variant="light"
            color={attention ? 'orange' : undefined}
            aria-label={`${known.estimated ? 'about ' : ''}${known.count} ${noun}`}
          >
            {known.estimated ? '~' : ''}
            {known.count.toLocaleString('en-GB')}
          </Badge>
        ) : null
      }
    >
      {label}
    </Tabs.Tab>
  );
}
