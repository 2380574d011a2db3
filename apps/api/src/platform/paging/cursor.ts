import { and, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { QueryError, formatSort, previewQueryItem, queryMessages } from '@ledgerline/contract';
import type { CursorPage, CursorQuery, QueryFieldMap, QuerySort } from '@ledgerline/contract';
import { compileFilters, compileSearch } from './compile-filter.js';
import { compileOrderBy } from './compile-sort.js';
import type { QuerySqlOptions } from './compile-page-query.js';
import { asTerm, columnOf } from './query-columns.js';
import type { QueryColumn } from './query-columns.js';

/*
 * Keyset (cursor) paging, design §3 and §6: the cursor is base64url JSON of the last row's sort
 * values followed by its tie-breaker (id), plus the sort it was made for, so a cursor is never
 * applied to a different order. The values must compare exactly as stored: a Date carries only
 * milliseconds, so sort timestamps used with cursors should be timestamptz(3); and sort columns
 * must be NOT NULL, since a row comparison with NULL is never true.
 */

export type CursorValue = string | number | boolean;
type CursorPayload = { s: string; k: CursorValue[] };

/** Makes the `next` cursor from a row's key: its sort values in order, then the tie-breaker. */
export function encodeCursor(
  sort: readonly QuerySort[],
  key: readonly (CursorValue | Date)[],
): string {
  if (key.some((value) => value === null || value === undefined)) {
    throw new Error('A cursor key cannot hold NULL; keyset sort columns must be NOT NULL.');
  }
  const payload: CursorPayload = {
    s: formatSort(sort),
    k: key.map((value) => (value instanceof Date ? value.toISOString() : value)),
  };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** Reads a cursor back; anything we did not make for this sort is a QueryError on `cursor`. */
export function decodeCursor(cursor: string, sort: readonly QuerySort[]): CursorValue[] {
  const payload = parsePayload(cursor);
  const key = payload?.s === formatSort(sort) ? payload.k : undefined;
  if (!Array.isArray(key) || key.length !== sort.length + 1 || !key.every(isCursorValue)) {
    throw new QueryError({
      parameter: 'cursor',
      item: previewQueryItem(cursor),
      message: queryMessages.cursor,
    });
  }
  return key;
}

function parsePayload(cursor: string): Partial<CursorPayload> | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null
      ? (payload as Partial<CursorPayload>)
      : undefined;
  } catch {
    return undefined;
  }
}

function isCursorValue(value: unknown): value is CursorValue {
  return typeof value === 'string' || typeof value === 'boolean' || Number.isFinite(value);
}

/**
 * Rows strictly after `key` in the order of compileOrderBy. With one direction throughout this
 * is a single row comparison, `(sortcol, id) < ($1, $2)` for descending, which an index on
 * (sortcol, id) serves directly; mixed directions expand into the equivalent OR of prefixes.
 */
export function keysetPredicate(
  sort: readonly QuerySort[],
  columns: Readonly<Record<string, QueryColumn>>,
  tieBreaker: QueryColumn,
  key: readonly CursorValue[],
): SQL {
  const lastDirection = sort.at(-1)?.direction ?? 'asc';
  const terms = [
    ...sort.map(({ field, direction }) => ({ column: columnOf(columns, field), direction })),
    { column: asTerm(tieBreaker), direction: lastDirection },
  ];
  if (key.length !== terms.length) {
    throw new Error('A keyset needs one value per sort term plus the tie-breaker.');
  }
  const values = key.map((value) => sql`${value}`);
  if (terms.every((term) => term.direction === lastDirection)) {
    const left = sql.join(
      terms.map((term) => sql`${term.column}`),
      sql`, `,
    );
    const right = sql.join(values, sql`, `);
    return lastDirection === 'desc' ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`;
  }
  const prefixes = terms.map(({ column, direction }, index) => {
    const value = values[index];
    const equalBefore = terms
      .slice(0, index)
      .map((term, before) => sql`${term.column} = ${values[before]}`);
    const beyond = direction === 'desc' ? sql`${column} < ${value}` : sql`${column} > ${value}`;
    return and(...equalBefore, beyond);
  });
  return sql`(${or(...prefixes)})`;
}

export interface CompiledCursorQuery {
  where: SQL | undefined;
  orderBy: SQL[];
  /** One more than a page, so toCursorPage can tell whether there is a next page. */
  limit: number;
}

export function compileCursorQuery<F extends QueryFieldMap>(
  query: CursorQuery<F>,
  { columns, tieBreaker }: QuerySqlOptions<F>,
): CompiledCursorQuery {
  const columnMap = columns as Readonly<Record<string, QueryColumn>>;
  const after =
    query.cursor === undefined
      ? undefined
      : keysetPredicate(query.sort, columnMap, tieBreaker, decodeCursor(query.cursor, query.sort));
  return {
    where: and(compileFilters(query.filters, columns), compileSearch(query.search, columns), after),
    orderBy: compileOrderBy(query.sort, columns, tieBreaker),
    limit: query.itemsPerPage + 1,
  };
}

/** Cuts the extra row off and makes `next` from the last row kept (design §3 `{ items, next }`). */
export function toCursorPage<T>(
  rows: readonly T[],
  query: Pick<CursorQuery, 'itemsPerPage' | 'sort'>,
  keyOf: (row: T) => readonly (CursorValue | Date)[],
): CursorPage<T> {
  const items = rows.slice(0, query.itemsPerPage);
  const last = items.at(-1);
  const next =
    rows.length > query.itemsPerPage && last !== undefined
      ? encodeCursor(query.sort, keyOf(last))
      : null;
  return { items, next };
}
