import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Socket } from 'node:net';
import type pg from 'pg';
import { cancelsStatements, isQueryCanceled, type Executor } from './database.js';
import { holdUntilTurnEnds, type ScopedReadClient } from './scoped-read.js';

/**
 * Runs a read under statement_timeout: its rows, or null when it ran out of time. In a read
 * (readAsTenant) the timeout travels in the statement's own scope and ends with it. In a
 * transaction it is set in a savepoint, so a slow statement is cancelled without disturbing the
 * transaction; rolling back to the savepoint restores the timeout the transaction had and loses
 * nothing (it read), and the savepoint, the statement and the rollback come back in one round
 * trip. PGlite cannot interrupt a statement, so there it simply runs.
 */
export async function readWithinBudget(
  executor: Executor,
  statement: SQL,
  budgetMs: number,
): Promise<Record<string, unknown>[] | null> {
  if (!cancelsStatements(executor)) {
    return ((await executor.execute(statement)) as unknown as { rows: Record<string, unknown>[] })
      .rows;
  }
  const { client } = (
    executor as unknown as { session: { client: pg.PoolClient | ScopedReadClient } }
  ).session;
  const { dialect } = executor as unknown as { dialect: PgDialect };
  const query = dialect.sqlToQuery(statement);
  const timeout = Math.max(1, Math.round(budgetMs));
  if ('queryWithin' in client) {
    try {
      const result = await client.queryWithin({ text: query.sql }, query.params, timeout);
      return result.rows as Record<string, unknown>[];
    } catch (error) {
      if (isQueryCanceled(error)) return null;
      throw error;
    }
  }
  // The savepoint, the statement and the rollback leave in one write.
  holdUntilTurnEnds((client as unknown as { connection: { stream: Socket } }).connection.stream);
  const [budget, read, restore] = await Promise.allSettled([
    client.query(`savepoint read_budget; set local statement_timeout = ${timeout}`),
    client.query(query.sql, query.params),
    client.query('rollback to savepoint read_budget; release savepoint read_budget'),
  ]);
  if (budget.status === 'rejected') throw budget.reason;
  if (read.status === 'rejected' && !isQueryCanceled(read.reason)) throw read.reason;
  if (restore.status === 'rejected') throw restore.reason;
  return read.status === 'fulfilled' ? (read.value.rows as Record<string, unknown>[]) : null;
}
