import { filterEscapeRule, splitFilterItems, unescapeFilterValue } from './filter-escape.js';
import {
  filterOperators,
  filterOperatorsByType,
  isFilterOperator,
  isOperatorAllowed,
} from './filter-operators.js';
import { convertFilterValue } from './filter-values.js';
import { findQueryField } from './query-fields.js';
import { QueryError, previewQueryItem } from './query-error.js';
import { queryLimits } from './query-limits.js';
import type { FilterableField, QueryFieldMap, QueryFields, QueryFilter } from './query-types.js';

// field, operator, then everything else as the value (values may contain spaces, spec 2 §7).
// \S and \s cannot overlap, so a failed match cannot backtrack badly.
const itemPattern = /^(\S+)\s+(\S+)(?:\s+([\s\S]*))?$/;

/**
 * Parses the `filter` parameter: comma-separated `field operator value` items, all of which must
 * hold (AND). Items that are empty after trimming are skipped (spec 2 §7: empty operators produce
 * no filter). Throws QueryError naming the first bad item.
 */
export function parseFilter<F extends QueryFieldMap>(
  query: QueryFields<F, string>,
  text: string | undefined,
): QueryFilter<FilterableField<F>>[] {
  if (text === undefined) return [];
  if (text.length > queryLimits.filterTextMax) {
    throw new QueryError({
      parameter: 'filter',
      item: previewQueryItem(text),
      message: `The filter is longer than ${queryLimits.filterTextMax} characters.`,
    });
  }
  const items = splitFilterItems(text)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length > queryLimits.filterItemsMax) {
    throw new QueryError({
      parameter: 'filter',
      item: previewQueryItem(text),
      message: `At most ${queryLimits.filterItemsMax} filter items are allowed; the filter has ${items.length}.`,
    });
  }
  return items.map(
    (item) => parseFilterItem(query.fields, item) as QueryFilter<FilterableField<F>>,
  );
}

function parseFilterItem(fields: QueryFieldMap, item: string): QueryFilter {
  const fail = (message: string) =>
    new QueryError({ parameter: 'filter', item: previewQueryItem(item), message });
  const quoted = `'${previewQueryItem(item)}'`;
  const match = itemPattern.exec(item);
  if (!match) throw fail(`Filter item ${quoted} must be written as 'field operator value'.`);
  const [, name = '', operatorText = '', rawValue = ''] = match;

  const field = findQueryField(fields, name);
  const spec = field === undefined ? undefined : fields[field];
  if (field === undefined || spec === undefined) {
    throw fail(`Unknown filter field '${previewQueryItem(name)}' in ${quoted}.`);
  }
  if (!spec.filterable) throw fail(`Field '${field}' cannot be filtered (in ${quoted}).`);

  const operator = operatorText.toLowerCase();
  if (!isFilterOperator(operator)) {
    throw fail(
      `Unknown operator '${previewQueryItem(operatorText)}' in ${quoted}. Operators are ${filterOperators.join(', ')}.`,
    );
  }
  if (!isOperatorAllowed(spec.type, operator)) {
    throw fail(
      `Operator '${operator}' is not allowed for ${spec.type} field '${field}'. ` +
        `Use one of ${filterOperatorsByType[spec.type].join(', ')}.`,
    );
  }

  const escaped = rawValue.trim();
  if (escaped === '') throw fail(`Filter item ${quoted} has no value.`);
  const value = unescapeFilterValue(escaped);
  if (value === undefined) throw fail(`Invalid backslash in ${quoted}: ${filterEscapeRule}.`);
  if (value.length > queryLimits.filterValueMax) {
    throw fail(`The value in ${quoted} is longer than ${queryLimits.filterValueMax} characters.`);
  }

  const converted = convertFilterValue(field, spec, value, previewQueryItem(item));
  // The operator was checked against spec.type above, so the pairing below is sound.
  return { field, type: spec.type, operator, ...converted } as QueryFilter;
}
