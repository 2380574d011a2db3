import { escapeFilterValue } from './filter-escape.js';
import type { FilterOperator } from './filter-operators.js';
import type { QuerySort } from './query-types.js';

/** What the site has to build one filter item; a parsed QueryFilter also fits. */
export interface FilterItemInput {
  field: string;
  operator: FilterOperator;
  value: string | number | boolean | Date;
  /** For a Date: send only its UTC day, meaning the whole day. */
  wholeDay?: boolean;
}

/**
 * Writes one `field operator value` item, escaping commas and backslashes in the value. The
 * server trims values, so leading and trailing spaces do not survive the trip.
 */
export function formatFilterItem({ field, operator, value, wholeDay }: FilterItemInput): string {
  return `${field} ${operator} ${escapeFilterValue(valueText(value, wholeDay))}`;
}

/** Writes the `filter` parameter. */
export function formatFilter(items: readonly FilterItemInput[]): string {
  return items.map(formatFilterItem).join(',');
}

/** Writes the `sort` parameter. */
export function formatSort(sort: readonly QuerySort[]): string {
  return sort.map(({ field, direction }) => (direction === 'desc' ? `-${field}` : field)).join(',');
}

function valueText(value: FilterItemInput['value'], wholeDay: boolean | undefined): string {
  if (!(value instanceof Date)) return String(value);
  const iso = value.toISOString();
  return wholeDay ? iso.slice(0, 10) : iso;
}
