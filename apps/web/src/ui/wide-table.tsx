import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table wider than the screen scrolls sideways inside its own box instead of widening the page
 * (issue 22 item 1: allocation and document tables made a phone's page 540–636 px wide).
 */
export function WideTable({ children, minWidth = 480 }: { children: ReactNode; minWidth?: number }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      {children}
    </Table.ScrollContainer>
  );
}
