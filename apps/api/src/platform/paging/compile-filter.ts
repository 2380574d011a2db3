import { and, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { utcDayAfter } from '@ledgerline/contract';
import type {
  QueryFieldMap,
  NumberOperator,
  QueryFilter,
  StringOperator,
} from '@ledgerline/contract';
import { columnOf } from './query-columns.js';
import type { QueryColumn, QueryColumns } from './query-columns.js';

/*
 * Every value reaches SQL as a bound parameter through the `sql` tag; only our own fixed operator
 * text is ever spliced in. Negations (`neq`, `nct`) also match NULL, as a person reading
 * "status is not Paid" expects a record without a status to appear.
 */

/** All filters joined with AND; undefined when there are none. */
export function compileFilters<F extends QueryFieldMap>(
  filters: readonly QueryFilter[],
  columns: QueryColumns<F>,
): SQL | undefined {
  const columnMap = columns as Readonly<Record<string, QueryColumn>>;
  return and(...filters.map((filter) => compileFilter(filter, columnOf(columnMap, filter.field))));
}

export function compileFilter(filter: QueryFilter, column: QueryColumn): SQL {
  switch (filter.type) {
    case 'string':
      return compileString(filter.operator, filter.value, column);
    case 'number':
      return compareWith(filter.operator, column, sql`${filter.value}::numeric`);
    case 'date':
      return filter.wholeDay
        ? compileWholeDay(filter.operator, filter.value, column)
        : compareWith(filter.operator, column, sql`${filter.value.toISOString()}::timestamptz`);
    case 'enum':
    case 'uuid':
    case 'boolean':
      // No cast: PostgreSQL types the parameter from the column (a pgEnum, uuid, text or boolean).
      return compareWith(filter.operator, column, sql`${filter.value}`);
  }
}

/** `%`, `_` and the escape character itself are literal in the client's value. */
export function escapeLikePattern(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function compileString(operator: StringOperator, value: string, column: QueryColumn): SQL {
  const text = sql`${value}::text`;
  const pattern = sql`${escapeLikePattern(value)}::text`;
  switch (operator) {
    case 'eq':
      return sql`lower(${column}) = lower(${text})`;
    case 'neq':
      return sql`lower(${column}) is distinct from lower(${text})`;
    case 'ct':
      return sql`${column} ilike ('%' || ${pattern} || '%') escape '\\'`;
    case 'nct':
      return sql`(${column} is null or ${column} not ilike ('%' || ${pattern} || '%') escape '\\')`;
    case 'sw':
      return sql`${column} ilike (${pattern} || '%') escape '\\'`;
    case 'ew':
      return sql`${column} ilike ('%' || ${pattern}) escape '\\'`;
  }
}

// Numbers and dates share one operator set (spec 2 §7).
type ComparisonOperator = NumberOperator;

function compareWith(operator: ComparisonOperator, column: QueryColumn, value: SQL): SQL {
  switch (operator) {
    case 'eq':
      return sql`${column} = ${value}`;
    case 'neq':
      return sql`${column} is distinct from ${value}`;
    case 'gt':
      return sql`${column} > ${value}`;
    case 'ge':
      return sql`${column} >= ${value}`;
    case 'lt':
      return sql`${column} < ${value}`;
    case 'le':
      return sql`${column} <= ${value}`;
  }
}

/** A date without a time means the whole UTC day [start, next midnight) (our reading of spec 2 §7). */
function compileWholeDay(operator: ComparisonOperator, day: Date, column: QueryColumn): SQL {
  const start = sql`${day.toISOString()}::timestamptz`;
  const end = sql`${utcDayAfter(day).toISOString()}::timestamptz`;
  switch (operator) {
    case 'eq':
      return sql`(${column} >= ${start} and ${column} < ${end})`;
    case 'neq':
      return sql`(${column} is null or ${column} < ${start} or ${column} >= ${end})`;
    case 'gt':
      return sql`${column} >= ${end}`;
    case 'ge':
      return sql`${column} >= ${start}`;
    case 'lt':
      return sql`${column} < ${start}`;
    case 'le':
      return sql`${column} < ${end}`;
  }
}
