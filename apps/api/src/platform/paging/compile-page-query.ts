import { and, type SQL } from 'drizzle-orm';
import type { PageQuery, QueryFieldMap } from '@ledgerline/contract';
import { compileFilters, compileSearch } from './compile-filter.js';
import { compileOrderBy } from './compile-sort.js';
import type { QueryColumn, QueryColumns } from './query-columns.js';

export interface QuerySqlOptions<F extends QueryFieldMap> {
  columns: QueryColumns<F>;
  /** A unique column (the id) that makes the order total. */
  tieBreaker: QueryColumn;
}

export interface CompiledPageQuery {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

/**
 * Turns a parsed offset-paging query into the pieces of a drizzle select:
 * `db.select().from(t).where(and(scope, where)).orderBy(...orderBy).limit(limit).offset(offset)`.
 */
export function compilePageQuery<F extends QueryFieldMap>(
  query: Pick<PageQuery<F, string>, 'page' | 'itemsPerPage' | 'sort' | 'filters' | 'search'>,
  { columns, tieBreaker }: QuerySqlOptions<F>,
): CompiledPageQuery {
  return {
    where: and(compileFilters(query.filters, columns), compileSearch(query.search, columns)),
    orderBy: compileOrderBy(query.sort, columns, tieBreaker),
    limit: query.itemsPerPage,
    offset: (query.page - 1) * query.itemsPerPage,
  };
}
