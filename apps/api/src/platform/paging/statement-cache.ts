import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Count, PageQuery, QueryFieldMap } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { compileFilters, compileSearch, type Bind } from './compile-filter.js';
import { compilePageQuery } from './compile-page-query.js';
import { pageTotal } from './count.js';
import type { QueryColumn, QueryColumns } from './query-columns.js';

/** What drizzle keeps of a built SELECT: its text, its parameters (placeholders) and its mapping. */
interface BuiltSelect {
  queryString: string;
  params: unknown[];
  fields: unknown;
  joinsNotNullableMap: unknown;
}

interface DrizzlePrepared extends BuiltSelect {
  execute(values: Record<string, unknown>): Promise<unknown[]>;
}

/** A select builder; its prepared query's fields are drizzle-orm 0.45's (NodePgPreparedQuery). */
interface PreparableSelect {
  prepare(name: string): unknown;
}

interface Session {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: undefined,
    isResponseInArrayMode: boolean,
  ): DrizzlePrepared;
}

/** Named placeholders for a statement's values, and the values themselves. */
export class StatementValues {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  /** A value of this call (a filter's, a limit) as a placeholder of the shared statement. */
  readonly bind: Bind = <T>(value: T) => {
    const name = `v${this.next++}`;
    this.values[name] = value;
    return sql.placeholder(name);
  };

  /** The same for a value the caller names (the scope, the limit). */
  named(name: string, value: unknown): Placeholder {
    this.values[name] = value;
    return sql.placeholder(name);
  }
}

/**
 * A list page's SELECT built once per shape (docs/decisions/014-a-list-s-sql-is-built-once-per-shape.md "A list's SQL is built once per
 * shape"): drizzle spends longer turning a query into SQL text than the database spends reading a
 * page, and the text depends only on the filters' fields and operators, the sort and the expansion,
 * never on the values, which travel as placeholders. `shape` must name everything that changes the
 * text; the values go through StatementValues. At most `size` shapes are kept, the oldest dropped.
 */
export function createStatementCache(size = 500) {
  const built = new Map<string, BuiltSelect>();
  return {
    async select<T>(
      executor: Executor,
      shape: string,
      build: () => PreparableSelect,
      values: StatementValues,
    ): Promise<T[]> {
      let statement = built.get(shape);
      if (!statement) {
        // Unnamed: the connection names its statements itself (db/scoped-read.ts).
        const prepared = build().prepare(undefined as unknown as string) as DrizzlePrepared;
        statement = {
          queryString: prepared.queryString,
          params: prepared.params,
          fields: prepared.fields,
          joinsNotNullableMap: prepared.joinsNotNullableMap,
        };
        if (built.size >= size) built.delete(built.keys().next().value!);
        built.set(shape, statement);
      }
      const { session } = executor as unknown as { session: Session };
      const query = session.prepareQuery(
        { sql: statement.queryString, params: statement.params },
        statement.fields,
        undefined,
        true,
      );
      query.joinsNotNullableMap = statement.joinsNotNullableMap;
      return (await query.execute(values.values)) as T[];
    },
  };
}

/**
 * The part of a page query that shapes its SQL text: the sort, each filter's field, type and
 * operator (a whole-day date compares differently from a date-time), and the expansions.
 */
export function pageShape(
  query: Pick<PageQuery<QueryFieldMap, string>, 'sort' | 'filters' | 'search'> & {
    expand?: readonly string[];
  },
): string {
  // The search's text is a value; which arms it has (the amount's or not) shapes the SQL.
  const search = query.search ? `${query.search.amount ? 'search+amount' : 'search'}` : '';
  const sort = query.sort.map(({ field, direction }) => `${field} ${direction}`).join(',');
  const filters = query.filters
    .map(
      (f) => `${f.field} ${f.type} ${f.operator}${f.type === 'date' && f.wholeDay ? ' day' : ''}`,
    )
    .join(',');
  return `${sort}|${filters}|${(query.expand ?? []).join(',')}|${search}`;
}

export type StatementCache = ReturnType<typeof createStatementCache>;

/** A company's table: every list reads one company of one tenant. */
type CompanyTable = PgTable & { tenantId: AnyPgColumn; datasetId: AnyPgColumn };

/** What a page's statement is made of, placeholders for its values. */
export interface PageParts {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: Placeholder;
  offset: Placeholder;
}

export interface PageRead<F extends QueryFieldMap> {
  table: CompanyTable;
  scope: { tenantId: string; datasetId: number };
  query: PageQuery<F, string>;
  columns: QueryColumns<F>;
  tieBreaker: QueryColumn;
  /** A condition beyond the company and the filters (all-failures); `name` joins the shape. */
  only?: { name: string; where: SQL };
  /**
   * The filters and the search as SQL, values through `bind`; by default compileFilters and
   * compileSearch over `columns`.
   */
  filter?: (bind: Bind) => SQL | undefined;
  /** The statement when a page is more than the table's rows (a join around the page). */
  select?: (page: PageParts) => PreparableSelect;
}

/**
 * One page of a company's list through the statement cache, and its total (capped, estimated or
 * from the page itself: count.ts). The company, the filters' values, the limit and the offset are
 * placeholders of the kept statement; the count, when one is needed, is built with the values
 * themselves and remembered under the list's shape and values.
 */
export async function readPage<Row, F extends QueryFieldMap>(
  executor: Executor,
  statements: StatementCache,
  read: PageRead<F>,
): Promise<{ rows: Row[]; total: Count }> {
  const { table, scope, query, columns, tieBreaker, only } = read;
  const order = compilePageQuery({ ...query, filters: [] }, { columns, tieBreaker });
  const condition = (bind: Bind) =>
    and(
      // A prepared statement: the company is a bound placeholder, which inDataset does not write.
      // eslint-disable-next-line no-restricted-syntax
      eq(table.tenantId, bind(scope.tenantId)),
      // eslint-disable-next-line no-restricted-syntax
      eq(table.datasetId, bind(scope.datasetId)),
      only?.where,
      read.filter
        ? read.filter(bind)
        : and(
            compileFilters(query.filters, columns, bind),
            compileSearch(query.search, columns, bind),
          ),
    );
  const values = new StatementValues();
  const where = condition(values.bind);
  // The list's identity for what its count learns: the condition's values, not the page's.
  const listKey = `${only?.name ?? ''}|${pageShape({ ...query, expand: [] })}\u0000${JSON.stringify(values.values)}`;
  const limit = values.named('limit', order.limit);
  const offset = values.named('offset', order.offset);
  const parts: PageParts = { where, orderBy: order.orderBy, limit, offset };
  const plain = () =>
    executor
      .select()
      .from(table)
      .where(where)
      .orderBy(...order.orderBy)
      .limit(limit)
      .offset(offset);
  const rows = await statements.select<Row>(
    executor,
    `${only?.name ?? ''}|${pageShape(query)}`,
    read.select ? () => read.select!(parts) : plain,
    values,
  );
  const total = await pageTotal(executor, table, () => condition((value) => value), {
    offset: order.offset,
    limit: order.limit,
    rows: rows.length,
    wholeList: query.filters.length === 0 && !query.search,
    listKey,
  });
  return { rows, total };
}
