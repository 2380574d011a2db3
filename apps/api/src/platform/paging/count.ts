import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { countExactLimit, type Count } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';

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
}

export const countTimeBudgetMs = 20;

/** PostgreSQL's answer to a statement that ran past statement_timeout. */
function isQueryCanceled(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause ?? error;
  return (cause as { code?: string }).code === '57014';
}

async function estimateRows(
  executor: Executor,
  table: PgTable,
  where: SQL | undefined,
): Promise<number> {
  const result = (await executor.execute(
    sql`explain (format json) ${executor
      .select({ one: sql`1` })
      .from(table)
      .where(where)}`,
  )) as unknown as { rows: PlanRow[] };
  const raw = result.rows[0]?.['QUERY PLAN'];
  const plan =
    typeof raw === 'string' ? (JSON.parse(raw) as Exclude<PlanRow['QUERY PLAN'], string>) : raw;
  return Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * Counts the rows of a list the way GitLab does (design §6): exactly up to the limit, which an
 * index answers in a millisecond or two, and past it the planner's estimate, which costs one
 * EXPLAIN instead of reading a million index entries. The answer says which it is.
 */
export async function countRows(
  executor: Executor,
  table: PgTable,
  where: SQL | undefined,
  options: CountOptions = {},
): Promise<Count> {
  const limit = options.limit ?? countExactLimit;
  if (options.preferEstimate) {
    const estimate = await estimateRows(executor, table, where);
    if (estimate > 2 * limit)
      return { count: Math.max(estimate, options.atLeast ?? 0), estimated: true };
  }
  const capped = executor
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(limit + 1)
    .as('capped');
  // The count runs in a savepoint under a time budget, so a slow one is cancelled without
  // disturbing the request's transaction; statement_timeout is restored afterwards.
  const budget = options.budgetMs ?? countTimeBudgetMs;
  await executor.execute(sql`savepoint count_budget`);
  const [previous] = (
    (await executor.execute(
      sql`select current_setting('statement_timeout') as value, set_config('statement_timeout', ${`${budget}ms`}, true)`,
    )) as unknown as {
      rows: { value: string }[];
    }
  ).rows;
  let exact: number;
  try {
    const [row] = await executor.select({ n: count() }).from(capped);
    exact = row?.n ?? 0;
    await executor.execute(
      sql`select set_config('statement_timeout', ${previous?.value ?? '0'}, true)`,
    );
    await executor.execute(sql`release savepoint count_budget`);
  } catch (error) {
    if (!isQueryCanceled(error)) throw error;
    await executor.execute(sql`rollback to savepoint count_budget`);
    await executor.execute(sql`release savepoint count_budget`);
    return {
      count: Math.max(await estimateRows(executor, table, where), options.atLeast ?? 0),
      estimated: true,
    };
  }
  if (exact <= limit) return { count: exact, estimated: false };
  // The estimate can be stale; never claim fewer rows than were just counted.
  return {
    count: Math.max(await estimateRows(executor, table, where), limit + 1, options.atLeast ?? 0),
    estimated: true,
  };
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
  where: SQL | undefined,
  page: { offset: number; limit: number; rows: number; wholeList: boolean },
): Promise<Count> {
  return (
    totalFromPage(page.offset, page.limit, page.rows) ??
    countRows(executor, table, where, {
      preferEstimate: page.wholeList,
      atLeast: page.offset + page.rows,
    })
  );
}
