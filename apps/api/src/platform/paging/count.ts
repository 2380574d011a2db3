import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { countExactLimit, type Count } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';

interface PlanRow {
  'QUERY PLAN'?: [{ Plan?: { 'Plan Rows'?: number } }] | string;
}

/**
 * Counts the rows of a list the way GitLab does (design §6): exactly up to countExactLimit, which
 * an index answers in a millisecond or two, and past it the planner's estimate, which costs one
 * EXPLAIN instead of reading a million index entries. The answer says which it is.
 */
export async function countRows(executor: Executor, table: PgTable, where: SQL | undefined, limit = countExactLimit): Promise<Count> {
  const capped = executor.select({ one: sql`1` }).from(table).where(where).limit(limit + 1).as('capped');
  const [row] = await executor.select({ n: count() }).from(capped);
  const exact = row?.n ?? 0;
  if (exact <= limit) return { count: exact, estimated: false };
  const result = (await executor.execute(
    sql`explain (format json) ${executor.select({ one: sql`1` }).from(table).where(where)}`,
  )) as unknown as { rows: PlanRow[] };
  const raw = result.rows[0]?.['QUERY PLAN'];
  const plan = typeof raw === 'string' ? (JSON.parse(raw) as Exclude<PlanRow['QUERY PLAN'], string>) : raw;
  const estimate = Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
  // The estimate can be stale; never claim fewer rows than were just counted.
  return { count: Math.max(estimate, limit + 1), estimated: true };
}
