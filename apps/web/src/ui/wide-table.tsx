import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './data-grid.module.css';

/**
 * A table wider than the screen scrolls sideways inside its own box instead of widening the page
 * (issue 22 item 1: allocation and document tables made a phone's page 540–636 px wide). No
 * minimum width unless given: the table is as narrow as its content allows.
 */
export function WideTable({ children, minWidth = 0 }: { children: ReactNode; minWidth?: number }) {
  return (
    // Its badges (a DEFAULT, a status) read whole, as in the grids (data-grid.module.css).
    <Table.ScrollContainer minWidth={minWidth} type="native" className={classes.grid}>
      {children}
    </Table.ScrollContainer>
  );
}
