import type { Count } from '@ledgerline/contract';
import { Badge, Tabs } from '@mantine/core';

/**
 * A tab with the count badge of spec 2 §2, the one way every tab that holds a list shows how many
 * (issue 22 item 13): a light badge after the label, named for screen readers ('3 documents'),
 * 'about' and '~' when the server estimated it, nothing while the count is not known yet.
 */
export function CountTab({
  value,
  label,
  count,
  attention = false,
}: {
  value: string;
  label: string;
  count: Count | number | undefined;
  /** Something in the list needs a look (an open dispute): the badge turns orange. */
  attention?: boolean;
}) {
  const known = typeof count === 'number' ? { count, estimated: false } : count;
  return (
    <Tabs.Tab
      value={value}
      rightSection={
        known ? (
          <Badge
            size="sm"
            variant="light"
            color={attention ? 'orange' : undefined}
            aria-label={`${known.estimated ? 'about ' : ''}${known.count} ${label.toLowerCase()}`}
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
