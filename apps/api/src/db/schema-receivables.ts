import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasets as datasetsRef } from './schema.js';

// spec 2: the receivables of one company. Every table leads its key with (tenant_id, dataset_id)
// (design §4), cascades from its company, and is protected by row-level security (migration
// 0004). Amounts are numeric(19,4) (design §3); times carry milliseconds so keyset paging is exact.

const money = (name: string) => numeric(name, { precision: 19, scale: 4 });
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
/** A calendar day, read and written as `YYYY-MM-DD` (days are not instants). */
const day = (name: string) => date(name, { mode: 'string' });
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** Columns every company-owned row has, and the cascade from its company. */
const scope = () => ({
  tenantId: uuid('tenant_id').notNull(),
  datasetId: integer('dataset_id').notNull(),
  id: uuid('id').notNull(),
});

/** Customer accounts pushed by the ERP (spec 2 §3 Account). */
export const accounts = pgTable(
  'accounts',
  {
    ...scope(),
    accountReference: text('account_reference').notNull(),
    name: text('name').notNull(),
    shortName: text('short_name'),
    accountType: text('account_type').notNull().default('Customer'),
    currency: text('currency'),
    balance: money('balance').notNull().default('0'),
    overdueAmount: money('overdue_amount').notNull().default('0'),
    disputedAmount: money('disputed_amount').notNull().default('0'),
    creditLimit: money('credit_limit'),
    /** [{ emailAddress, type, isDefault }] */
    emailAddresses: jsonb('email_addresses').notNull().default([]),
    /** [{ firstNames, surname, jobTitle }] */
    contacts: jsonb('contacts').notNull().default([]),
    /** [{ type, address1..4, city, state, postCode, country }] */
    addresses: jsonb('addresses').notNull().default([]),
    disableAutoApplySettlements: boolean('disable_auto_apply_settlements').notNull().default(false),
    settlementConfigurationGroupId: uuid('settlement_configuration_group_id'),
    disableLatePayments: boolean('disable_late_payments').notNull().default(false),
    latePaymentConfigurationGroupId: uuid('late_payment_configuration_group_id'),
    editPaymentStatus: text('edit_payment_status').notNull().default('Default'),
    editPaymentOverrideStatus: text('edit_payment_override_status')
      .notNull()
      .default('UseAccountStatus'),
    /** spec 2 §4: the usage type of the account's new payment requests; null: the company's default. */
    defaultUsageType: text('default_usage_type'),
    /** 'none' when true; otherwise reminderScheduleId, or the company default when null. */
    disableReminders: boolean('disable_reminders').notNull().default(false),
    reminderScheduleId: uuid('reminder_schedule_id'),
    remindersPaused: boolean('reminders_paused').notNull().default(false),
    createdOn: at('created_on').notNull().defaultNow(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('accounts_id_key').on(t.id),
    uniqueIndex('accounts_reference_key').on(t.tenantId, t.datasetId, t.accountReference),
    index('accounts_name_idx').on(t.tenantId, t.datasetId, t.name, t.id),
    index('accounts_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('accounts_reference_trgm_idx').using('gin', sql`${t.accountReference} gin_trgm_ops`),
    index('accounts_balance_idx').on(t.tenantId, t.datasetId, t.balance, t.id),
    foreignKey({
      name: 'accounts_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);

/** The people who paid on an account through the payer site (spec 2 §3 Payer). */
export const payers = pgTable(
  'payers',
  {
    ...scope(),
    accountId: uuid('account_id').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    companyName: text('company_name'),
    firstNames: text('first_names'),
    surname: text('surname'),
    emailAddress: text('email_address'),
    address1: text('address1'),
    address2: text('address2'),
    address3: text('address3'),
    address4: text('address4'),
    city: text('city'),
    state: text('state'),
    postCode: text('post_code'),
    country: text('country'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('payers_id_key').on(t.id),
    index('payers_account_idx').on(t.tenantId, t.datasetId, t.accountId, t.createdOn, t.id),
    index('payers_company_trgm_idx').using('gin', sql`${t.companyName} gin_trgm_ops`),
    index('payers_first_names_trgm_idx').using('gin', sql`${t.firstNames} gin_trgm_ops`),
    index('payers_surname_trgm_idx').using('gin', sql`${t.surname} gin_trgm_ops`),
    index('payers_email_trgm_idx').using('gin', sql`${t.emailAddress} gin_trgm_ops`),
    index('payers_post_code_trgm_idx').using('gin', sql`${t.postCode} gin_trgm_ops`),
    foreignKey({
      name: 'payers_account_fk',
      columns: [t.tenantId, t.datasetId, t.accountId],
      foreignColumns: [accounts.tenantId, accounts.datasetId, accounts.id],
    }).onDelete('cascade'),
  ],
);

/** Accounting transactions: invoices, credit notes and the like from the ERP (spec 2 §3). */
export const transactions = pgTable(
  'transactions',
  {
    ...scope(),
    accountId: uuid('account_id').notNull(),
    transactionReference: text('transaction_reference').notNull(),
    transactionSecondReference: text('transaction_second_reference'),
    orderReference: text('order_reference'),
    transactionType: text('transaction_type').notNull(),
    /** spec 2 §3 transactionTypeName: the ERP's own name of the type; null: the type in words. */
    transactionTypeName: text('transaction_type_name'),
    transactionDate: day('transaction_date').notNull(),
    dueDate: day('due_date'),
    currency: text('currency').notNull(),
    transactionAmount: money('transaction_amount').notNull(),
    discountedAmount: money('discounted_amount').notNull().default('0'),
    allocatedAmount: money('allocated_amount').notNull().default('0'),
    paidStatus: text('paid_status').notNull().default('Unpaid'),
    description: text('description'),
    paymentTermsDescription: text('payment_terms_description'),
    postingApplication: text('posting_application'),
    customHostId: text('custom_host_id'),
    /** { companyName, firstNames, surname, jobTitle, emailAddresses: [], addresses: [] } */
    contact: jsonb('contact'),
    createdOn: at('created_on').notNull().defaultNow(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('transactions_id_key').on(t.id),
    // match-existing finds a transaction by its reference and type (POST transactions).
    uniqueIndex('transactions_reference_key').on(
      t.tenantId,
      t.datasetId,
      t.transactionReference,
      t.transactionType,
    ),
    index('transactions_date_idx').on(t.tenantId, t.datasetId, t.transactionDate, t.id),
    index('transactions_account_idx').on(
      t.tenantId,
      t.datasetId,
      t.accountId,
      t.transactionDate,
      t.id,
    ),
    // Migration 0031: the items still open, for the aged receivables; the migration adds
    // INCLUDE (id, currency, type, dates, amounts), which Drizzle cannot declare, for index-only reads.
    index('transactions_open_idx')
      .on(t.tenantId, t.datasetId, t.accountId)
      .where(
        sql`abs(${t.allocatedAmount}) + abs(${t.discountedAmount}) < abs(${t.transactionAmount})`,
      ),
    index('transactions_reference_trgm_idx').using(
      'gin',
      sql`${t.transactionReference} gin_trgm_ops`,
    ),
    index('transactions_amount_idx').on(t.tenantId, t.datasetId, t.transactionAmount, t.id),
    foreignKey({
      name: 'transactions_account_fk',
      columns: [t.tenantId, t.datasetId, t.accountId],
      foreignColumns: [accounts.tenantId, accounts.datasetId, accounts.id],
    }).onDelete('cascade'),
  ],
);

/** Early-payment discounts on a transaction (spec 2 §3, §4). */
export const settlementOffers = pgTable(
  'settlement_offers',
  {
    ...scope(),
    transactionId: uuid('transaction_id').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('Open'),
    description: text('description'),
    validFrom: day('valid_from'),
    validUntil: day('valid_until'),
    currency: text('currency').notNull(),
    amount: money('amount'),
    percentageDiscount: numeric('percentage_discount', { precision: 7, scale: 4 }),
    priority: integer('priority').notNull().default(0),
    createdOn: at('created_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('settlement_offers_transaction_idx').on(t.tenantId, t.datasetId, t.transactionId),
    foreignKey({
      name: 'settlement_offers_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.transactionId],
      foreignColumns: [transactions.tenantId, transactions.datasetId, transactions.id],
    }).onDelete('cascade'),
  ],
);

/** Files attached to a transaction; the bytes live in the database by default (design §1). */
export const transactionDocuments = pgTable(
  'transaction_documents',
  {
    ...scope(),
    transactionId: uuid('transaction_id').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').notNull(),
    fileSize: integer('file_size').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('transaction_documents_transaction_idx').on(t.tenantId, t.datasetId, t.transactionId),
    foreignKey({
      name: 'transaction_documents_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.transactionId],
      foreignColumns: [transactions.tenantId, transactions.datasetId, transactions.id],
    }).onDelete('cascade'),
  ],
);

/** Requests for money, paid through a link or QR code (spec 2 §3 Payment request). */
export const paymentRequests = pgTable(
  'payment_requests',
  {
    ...scope(),
    requestType: text('request_type').notNull(),
    requestStatus: text('request_status').notNull().default('Open'),
    captureType: text('capture_type').notNull().default('Immediate'),
    usageType: text('usage_type'),
    customerName: text('customer_name'),
    customerReference: text('customer_reference'),
    currency: text('currency').notNull(),
    amountToPay: money('amount_to_pay').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    validFrom: at('valid_from'),
    validUntil: at('valid_until'),
    paymentRequiredBy: day('payment_required_by'),
    description: text('description'),
    paymentTerms: text('payment_terms'),
    test: boolean('test').notNull().default(false),
    accountId: uuid('account_id'),
    billingContact: jsonb('billing_contact'),
    deliveryContact: jsonb('delivery_contact'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('payment_requests_id_key').on(t.id),
    index('payment_requests_created_idx').on(t.tenantId, t.datasetId, t.createdOn, t.id),
    index('payment_requests_account_idx').on(t.tenantId, t.datasetId, t.accountId, t.createdOn),
    index('payment_requests_reference_trgm_idx').using(
      'gin',
      sql`${t.customerReference} gin_trgm_ops`,
    ),
    index('payment_requests_customer_trgm_idx').using('gin', sql`${t.customerName} gin_trgm_ops`),
    index('payment_requests_amount_idx').on(t.tenantId, t.datasetId, t.amountToPay, t.id),
    foreignKey({
      name: 'payment_requests_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'payment_requests_account_fk',
      columns: [t.tenantId, t.datasetId, t.accountId],
      foreignColumns: [accounts.tenantId, accounts.datasetId, accounts.id],
    }).onDelete('cascade'),
  ],
);

/** What a payment request pays of each accounting transaction (spec 2 §3 Transaction allocation). */
export const paymentRequestAllocations = pgTable(
  'payment_request_allocations',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    paymentRequestId: uuid('payment_request_id').notNull(),
    transactionId: uuid('transaction_id').notNull(),
    amount: money('amount'),
    required: boolean('required'),
    canEditAmount: boolean('can_edit_amount'),
    minimumAmount: money('minimum_amount'),
    maximumAmount: money('maximum_amount'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.paymentRequestId, t.transactionId] }),
    index('payment_request_allocations_transaction_idx').on(
      t.tenantId,
      t.datasetId,
      t.transactionId,
    ),
    foreignKey({
      name: 'payment_request_allocations_payment_request_fk',
      columns: [t.tenantId, t.datasetId, t.paymentRequestId],
      foreignColumns: [paymentRequests.tenantId, paymentRequests.datasetId, paymentRequests.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'payment_request_allocations_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.transactionId],
      foreignColumns: [transactions.tenantId, transactions.datasetId, transactions.id],
    }).onDelete('cascade'),
  ],
);

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
    check(
      'payment_transactions_provider_step_check',
      sql`${t.providerStep} in ('ticket', 'challenge', 'challengeAnswered')`,
    ),
    index('payment_transactions_reservation_idx')
      .on(t.tenantId, t.datasetId, t.authorisationExpiresOn, t.id)
      .where(sql`${t.status} = 'Pending'`),
    index('payment_transactions_refund_of_idx')
      .on(t.tenantId, t.datasetId, t.refundOfId, t.createdOn)
      .where(sql`${t.refundOfId} is not null`),
    foreignKey({
      name: 'payment_transactions_refund_of_fk',
      columns: [t.tenantId, t.datasetId, t.refundOfId],
      foreignColumns: [t.tenantId, t.datasetId, t.id],
    }).onDelete('cascade'),
    // spec 2 §9 default sort: statusDateTime descending (a btree reads either way).
    index('payment_transactions_status_date_idx').on(
      t.tenantId,
      t.datasetId,
      t.statusDateTime,
      t.id,
    ),
    index('payment_transactions_status_idx').on(
      t.tenantId,
      t.datasetId,
      t.status,
      t.statusDateTime,
      t.id,
    ),
    // No index holds allocated_status, and migration 0013 gives the table fillfactor 50, so that an
    // allocated-status change (one payment or a 100,000-row import) is a HOT update writing no index
    // entry (docs/decisions/029-the-allocated-status-import-is-one-statement.md "The allocated-status import is one statement").
    index('payment_transactions_customer_trgm_idx').using(
      'gin',
      sql`${t.customerName} gin_trgm_ops`,
    ),
    index('payment_transactions_reference_trgm_idx').using(
      'gin',
      sql`${t.ledgerlineReference} gin_trgm_ops`,
    ),
    index('payment_transactions_company_trgm_idx').using('gin', sql`${t.companyName} gin_trgm_ops`),
    index('payment_transactions_amount_idx').on(t.tenantId, t.datasetId, t.totalAmount, t.id),
    index('payment_transactions_request_idx').on(t.tenantId, t.datasetId, t.paymentRequestId),
    index('payment_transactions_account_idx').on(
      t.tenantId,
      t.datasetId,
      t.accountId,
      t.statusDateTime,
    ),
    index('payment_transactions_payer_idx').on(
      t.tenantId,
      t.datasetId,
      t.payerId,
      t.statusDateTime,
    ),
    foreignKey({
      name: 'payment_transactions_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
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
    foreignKey({
      name: 'payment_allocations_payment_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.paymentTransactionId],
      foreignColumns: [
        paymentTransactions.tenantId,
        paymentTransactions.datasetId,
        paymentTransactions.id,
      ],
    }).onDelete('cascade'),
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
    index('payment_fee_transactions_payment_idx').on(
      t.tenantId,
      t.datasetId,
      t.paymentTransactionId,
    ),
    index('payment_fee_transactions_transaction_idx').on(t.tenantId, t.datasetId, t.transactionId),
    foreignKey({
      name: 'payment_fee_transactions_payment_transaction_fk',
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
    uniqueIndex('payment_disputes_reference_key').on(
      t.tenantId,
      t.datasetId,
      t.paymentTransactionId,
      t.disputeReference,
    ),
    uniqueIndex('payment_disputes_id_key').on(t.id),
    index('payment_disputes_opened_idx').on(t.tenantId, t.datasetId, t.openedOn, t.id),
    index('payment_disputes_stage_idx').on(t.tenantId, t.datasetId, t.stage, t.openedOn, t.id),
    index('payment_disputes_reference_trgm_idx').using(
      'gin',
      sql`${t.disputeReference} gin_trgm_ops`,
    ),
    index('payment_disputes_reason_trgm_idx').using('gin', sql`${t.reason} gin_trgm_ops`),
    foreignKey({
      name: 'payment_disputes_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'payment_disputes_payment_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.paymentTransactionId],
      foreignColumns: [
        paymentTransactions.tenantId,
        paymentTransactions.datasetId,
        paymentTransactions.id,
      ],
    }).onDelete('cascade'),
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
    index('provider_events_payment_idx').on(
      t.tenantId,
      t.datasetId,
      t.paymentTransactionId,
      t.createdOn,
    ),
    foreignKey({
      name: 'provider_events_payment_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.paymentTransactionId],
      foreignColumns: [
        paymentTransactions.tenantId,
        paymentTransactions.datasetId,
        paymentTransactions.id,
      ],
    }).onDelete('cascade'),
  ],
);

/** The company's own bank accounts (spec 2 §3 Bank). */
export const banks = pgTable(
  'banks',
  {
    ...scope(),
    accountName: text('account_name').notNull(),
    currency: text('currency').notNull(),
    description: text('description'),
    accountNumber: text('account_number'),
    sortCode: text('sort_code'),
    iban: text('iban'),
    bankName: text('bank_name'),
    source: text('source'),
    createdOn: at('created_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('banks_id_key').on(t.id),
    index('banks_account_name_idx').on(t.tenantId, t.datasetId, t.accountName, t.id),
    foreignKey({
      name: 'banks_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Idempotency-Key answers of connector creates (design §6): the first answer per key and client,
 * kept at least 24 hours; a retry gets it again, another body under the same key is a 422.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id').notNull(),
    /** The access key or user that sent it. */
    clientId: uuid('client_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    response: jsonb('response'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.clientId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/**
 * The custom host id setting of a company (spec 3 §3, id 'transaction'). No row: the default,
 * NeverCreate twice with no parse value. Its rebuild state is datasets.rebuild_status.
 */
export const customHostIdSettings = pgTable(
  'custom_host_id_settings',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    /** spec 3 §3: the setting's id; 'transaction' is the only one so far. */
    id: text('id').notNull(),
    createOption: text('create_option').notNull(),
    updateOption: text('update_option').notNull(),
    trimWhiteSpace: boolean('trim_white_space').notNull(),
    parseValue: text('parse_value').notNull(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    foreignKey({
      name: 'custom_host_id_settings_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);

export const receivablesTables = [
  'accounts',
  'payers',
  'transactions',
  'settlement_offers',
  'transaction_documents',
  'payment_requests',
  'payment_request_allocations',
  'payment_transactions',
  'payment_allocations',
  'payment_fee_transactions',
  'provider_events',
  'banks',
  'idempotency_keys',
  'custom_host_id_settings',
] as const;
