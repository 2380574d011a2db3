import { limits } from '../limits.js';

/**
 * Bounds on query input (style.md §6: bound every input). Raw lengths are checked before any
 * splitting so a hostile query string costs little.
 */
export const queryLimits = {
  itemsPerPageDefault: limits.itemsPerPageDefault,
  itemsPerPageMax: limits.itemsPerPageMax,
  /** Keeps OFFSET inside a safe integer; far past any real list. */
  pageMax: 1_000_000,
  /**
   * Offset paging reaches the first 10,000 rows of any order (page 1,000 at 10 a page): OFFSET
   * reads and discards every row before the page, so deeper pages would cost without bound.
   * Past them a filter or the other sort direction reaches the rest (docs/decisions/011-deep-pages-stop-at-row-10-000.md).
   */
  offsetMax: 10_000,
  filterItemsMax: 20,
  sortFieldsMax: 5,
  filterValueMax: 500,
  /** 20 items of a 500-character value plus field, operator and escapes. */
  filterTextMax: 12_000,
  sortTextMax: 500,
  expandTextMax: 500,
  cursorTextMax: 4_000,
  /** The search box: a reference, a name or an amount, never a paragraph. */
  searchTextMax: 100,
} as const;

/** The last page offset paging reaches at this page size (its first row within `offsetMax`). */
export function lastReachablePage(itemsPerPage: number): number {
  return Math.ceil(queryLimits.offsetMax / itemsPerPage);
}
