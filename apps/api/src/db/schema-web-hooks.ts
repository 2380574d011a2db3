import { sql } from 'drizzle-orm';
import {
  bigserial,
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasets } from './schema.js';

// Outgoing web hooks. Keys lead with (tenant_id, dataset_id) (design §4), rows cascade
// from their company, row-level security as 0012 (migration 0015).

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * The outbox: one row per event, written in the transaction of the change it describes
 * (features/web-hooks/web-hook-events.repository.ts). `seq` orders events across the whole server; the
 * dispatcher turns undispatched rows into deliveries after the commit.
 */
export const webHookEvents = pgTable(
  'web_hook_events',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id').notNull(),
    /** The event's `data` (the contract's shape of the record). */
    payload: jsonb('payload').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    dispatchedOn: at('dispatched_on'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('web_hook_events_undispatched_idx')
      .on(t.seq)
      .where(sql`dispatched_on is null`),
    foreignKey({
      name: 'web_hook_events_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasets.tenantId, datasets.id],
    }).onDelete('cascade'),
  ],
);

/** A company's own receivers when Svix is not configured (embedded delivery). */
export const webHookEndpoints = pgTable(
  'web_hook_endpoints',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    url: text('url').notNull(),
    description: text('description'),
    /** Empty: every event type. */
    eventTypes: text('event_types')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The whsec_ signing secret, sealed (platform/secrets.ts). */
    secret: text('secret').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    disabledReason: text('disabled_reason'),
    failingSince: at('failing_since'),
    createdOn: at('created_on').notNull().defaultNow(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    foreignKey({
      name: 'web_hook_endpoints_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasets.tenantId, datasets.id],
    }).onDelete('cascade'),
  ],
);

/**
 * One event to one endpoint (or to Svix: endpoint_id null), with its last attempt. Pending rows
 * are tried in event order per endpoint and record.
 */
export const webHookDeliveries = pgTable(
  'web_hook_deliveries',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    eventId: uuid('event_id').notNull(),
    eventSeq: bigint('event_seq', { mode: 'number' }).notNull(),
    endpointId: uuid('endpoint_id'),
    recordId: text('record_id').notNull(),
    status: text('status').notNull().default('Pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptOn: at('next_attempt_on').defaultNow(),
    lastAttemptOn: at('last_attempt_on'),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    createdOn: at('created_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('web_hook_deliveries_due_idx')
      .on(t.nextAttemptOn)
      .where(sql`status = 'Pending'`),
    index('web_hook_deliveries_order_idx')
      .on(t.tenantId, t.datasetId, t.recordId, t.eventSeq)
      .where(sql`status = 'Pending'`),
    index('web_hook_deliveries_log_idx').on(t.tenantId, t.datasetId, t.endpointId, t.eventSeq),
    foreignKey({
      name: 'web_hook_deliveries_event_fk',
      columns: [t.tenantId, t.datasetId, t.eventId],
      foreignColumns: [webHookEvents.tenantId, webHookEvents.datasetId, webHookEvents.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'web_hook_deliveries_endpoint_fk',
      columns: [t.tenantId, t.datasetId, t.endpointId],
      foreignColumns: [webHookEndpoints.tenantId, webHookEndpoints.datasetId, webHookEndpoints.id],
    }).onDelete('cascade'),
  ],
);

export type WebHookEventRow = typeof webHookEvents.$inferSelect;
export type WebHookEndpointRow = typeof webHookEndpoints.$inferSelect;
export type WebHookDeliveryRow = typeof webHookDeliveries.$inferSelect;
