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
  filterItemsMax: 20,
  sortFieldsMax: 5,
  filterValueMax: 500,
  /** 20 items of a 500-character value plus field, operator and escapes. */
  filterTextMax: 12_000,
  sortTextMax: 500,
  expandTextMax: 500,
  cursorTextMax: 4_000,
} as const;
