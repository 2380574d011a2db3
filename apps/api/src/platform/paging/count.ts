import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { countExactLimit, type Count } from '@ledgerline/contract';
import { readWithinBudget, tenantOf, type Executor } from '../../db/client.js';

interface PlanRow {
  'QUERY PLAN'?: [{ Plan?: { 'Plan Rows'?: number } }] | string;
}

export interface CountOptions {
  /** Exact up to here; default countExactLimit. */
  limit?: number;
  /**
   * Ask the planner first and trust a large estimate. Only for a company's whole list (no
   * filter): its row count is what the statistics know best, and it saves reading 10,001
   * index entries on every page of a big list.
   */
  preferEstimate?: boolean;
  /**
   * Milliseconds the exact count may take before the estimate answers instead (a filter that
   * matches rows scattered over a big list, such as a name "contains", can need a long scan to
   * find 10,001 of them). Default countTimeBudgetMs.
   */
  budgetMs?: number;
  /** Rows known to exist (the pages so far): an estimate never answers fewer. */
  atLeast?: number;
  /**
   * What identifies the list, values included, when the caller knows it without turning `where`
   * into SQL text (a statement-cache shape and its values); the tenant is added here.
   */
  listKey?: string;
}

/** A list's condition, or how to make it when it is needed (a count, an estimate). */
export type LazyWhere = SQL | undefined | (() => SQL | undefined);

export const countTimeBudgetMs = 20;

/**
 * How long what a count learnt about a big list is kept (docs/decisions/009-totals-of-lists-that-can-hold-millions-of-rows.md "Totals of lists that
 * can hold millions of rows"): the planner's estimate, and that the list holds more than the
 * exact limit or cannot be counted within the budget. Only ever used to answer an estimate, which
 * follows ANALYZE and lags by minutes anyway; an exact total is never kept.
 */
export const countMemoryMs = 30_000;
const countMemorySize = 5_000;

interface ListFacts {
  expires: number;
  estimate?: number;
  /** An exact count found more rows than this. */
  moreThan?: number;
  /** An exact count ran past its time budget. */
  slow?: boolean;
}

/**
 * Keyed by the tenant of the transaction, the table and either the list's SQL with its parameters
 * or the caller's listKey (a statement shape with its values, company included), so a tenant only
 * ever meets facts about its own lists. Per process; bounded, the oldest entries go first.
 */
const facts = new Map<string, ListFacts>();

function factsKey(
  executor: Executor,
  table: PgTable,
  where: () => SQL | undefined,
  listKey: string | undefined,
): string | undefined {
  const tenantId = tenantOf(executor);
  if (tenantId === undefined) return undefined;
  if (listKey !== undefined) return `${tenantId}\u0000${getTableName(table)}\u0001${listKey}`;
  const dialect = (executor as unknown as { dialect: PgDialect }).dialect;
  const condition = where();
  const query = condition ? dialect.sqlToQuery(condition) : { sql: '', params: [] };
  return `${tenantId}\u0000${getTableName(table)}\u0000${query.sql}\u0000${JSON.stringify(query.params)}`;
}

function lazy(where: LazyWhere): () => SQL | undefined {
  if (typeof where !== 'function') return () => where;
  let made: { where: SQL | undefined } | undefined;
  return () => (made ??= { where: where() }).where;
}

function recall(key: string | undefined): ListFacts | undefined {
  if (key === undefined) return undefined;
  const known = facts.get(key);
  if (known && known.expires <= Date.now()) {
    facts.delete(key);
    return undefined;
  }
  return known;
}

function remember(key: string | undefined, learnt: Omit<ListFacts, 'expires'>): void {
  if (key === undefined) return;
  const known = recall(key);
  facts.delete(key);
  if (facts.size >= countMemorySize) facts.delete(facts.keys().next().value!);
  facts.set(key, { ...known, ...learnt, expires: known?.expires ?? Date.now() + countMemoryMs });
}

async function estimateRows(
  executor: Executor,
  table: PgTable,
  where: () => SQL | undefined,
  key: string | undefined,
): Promise<number> {
  const known = recall(key)?.estimate;
  if (known !== undefined) return known;
  const result = (await executor.execute(
    sql`explain (format json) ${executor
      .select({ one: sql`1` })
      .from(table)
      .where(where())}`,
  )) as unknown as { rows: PlanRow[] };
  const raw = result.rows[0]?.['QUERY PLAN'];
  const plan =
    typeof raw === 'string' ? (JSON.parse(raw) as Exclude<PlanRow['QUERY PLAN'], string>) : raw;
  const estimate = Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
  remember(key, { estimate });
  return estimate;
}

