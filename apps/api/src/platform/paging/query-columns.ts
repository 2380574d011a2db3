import { Column, is, sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { FilterableField, QueryFieldMap, SortableField } from '@ledgerline/contract';

/** Where a whitelisted field lives in SQL: a table column or an expression such as a join's column. */
export type QueryColumn = AnyColumn | SQL;

/** One column for every field the client may filter or sort on; the compiler refuses gaps. */
export type QueryColumns<F extends QueryFieldMap> = {
  readonly [K in FilterableField<F> | SortableField<F>]: QueryColumn;
};

export function columnOf(
  columns: Readonly<Record<string, QueryColumn>>,
  field: string,
): QueryColumn {
  const column = columns[field];
  // A programming error in a repository, not a client mistake: fail loudly.
  if (column === undefined) throw new Error(`No column is mapped for query field '${field}'.`);
  return asTerm(column);
}

/** Parenthesises an expression so the operators placed around it cannot regroup it. */
export function asTerm(column: QueryColumn): QueryColumn {
  return is(column, Column) ? column : sql`(${column})`;
}
