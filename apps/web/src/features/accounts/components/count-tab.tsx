import type { Count } from '@ledgerline/contract';
import { Badge, Tabs } from '@mantine/core';

/** A tab with the count badge of spec 2 §2 ('about' when the server estimated it). */
export function CountTab({
  value,
  label,
  count,
}: {
  value: string;
  label: string;
  count: Count | undefined;
}) {
  return (
    <Tabs.Tab
      value={value}
      rightSection={
        count ? (
          <Badge
            size="sm"
            variant="light"
            aria-label={`${count.estimated ? 'about ' : ''}${count.count} ${label.toLowerCase()}`}
          >
            {count.estimated ? '~' : ''}
            {count.count.toLocaleString('en-GB')}
          </Badge>
        ) : null
      }
    >
      {label}
    </Tabs.Tab>
  );
}
