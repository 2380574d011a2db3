import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { money, at, scope } from './schema-columns.js';
import { datasets as datasetsRef } from './schema.js';

// spec 2: a company's payments through providers and what hangs from them, keyed and protected as
// every receivables table (schema-receivables.ts).

/** Payments and refunds through a provider (spec 2 §3 Payment transaction). */
export const paymentTransactions = pgTable(
  'payment_transactions',
  {
    ...scope(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    allocatedStatus: text('allocated_status').notNull().default('WaitingToBeAllocated'),
    /** Ledgerline's own payment reference, shown as "reference". */
    ledgerlineReference: text('ledgerline_reference').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    statusDateTime: at('status_date_time').notNull(),
    totalAmount: money('total_amount').notNull(),
    currency: text('currency').notNull(),
    fee: money('fee'),
    feeCurrency: text('fee_currency'),
    paymentRequestId: uuid('payment_request_id'),
    /** The grid's customer and company names, kept on the row so filters and sorts need no join. */
    customerName: text('customer_name'),
    companyName: text('company_name'),
    /** { companyName, firstNames, surname, emailAddress, address1..4, city, state, postCode, country } */
    customerDetails: jsonb('customer_details'),
    accountId: uuid('account_id'),
    payerId: uuid('payer_id'),
    paymentProviderId: uuid('payment_provider_id'),
    paymentProviderName: text('payment_provider_name'),
    paymentProviderReference: text('payment_provider_reference'),
    paymentMethodType: text('payment_method_type'),
    /**
     * A Processing payment's hidden sub-state (features/pay/lifecycle.ts providerSteps): card
     * details sent ('ticket'), waiting for 3-D Secure ('challenge'), its answer sent
     * ('challengeAnswered'); else null.
     */
    providerStep: text('provider_step'),
    /** A reservation (Pending) ends at its provider's authorisation window. */
    authorisationExpiresOn: at('authorisation_expires_on'),
    /** A Refund: the payment it gives money back from (migration 0020). */
    refundOfId: uuid('refund_of_id'),
    /** A Refund: staff's reason, or the provider's. */
    refundReason: text('refund_reason'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('payment_transactions_id_key').on(t.id),
    check('payment_transactions_provider_step_check', sql`${t.providerStep} in ('ticket', 'challenge', 'challengeAnswered')`),
    index('payment_transactions_reservation_idx').on(t.tenantId, t.datasetId, t.authorisationExpiresOn, t.id).where(sql`${t.status} = 'Pending'`),
    index('payment_transactions_refund_of_idx').on(t.tenantId, t.datasetId, t.refundOfId, t.createdOn).where(sql`${t.refundOfId} is not null`),
    foreignKey({ name: 'payment_transactions_refund_of_fk', columns: [t.tenantId, t.datasetId, t.refundOfId], foreignColumns: [t.tenantId, t.datasetId, t.id] }).onDelete('cascade'),
    // spec 2 §9 default sort: statusDateTime descending (a btree reads either way).
    index('payment_transactions_status_date_idx').on(t.tenantId, t.datasetId, t.statusDateTime, t.id),
    index('payment_transactions_status_idx').on(t.tenantId, t.datasetId, t.status, t.statusDateTime, t.id),
    // No index holds allocated_status, and migration 0013 gives the table fillfactor 50, so that an
    // allocated-status change (one payment or a 100,000-row import) is a HOT update writing no index
    // entry (docs/decisions/029-the-allocated-status-import-is-one-statement.md "The allocated-status import is one statement").
    index('payment_transactions_customer_trgm_idx').using('gin', sql`${t.customerName} gin_trgm_ops`),
    index('payment_transactions_reference_trgm_idx').using('gin', sql`${t.ledgerlineReference} gin_trgm_ops`),
    index('payment_transactions_company_trgm_idx').using('gin', sql`${t.companyName} gin_trgm_ops`),
    index('payment_transactions_amount_idx').on(t.tenantId, t.datasetId, t.totalAmount, t.id),
    index('payment_transactions_request_idx').on(t.tenantId, t.datasetId, t.paymentRequestId),
    index('payment_transactions_account_idx').on(t.tenantId, t.datasetId, t.accountId, t.statusDateTime),
    index('payment_transactions_payer_idx').on(t.tenantId, t.datasetId, t.payerId, t.statusDateTime),
    foreignKey({ name: 'payment_transactions_dataset_fk', columns: [t.tenantId, t.datasetId], foreignColumns: [datasetsRef.tenantId, datasetsRef.id] }).onDelete('cascade'),
  ],
);

/** How a payment was applied to transactions or an account (spec 2 §3 Payment allocation). */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    ...scope(),
    paymentTransactionId: uuid('payment_transaction_id').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    entityType: text('entity_type').notNull(),
    transactionId: uuid('transaction_id'),
    accountId: uuid('account_id'),
    settlementOfferId: uuid('settlement_offer_id'),
    discountedAmount: money('discounted_amount').notNull().default('0'),
    allocatedAmount: money('allocated_amount').notNull(),
    /** What it gave back (a refund, a dispute lost), so a dispute won can restore it. */
    reversedAmount: money('reversed_amount').notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('payment_allocations_payment_idx').on(t.tenantId, t.datasetId, t.paymentTransactionId),
    index('payment_allocations_transaction_idx').on(t.tenantId, t.datasetId, t.transactionId),
    foreignKey({ name: 'payment_allocations_payment_transaction_fk', columns: [t.tenantId, t.datasetId, t.paymentTransactionId], foreignColumns: [paymentTransactions.tenantId, paymentTransactions.datasetId, paymentTransactions.id] }).onDelete('cascade'),
  ],
);

