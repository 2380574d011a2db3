import { sql, type SQL } from 'drizzle-orm';
import type { WebHookEventType, webHookEventData } from '@ledgerline/contract';
import type { z } from 'zod';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import type { DatasetScope } from '../../platform/scope.js';

export interface WebHookEventInput<T extends WebHookEventType> {
  type: T;
  /** What the event is about, e.g. 'PaymentTransaction'; events of one record arrive in order. */
  recordType: string;
  recordId: string;
  /** The event's `data`: the contract's shape of the record (webHookEventData[type]). */
  payload: z.input<(typeof webHookEventData)[T]>;
}

/**
 * Events written since the dispatcher last looked, in this process. The database's afterWrite
 * listener (web-hooks.delivery.ts) reads and clears it after each transaction, so a transaction
 * that wrote an event nudges the dispatcher once it has committed, and others cost nothing.
 */
let written = false;

/** Whether an event was recorded since the last call; clears the mark. */
export function takeWrittenMark(): boolean {
  const was = written;
  written = false;
  return was;
}

/**
 * Records an outgoing web hook event in the caller's transaction (the outbox): it is
 * delivered after the commit, or never if the transaction rolls back. Returns the event id (the
 * receiver's `webhook-id` and Svix's `eventId`).
 *
 * Call it from any write that changes what an event describes, with the transaction that makes
 * the change, e.g. the payer page after it marks a payment Paid:
 *
 *   await recordWebhookEvent(tx, scope, {
 *     type: 'payment.succeeded',
 *     recordType: 'PaymentTransaction',
 *     recordId: payment.id,
 *     payload: payment, // as GET payment-transactions/{id} answers it
 *   });
 */
export async function recordWebhookEvent<T extends WebHookEventType>(
  tx: Tx,
  scope: DatasetScope,
  event: WebHookEventInput<T>,
): Promise<string> {
  const id = uuidv7();
  await tx.insert(webHookEvents).values({
    tenantId: scope.tenantId,
    datasetId: scope.datasetId,
    id,
    type: event.type,
    recordType: event.recordType,
    recordId: event.recordId,
    payload: event.payload as object,
  });
  written = true;
  return id;
}

/**
 * recordWebhookEvent of several events in one statement (a batch of settled payments): the same
 * rows, in the order given. Returns their ids.
 */
export async function recordWebhookEvents(
  tx: Tx,
  scope: DatasetScope,
  events: WebHookEventInput<WebHookEventType>[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const ids = events.map(() => uuidv7());
  await tx.insert(webHookEvents).values(
    events.map((event, i) => ({
      tenantId: scope.tenantId,
      datasetId: scope.datasetId,
      id: ids[i]!,
      type: event.type,
      recordType: event.recordType,
      recordId: event.recordId,
      payload: event.payload as object,
    })),
  );
  written = true;
  return ids;
}

/**
 * The set-based form for statements that change many records at once (the allocated-status
 * import): a data-modifying CTE body inserting one event per row of `source`, whose columns are
 * `record_id` (text) and `payload` (jsonb). Put it in a `with … as (…)` of the same statement.
 */
export function insertWebhookEventsFrom(
  scope: DatasetScope,
  event: { type: WebHookEventType; recordType: string },
  source: SQL,
): SQL {
  written = true;
  return sql`insert into web_hook_events (tenant_id, dataset_id, type, record_type, record_id, payload)
    select ${scope.tenantId}::uuid, ${scope.datasetId}::integer, ${event.type}, ${event.recordType}, s.record_id, s.payload
    from ${source} s`;
}
