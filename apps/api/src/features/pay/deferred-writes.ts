import { and, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { paymentRequests } from '../../db/schema-receivables.js';
import type { PayScope } from './pay.repository.js';
import { inDataset } from '../../platform/scope.js';

/**
 * Writes of a batch of moves held back and sent together (the drain's finishBatch sent
 * five statements per payment, each a round trip). Only while a transaction has opted in
 * (`deferWrites`); everywhere else each write goes at once, as before.
 *
 * What is held back: rows inserted that nothing in the transaction reads before the flush, and
 * request statuses. Whoever reads what they touch flushes first (lifecycle.ts's reads of
 * allocations and of a request's money, finish.ts before the web hook payloads are read), and the
 * batch flushes before it commits: every statement still runs in its transaction, in the order of
 * its kind, so a failure still fails the whole batch.
 */
interface Pending {
  inserts: Map<PgTable, Record<string, unknown>[]>;
  /** A request's status as the last move of the batch derived it, by request id. */
  requestStatuses: Map<string, { scope: PayScope; status: string }>;
}

const pendingOf = new WeakMap<Tx, Pending>();

/** From now until it ends, `tx`'s deferrable writes wait for `flushWrites` (finishBatch only). */
export function deferWrites(tx: Tx) {
  pendingOf.set(tx, { inserts: new Map(), requestStatuses: new Map() });
}

/** Inserts `values` into `table` now, or with the next flush when `tx` defers its writes. */
export async function insertRow<T extends PgTable>(tx: Tx, table: T, values: T['$inferInsert']) {
  const pending = pendingOf.get(tx);
  if (!pending) {
    await tx.insert(table).values(values);
    return;
  }
  const rows = pending.inserts.get(table) ?? [];
  rows.push(values as Record<string, unknown>);
  pending.inserts.set(table, rows);
}

/** Sets a request's status now, or with the next flush when `tx` defers its writes. */
export async function setRequestStatus(tx: Tx, scope: PayScope, id: string, status: string) {
  const pending = pendingOf.get(tx);
  if (!pending) {
    await tx
      .update(paymentRequests)
      .set({ requestStatus: status })
      .where(and(inDataset(paymentRequests, scope), eq(paymentRequests.id, id)));
    return;
  }
  // A later move of the same request in the batch derived it again: its status is the one kept.
  pending.requestStatuses.delete(id);
  pending.requestStatuses.set(id, { scope, status });
}

/** Sends what `tx` held back: one insert per table, one update for every request's status. */
export async function flushWrites(tx: Tx) {
  const pending = pendingOf.get(tx);
  if (!pending) return;
  const inserts = [...pending.inserts];
  const statuses = [...pending.requestStatuses];
  pending.inserts = new Map();
  pending.requestStatuses = new Map();
  for (const [table, rows] of inserts) await tx.insert(table).values(rows);
  // Grouped by scope (a batch is one company's; the grouping only keeps that honest).
  const byScope = new Map<string, { scope: PayScope; rows: [string, string][] }>();
  for (const [id, { scope, status }] of statuses) {
    const key = `${scope.tenantId}:${scope.datasetId}`;
    const entry = byScope.get(key) ?? { scope, rows: [] };
    entry.rows.push([id, status]);
    byScope.set(key, entry);
  }
  for (const { scope, rows } of byScope.values()) {
    const values = sql.join(
      rows.map(([id, status]) => sql`(${id}::uuid, ${status}::text)`),
      sql`, `,
    );
    await tx.execute(sql`
      update payment_requests r set request_status = v.status
      from (values ${values}) as v(id, status)
      where r.tenant_id = ${scope.tenantId} and r.dataset_id = ${scope.datasetId} and r.id = v.id`);
  }
}