/** Late-payment fee lines charged with a payment (spec 2 §3 Late-payment fee record). */
export const paymentFeeTransactions = pgTable(
  'payment_fee_transactions',
  {
    ...scope(),
    createdOn: at('created_on').notNull().defaultNow(),
    transactionId: uuid('transaction_id'),
    paymentTransactionId: uuid('payment_transaction_id').notNull(),
    /** [{ type, currency, amount }] */
    feeDetails: jsonb('fee_details').notNull().default([]),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('payment_fee_transactions_payment_idx').on(t.tenantId, t.datasetId, t.paymentTransactionId),
    index('payment_fee_transactions_transaction_idx').on(t.tenantId, t.datasetId, t.transactionId),
    foreignKey({ name: 'payment_fee_transactions_payment_transaction_fk', columns: [t.tenantId, t.datasetId, t.paymentTransactionId], foreignColumns: [paymentTransactions.tenantId, paymentTransactions.datasetId, paymentTransactions.id] }).onDelete('cascade'),
  ],
);

/**
 * A dispute or chargeback of a payment (migration 0020), kept from its provider's
 * notifications: one row per (payment, provider dispute reference), its stage moving as they come.
 */
export const paymentDisputes = pgTable(
  'payment_disputes',
  {
    ...scope(),
    paymentTransactionId: uuid('payment_transaction_id').notNull(),
    disputeReference: text('dispute_reference').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason'),
    /** Opened, UnderReview, Won, Lost (contract disputeStages). */
    stage: text('stage').notNull(),
    respondBy: at('respond_by'),
    openedOn: at('opened_on').notNull().defaultNow(),
    closedOn: at('closed_on'),
    updatedOn: at('updated_on').notNull().defaultNow(),
    /** What a Lost dispute took from the payment's allocations: a later Won gives exactly this back. */
    reversedAmount: money('reversed_amount').notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('payment_disputes_reference_key').on(t.tenantId, t.datasetId, t.paymentTransactionId, t.disputeReference),
    uniqueIndex('payment_disputes_id_key').on(t.id),
    index('payment_disputes_opened_idx').on(t.tenantId, t.datasetId, t.openedOn, t.id),
    index('payment_disputes_stage_idx').on(t.tenantId, t.datasetId, t.stage, t.openedOn, t.id),
    index('payment_disputes_reference_trgm_idx').using('gin', sql`${t.disputeReference} gin_trgm_ops`),
    index('payment_disputes_reason_trgm_idx').using('gin', sql`${t.reason} gin_trgm_ops`),
    foreignKey({ name: 'payment_disputes_dataset_fk', columns: [t.tenantId, t.datasetId], foreignColumns: [datasetsRef.tenantId, datasetsRef.id] }).onDelete('cascade'),
    foreignKey({ name: 'payment_disputes_payment_transaction_fk', columns: [t.tenantId, t.datasetId, t.paymentTransactionId], foreignColumns: [paymentTransactions.tenantId, paymentTransactions.datasetId, paymentTransactions.id] }).onDelete('cascade'),
  ],
);

/** What a payment provider told us about a payment, with its raw payload (spec 2 §3 Provider event). */
export const providerEvents = pgTable(
  'provider_events',
  {
    ...scope(),
    paymentTransactionId: uuid('payment_transaction_id').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    providerName: text('provider_name').notNull(),
    eventType: text('event_type').notNull(),
    recordType: text('record_type'),
    recordId: text('record_id'),
    status: text('status'),
    payloadFileName: text('payload_file_name'),
    payload: text('payload').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('provider_events_payment_idx').on(t.tenantId, t.datasetId, t.paymentTransactionId, t.createdOn),
    foreignKey({ name: 'provider_events_payment_transaction_fk', columns: [t.tenantId, t.datasetId, t.paymentTransactionId], foreignColumns: [paymentTransactions.tenantId, paymentTransactions.datasetId, paymentTransactions.id] }).onDelete('cascade'),
  ],
);
