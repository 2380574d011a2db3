import { sql } from 'drizzle-orm';
import {
  date,
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
import { datasets as datasetsRef } from './schema.js';
import { accounts, transactions } from './schema-receivables.js';

// Reminder schedules, the reminders sent and the daily runs (migration 0033). Every
// table leads its key with (tenant_id, dataset_id), cascades from its company and is protected by
// row-level security.

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** One step of a schedule as stored: days from the due date (negative: before) and its template. */
export interface StoredReminderStep {
  id: string;
  days: number;
  subject: string;
  body: string;
}

export const reminderSchedules = pgTable(
  'reminder_schedules',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    steps: jsonb('steps').$type<StoredReminderStep[]>().notNull().default([]),
    createdOn: at('created_on').notNull().defaultNow(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('reminder_schedules_name_idx').on(t.tenantId, t.datasetId, t.name, t.id),
    foreignKey({
      name: 'reminder_schedules_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);

/** One invoice a reminder listed, as the mail showed it. */
export interface ReminderInvoice {
  transactionId: string;
  transactionReference: string;
  dueDate: string | null;
  currency: string;
  outstandingAmount: string;
  lateFees: string;
  stepId: string;
  days: number;
}

/** A reminder mail to an account: kept whole (the account's Reminders tab) and the mail outbox. */
export const reminders = pgTable(
  'reminders',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    accountId: uuid('account_id').notNull(),
    scheduleId: uuid('schedule_id'),
    runOn: date('run_on', { mode: 'string' }).notNull(),
    /** 'Schedule' (the daily run) or 'SendNow' (a member of staff, one account). */
    source: text('source').notNull(),
    emailAddress: text('email_address').notNull(),
    subject: text('subject').notNull(),
    /** The mail's text part, as sent. */
    body: text('body').notNull(),
    /** The mail's HTML part (without the company's logo and footer, added when it is mailed). */
    html: text('html').notNull(),
    statementUrl: text('statement_url'),
    invoices: jsonb('invoices').$type<ReminderInvoice[]>().notNull(),
    /** [{ currency, totalOwed, lateFees }] */
    totals: jsonb('totals')
      .$type<{ currency: string; totalOwed: string; lateFees: string }[]>()
      .notNull(),
    /** 'Queued', 'Sending' while a sender holds it, then 'Sent' (or 'Failed' with the error). */
    status: text('status').notNull().default('Queued'),
    errorMessage: text('error_message'),
    createdOn: at('created_on').notNull().defaultNow(),
    claimedOn: at('claimed_on'),
    sentOn: at('sent_on'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('reminders_account_idx').on(t.tenantId, t.datasetId, t.accountId, t.createdOn, t.id),
    index('reminders_outbox_idx')
      .on(t.tenantId, t.datasetId, t.id)
      .where(sql`${t.status} in ('Queued', 'Sending')`),
    foreignKey({
      name: 'reminders_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reminders_account_fk',
      columns: [t.tenantId, t.datasetId, t.accountId],
      foreignColumns: [accounts.tenantId, accounts.datasetId, accounts.id],
    }).onDelete('cascade'),
  ],
);

/** The steps already sent for an invoice: a step goes out once per invoice. */
export const reminderInvoiceSteps = pgTable(
  'reminder_invoice_steps',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    transactionId: uuid('transaction_id').notNull(),
    stepId: uuid('step_id').notNull(),
    reminderId: uuid('reminder_id').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'reminder_invoice_steps_pk',
      columns: [t.tenantId, t.datasetId, t.transactionId, t.stepId],
    }),
    foreignKey({
      name: 'reminder_invoice_steps_transaction_fk',
      columns: [t.tenantId, t.datasetId, t.transactionId],
      foreignColumns: [transactions.tenantId, transactions.datasetId, transactions.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reminder_invoice_steps_reminder_fk',
      columns: [t.tenantId, t.datasetId, t.reminderId],
      foreignColumns: [reminders.tenantId, reminders.datasetId, reminders.id],
    }).onDelete('cascade'),
  ],
);

/** A company's scheduled run of a day (its own zone): one per day. */
export const reminderRuns = pgTable(
  'reminder_runs',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    runOn: date('run_on', { mode: 'string' }).notNull(),
    startedOn: at('started_on').notNull().defaultNow(),
    finishedOn: at('finished_on'),
    reminders: integer('reminders').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'reminder_runs_pk', columns: [t.tenantId, t.datasetId, t.runOn] }),
    foreignKey({
      name: 'reminder_runs_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);
