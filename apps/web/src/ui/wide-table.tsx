import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './data-grid.module.css';

/**
 * A table wider than the screen scrolls sideways inside its own box instead of widening the page
 * (allocation and document tables made a phone's page 540–636 px wide). No
 * minimum width unless given: the table is as narrow as its content allows.
 */
export function WideTable({
  children,
  minWidth = 0,
  label = 'Table',
}: {
  children: ReactNode;
  minWidth?: number;
  /** What the table is, for the scroll box's name (axe scrollable-region-focusable). */
  label?: string;
}) {
  return (
    // Its badges (a DEFAULT, a status) read whole, as in the grids (data-grid.module.css). The box
    // takes a tab stop, so a keyboard can scroll it.
    <Table.ScrollContainer
      minWidth={minWidth}
      type="native"
      className={classes.grid}
      tabIndex={0}
      role="region"
      aria-label={`${label}, scrollable`}
    >
      {children}
    </Table.ScrollContainer>
  );
}