/**
 * Counts the rows of a list the way GitLab does (design §6): exactly up to the limit, which an
 * index answers in a millisecond or two, and past it the planner's estimate, which costs one
 * EXPLAIN instead of reading a million index entries. The answer says which it is. What a count
 * learns about a big list is remembered for countMemoryMs, so the next page of it does not pay
 * for the same EXPLAIN or the same slow count again.
 */
export async function countRows(
  executor: Executor,
  table: PgTable,
  lazyWhere: LazyWhere,
  options: CountOptions = {},
): Promise<Count> {
  const limit = options.limit ?? countExactLimit;
  const atLeast = options.atLeast ?? 0;
  const where = lazy(lazyWhere);
  const key = factsKey(executor, table, where, options.listKey);
  const estimated = async (floor: number): Promise<Count> => ({
    count: Math.max(await estimateRows(executor, table, where, key), floor, atLeast),
    estimated: true,
  });
  if (options.preferEstimate) {
    const estimate = await estimateRows(executor, table, where, key);
    if (estimate > 2 * limit) return { count: Math.max(estimate, atLeast), estimated: true };
  }
  const known = recall(key);
  if (known?.slow) return estimated(0);
  if (known?.moreThan !== undefined && known.moreThan >= limit) return estimated(limit + 1);

  const capped = executor
    .select({ one: sql`1` })
    .from(table)
    .where(where())
    .limit(limit + 1);
  const rows = await readWithinBudget(
    executor,
    sql`select count(*)::int as n from (${capped}) capped`,
    options.budgetMs ?? countTimeBudgetMs,
  );
  const exact = rows === null ? null : Number(rows[0]?.n ?? 0);
  if (exact === null) {
    remember(key, { slow: true });
    return estimated(0);
  }
  if (exact <= limit) return { count: exact, estimated: false };
  remember(key, { moreThan: limit });
  // The estimate can be stale; never claim fewer rows than were just counted.
  return estimated(limit + 1);
}

/**
 * Several capped counts in one statement under one budget (an account page's badges): one round
 * trip instead of one per list. Each answers as countRows would; lists past the limit, or all of
 * them when the statement runs out of time, answer their estimates.
 */
export async function countRowsTogether(
  executor: Executor,
  lists: readonly { table: PgTable; where: SQL | undefined }[],
  options: Pick<CountOptions, 'limit' | 'budgetMs'> = {},
): Promise<Count[]> {
  const limit = options.limit ?? countExactLimit;
  const counts = lists.map(
    ({ table, where }, index) =>
      sql`(select count(*)::int from (${executor
        .select({ one: sql`1` })
        .from(table)
        .where(where)
        .limit(limit + 1)}) capped) as ${sql.identifier(`c${index}`)}`,
  );
  const rows = await readWithinBudget(
    executor,
    sql`select ${sql.join(counts, sql`, `)}`,
    options.budgetMs ?? countTimeBudgetMs,
  );
  const exact = rows === null ? null : lists.map((_, index) => Number(rows[0]?.[`c${index}`] ?? 0));
  return Promise.all(
    lists.map(async ({ table, where }, index) => {
      const key = factsKey(executor, table, () => where, undefined);
      const counted = exact?.[index];
      if (counted !== undefined && counted <= limit) return { count: counted, estimated: false };
      return {
        count: Math.max(
          await estimateRows(executor, table, () => where, key),
          counted === undefined ? 0 : limit + 1,
        ),
        estimated: true,
      };
    }),
  );
}

/**
 * The total of a page's list without a count when the page itself tells it: a page that came back
 * short is the last one, so the total is everything before it plus what it holds.
 */
export function totalFromPage(offset: number, limit: number, rows: number): Count | null {
  if (rows < limit && (rows > 0 || offset === 0)) return { count: offset + rows, estimated: false };
  return null;
}

/**
 * The total of a list a page was just read from: from the page when it was the last one,
 * otherwise counted (`wholeList`: no filter, so a large estimate is trusted at once).
 */
export async function pageTotal(
  executor: Executor,
  table: PgTable,
  where: LazyWhere,
  page: { offset: number; limit: number; rows: number; wholeList: boolean; listKey?: string },
): Promise<Count> {
  return (
    totalFromPage(page.offset, page.limit, page.rows) ??
    countRows(executor, table, where, {
      preferEstimate: page.wholeList,
      atLeast: page.offset + page.rows,
      listKey: page.listKey,
    })
  );
}
