import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasets as datasetsRef } from './schema.js';
import { paymentTransactions } from './schema-receivables.js';

// The payer page: what a payer was shown when they started a payment, and the provider
// notifications as received. Keys lead with (tenant_id, dataset_id) (design §4), rows cascade
// from their company and row-level security applies (migration 0014).

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * What the payer saw when they started a payment (one row per payment transaction of the payer
 * page): the day it was quoted for, each invoice's offer, fee lines and amount, and the total.
 * The completion path allocates from it, so the merchant sees exactly what was offered.
 */
export const payQuotes = pgTable(
  'pay_quotes',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    paymentTransactionId: uuid('payment_transaction_id').notNull(),
    paymentRequestId: uuid('payment_request_id').notNull(),
    /** { quotedOn, invoices: [{ transactionId, outstandingAmount, offer, discount, fees, amountToPay }], discountTotal, feeTotal, total } */
    offered: jsonb('offered').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    /** The last time a status poll asked the provider (at most every few seconds). */
    statusCheckedOn: at('status_checked_on'),
    /** What the payer is told when the payment failed ('Your card was declined'). */
    failureMessage: text('failure_message'),
    /**
     * A per-payment secret the provider gave when the payment started, sealed like credentials
     * (platform/secrets.ts): Opayo Server's SecurityKey (and the TxAuthNo its notification adds),
     * which its notification signature and its release / abort calls need (migration 0017).
     */
    providerSecret: text('provider_secret'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.paymentTransactionId] }),
    uniqueIndex('pay_quotes_payment_key').on(t.paymentTransactionId),
    index('pay_quotes_request_idx').on(t.tenantId, t.datasetId, t.paymentRequestId),
    foreignKey({
      name: 'pay_quotes_payment_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.paymentTransactionId],
      foreignColumns: [
        paymentTransactions.tenantId,
        paymentTransactions.datasetId,
        paymentTransactions.id,
      ],
    }).onDelete('cascade'),
  ],
);

/**
 * Provider notifications as received (signature verified first): one row per (provider, event
 * id), so a replayed or duplicated event is stored once and processed once.
 */
export const providerNotifications = pgTable(
  'provider_notifications',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    providerName: text('provider_name').notNull(),
    eventId: text('event_id').notNull(),
    configurationId: uuid('configuration_id').notNull(),
    eventType: text('event_type').notNull(),
    /** What the adapter read of it: { paymentTransactionId, providerReference, status, errorMessage }. */
    summary: jsonb('summary').notNull(),
    payload: text('payload').notNull(),
    receivedAt: at('received_at').notNull().defaultNow(),
    processedAt: at('processed_at'),
    /** Why it changed nothing (no such payment...), or null. */
    outcome: text('outcome'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('provider_notifications_event_key').on(t.providerName, t.eventId),
    index('provider_notifications_unprocessed_idx').on(t.tenantId, t.datasetId, t.receivedAt),
    foreignKey({
      name: 'provider_notifications_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);
