import { findQueryField } from './query-fields.js';
import { QueryError, previewQueryItem } from './query-error.js';
import { queryLimits } from './query-limits.js';
import type { QueryFieldMap, QueryFields, QuerySort, SortableField } from './query-types.js';

/**
 * Parses the `sort` parameter: a comma list of field names, `-` in front for descending
 * (spec 1 §7). Names match case-insensitively (the site sends `-StatusDateTime`). No sort, or
 * only empty items, gives the resource's default sort.
 */
export function parseSort<F extends QueryFieldMap>(
  query: QueryFields<F, string>,
  text: string | undefined,
): QuerySort<SortableField<F>>[] {
  const fail = (item: string, message: string) =>
    new QueryError({ parameter: 'sort', item: previewQueryItem(item), message });
  if (text !== undefined && text.length > queryLimits.sortTextMax) {
    throw fail(text, `The sort is longer than ${queryLimits.sortTextMax} characters.`);
  }
  const items = (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) return query.defaultSort.map((sort) => ({ ...sort }));
  if (items.length > queryLimits.sortFieldsMax) {
    throw fail(
      text ?? '',
      `At most ${queryLimits.sortFieldsMax} sort fields are allowed; the sort has ${items.length}.`,
    );
  }

  const sort: QuerySort[] = [];
  for (const item of items) {
    const descending = item.startsWith('-');
    const name = descending ? item.slice(1) : item;
    const field = findQueryField(query.fields, name);
    if (field === undefined) throw fail(item, `Unknown sort field '${previewQueryItem(name)}'.`);
    if (!query.fields[field]?.sortable) throw fail(item, `Field '${field}' cannot be sorted.`);
    if (sort.some((earlier) => earlier.field === field)) {
      throw fail(item, `Sort field '${field}' appears more than once.`);
    }
    sort.push({ field, direction: descending ? 'desc' : 'asc' });
  }
  return sort as QuerySort<SortableField<F>>[];
}
