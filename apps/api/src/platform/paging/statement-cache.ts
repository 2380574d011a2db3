import { sql, type Placeholder } from 'drizzle-orm';
import type { PageQuery, QueryFieldMap } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import type { Bind } from './compile-filter.js';

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
  readonly bind: Bind = (value) => {
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
 * A list page's SELECT built once per shape (docs/decisions.md "A list's SQL is built once per
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
  query: Pick<PageQuery<QueryFieldMap, string>, 'sort' | 'filters'> & { expand?: readonly string[] },
): string {
  const sort = query.sort.map(({ field, direction }) => `${field} ${direction}`).join(',');
  const filters = query.filters
    .map((f) => `${f.field} ${f.type} ${f.operator}${f.type === 'date' && f.wholeDay ? ' day' : ''}`)
    .join(',');
  return `${sort}|${filters}|${(query.expand ?? []).join(',')}`;
}
