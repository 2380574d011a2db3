import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { QueryFieldMap, QuerySort } from '@ledgerline/contract';
import { asTerm, columnOf } from './query-columns.js';
import type { QueryColumn, QueryColumns } from './query-columns.js';

/**
 * ORDER BY terms for a parsed sort. The unique tie-breaker (usually the id) always comes last so
 * rows with equal sort values keep one order from page to page. It follows the last term's
 * direction, which lets keyset paging compare one row value.
 */
export function compileOrderBy<F extends QueryFieldMap>(
  sort: readonly QuerySort[],
  columns: QueryColumns<F>,
  tieBreaker: QueryColumn,
): SQL[] {
  const columnMap = columns as Readonly<Record<string, QueryColumn>>;
  const terms = sort.map(({ field, direction }) =>
    orderTerm(columnOf(columnMap, field), direction),
  );
  return [...terms, orderTerm(asTerm(tieBreaker), sort.at(-1)?.direction ?? 'asc')];
}

function orderTerm(column: QueryColumn, direction: QuerySort['direction']): SQL {
  return direction === 'desc' ? sql`${column} desc` : sql`${column} asc`;
}
