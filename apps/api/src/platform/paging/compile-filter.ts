import { and, or, sql, type Placeholder } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { utcDayAfter } from '@ledgerline/contract';
import type {
  QueryFieldMap,
  NumberOperator,
  QueryFilter,
  QuerySearch,
  StringOperator,
} from '@ledgerline/contract';
import { columnOf } from './query-columns.js';
import type { QueryColumn, QueryColumns } from './query-columns.js';

/*
 * Every value reaches SQL as a bound parameter through the `sql` tag; only our own fixed operator
 * text is ever spliced in. Negations (`neq`, `nct`) also match NULL, as a person reading
 * "status is not Paid" expects a record without a status to appear.
 */

/**
 * What a filter's value becomes in its SQL: itself (a bound parameter) by default, or a named
 * placeholder when the statement is built once for every query of its shape (statement-cache.ts).
 */
export type Bind = <T>(value: T) => T | Placeholder;
const asParameter: Bind = (value) => value;

/**
 * All filters joined with AND; undefined when there are none. Several `eq` items on one enum field
 * are alternatives (a status multi-select: Failed or Rejected), since a row
 * cannot hold two statuses at once; they are ORed in one term where the first of them stood.
 */
export function compileFilters<F extends QueryFieldMap>(
  filters: readonly QueryFilter[],
  columns: QueryColumns<F>,
  bind: Bind = asParameter,
): SQL | undefined {
  const columnMap = columns as Readonly<Record<string, QueryColumn>>;
  const isChoice = (filter: QueryFilter) => filter.type === 'enum' && filter.operator === 'eq';
  const choices = new Map<string, QueryFilter[]>();
  for (const filter of filters.filter(isChoice)) {
    choices.set(filter.field, [...(choices.get(filter.field) ?? []), filter]);
  }
  const terms: (SQL | undefined)[] = [];
  for (const filter of filters) {
    const column = columnOf(columnMap, filter.field);
    const alternatives = isChoice(filter) ? choices.get(filter.field)! : [filter];
    if (alternatives.length === 1) terms.push(compileFilter(filter, column, bind));
    else if (alternatives[0] === filter)
      terms.push(or(...alternatives.map((choice) => compileFilter(choice, column, bind))));
  }
  return and(...terms);
}

/**
 * The search box: the words in any search field (ILIKE contains, which the
 * trigram indexes serve, docs/decisions/010-contains-filters-read-the-trigram-index.md "Contains filters read the trigram index"), or the
 * amount equal to them when they read as one. `overrides` replaces a field's whole term (a field
 * that lives in another table, such as a transaction's account name).
 */
export function compileSearch<F extends QueryFieldMap>(
  search: QuerySearch | undefined,
  columns: QueryColumns<F>,
  bind: Bind = asParameter,
  overrides: Readonly<Record<string, (pattern: SQL) => SQL>> = {},
): SQL | undefined {
  if (!search) return undefined;
  const columnMap = columns as Readonly<Record<string, QueryColumn>>;
  const pattern = sql`('%' || ${bind(escapeLikePattern(search.text))}::text || '%')`;
  const terms = search.fields.map((field) => {
    const override = overrides[field];
    if (override) return override(pattern);
    return sql`${columnOf(columnMap, field)} ilike ${pattern} escape '\\'`;
  });
  if (search.amount) {
    terms.push(
      sql`${columnOf(columnMap, search.amount.field)} = ${bind(search.amount.value)}::numeric`,
    );
  }
  return or(...terms);
}

export function compileFilter(
  filter: QueryFilter,
  column: QueryColumn,
  bind: Bind = asParameter,
): SQL {
  switch (filter.type) {
    case 'string':
      return compileString(filter.operator, filter.value, column, bind);
    case 'number':
      return compareWith(filter.operator, column, sql`${bind(filter.value)}::numeric`);
    case 'date':
      return filter.wholeDay
        ? compileWholeDay(filter.operator, filter.value, column, bind)
        : compareWith(
            filter.operator,
            column,
            sql`${bind(filter.value.toISOString())}::timestamptz`,
          );
    case 'day':
      return compareWith(filter.operator, column, sql`${bind(filter.value)}::date`);
    case 'enum':
    case 'uuid':
    case 'boolean':
      // No cast: PostgreSQL types the parameter from the column (a pgEnum, uuid, text or boolean).
      return compareWith(filter.operator, column, sql`${bind(filter.value)}`);
  }
}

/** `%`, `_` and the escape character itself are literal in the client's value. */
export function escapeLikePattern(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function compileString(
  operator: StringOperator,
  value: string,
  column: QueryColumn,
  bind: Bind,
): SQL {
  const text = sql`${bind(value)}::text`;
  const pattern = sql`${bind(escapeLikePattern(value))}::text`;
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
function compileWholeDay(
  operator: ComparisonOperator,
  day: Date,
  column: QueryColumn,
  bind: Bind,
): SQL {
  const start = sql`${bind(day.toISOString())}::timestamptz`;
  const end = sql`${bind(utcDayAfter(day).toISOString())}::timestamptz`;
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
