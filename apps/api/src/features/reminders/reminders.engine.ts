import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import type { ReminderPreviewItem } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Executor, Tx } from '../../db/client.js';
import { auditActivities, tenantSettings } from '../../db/schema.js';
import {
  reminderInvoiceSteps,
  reminderSchedules,
  reminders,
  type ReminderInvoice,
  type StoredReminderStep,
} from '../../db/schema-reminders.js';
import { loadMoneyRules } from '../money-rules/index.js';
import { quoteTransactions } from '../money-rules/index.js';
import type { MoneyRules } from '../money-rules/index.js';
import { readMailCompany } from '../notifications/index.js';
import { defaultReminderScheduleId } from './reminder-schedules.repository.js';
import { renderReminder, totalsOf, type ReminderTotal } from './reminder-mail.js';
import { type DatasetScope, inDataset, inTenant } from '../../platform/scope.js';

/**
 * The statement link of an account for a reminder (the statements feature issues it, one per
 * mail); null: no link could be issued, the {statementLink} placeholder stays empty.
 */
export type StatementLinkIssuer = (
  tx: Tx,
  scope: DatasetScope,
  accountId: string,
) => Promise<{ url: string } | null>;

/** Accounts read per batch: memory stays flat whatever the company's size. */
export const reminderBatchSize = 500;

/** The debts a reminder is about (the aged receivables' debit types). */
const remindedTypes = sql`('Invoice', 'BalanceIncreasingTransaction')`;

interface BatchRow {
  id: string;
  accountReference: string;
  name: string;
  emailAddresses: unknown;
  disputed: boolean;
  paused: boolean;
  scheduleId: string | null;
  /** [id, reference, dueDate, currency, transactionDate, amount, allocated, discounted, dueSteps, sentSteps] */
  invoices: unknown;
}

type InvoiceRow = [
  id: string,
  reference: string,
  dueDate: string,
  currency: string,
  transactionDate: string,
  amount: string,
  allocated: string,
  discounted: string,
  dueSteps: [string, number][],
  sentSteps: string[] | null,
];

/** An invoice a step now falls on or before, with the step it is reminded at. */
interface DueInvoice {
  row: InvoiceRow;
  /** The latest step that falls on or before the day: the one the mail is sent for. */
  step: { id: string; days: number };
  /** Every step that falls on or before the day and was not sent: each is then sent, once. */
  newSteps: string[];
}

export interface PlannedReminder {
  accountId: string;
  accountReference: string;
  accountName: string;
  emailAddress: string;
  scheduleId: string;
  scheduleName: string;
  /** The template of the most advanced step among the invoices. */
  step: StoredReminderStep;
  invoices: ReminderInvoice[];
  totals: ReminderTotal[];
  newSteps: { transactionId: string; stepId: string }[];
}

export interface Skipped {
  disputed: number;
  paused: number;
  noEmailAddress: number;
}

const json = <T>(value: unknown, fallback: T): T =>
  value === null || value === undefined
    ? fallback
    : typeof value === 'string'
      ? (JSON.parse(value) as T)
      : (value as T);

/** The address a reminder goes to: the account's default e-mail address, else its first. */
function addressOf(value: unknown): string | null {
  const list = json<{ emailAddress?: string | null; isDefault?: boolean }[]>(value, []);
  const chosen =
    list.find((item) => item.isDefault && item.emailAddress) ??
    list.find((item) => item.emailAddress);
  return chosen?.emailAddress?.trim() || null;
}

/** Whether the tenant lets Ledgerline mail its customers (spec 1 tenant settings). */
export async function customerNotificationsAllowed(executor: Executor, tenantId: string) {
  const [row] = await executor
    .select({ value: tenantSettings.value })
    .from(tenantSettings)
    .where(
      and(
        inTenant(tenantSettings, { tenantId }),
        eq(tenantSettings.name, 'AllowCustomerNotifications'),
      ),
    );
  return row?.value === 'true';
}

/**
 * One batch of accounts after `after` (by id), with their open invoices that a step of their
 * schedule falls on or before `day`, each with the due steps and the steps already sent. Accounts
 * with reminders off ('none', or no schedule and no default) are not read at all; the open-items
 * index (transactions_open_idx) finds each account's open invoices.
 */
async function readBatch(
  executor: Executor,
  scope: DatasetScope,
  day: string,
  defaultScheduleId: string | null,
  after: string | null,
  accountId: string | null,
): Promise<BatchRow[]> {
  const t = sql`${scope.tenantId}::uuid`;
  const d = sql`${scope.datasetId}::integer`;
  const onDay = sql`${day}::date`;
  const schedule = sql`coalesce(a.reminder_schedule_id, ${defaultScheduleId}::uuid)`;
  const result = await executor.execute(sql`
    with acc as (
      select a.id, a.account_reference, a.name, a.email_addresses, a.disputed_amount, a.reminders_paused,
        ${schedule} as schedule_id
      from accounts a
      where a.tenant_id = ${t} and a.dataset_id = ${d}
        and not a.disable_reminders and ${schedule} is not null
        ${after === null ? sql`` : sql`and a.id > ${after}::uuid`}
        ${accountId === null ? sql`` : sql`and a.id = ${accountId}::uuid`}
      order by a.id
      limit ${reminderBatchSize}
    )
    select acc.id, acc.account_reference as "accountReference", acc.name,
      acc.email_addresses as "emailAddresses", acc.disputed_amount <> 0 as disputed,
      acc.reminders_paused as paused, rs.id as "scheduleId",
      (select json_agg(json_build_array(t.id, t.transaction_reference, t.due_date, t.currency,
           t.transaction_date, t.transaction_amount::text, t.allocated_amount::text,
           t.discounted_amount::text,
           (select json_agg(json_build_array(s.value->>'id', (s.value->>'days')::integer))
              from jsonb_array_elements(rs.steps) s
              where t.due_date + (s.value->>'days')::integer <= ${onDay}),
           (select json_agg(r.step_id) from reminder_invoice_steps r
              where r.tenant_id = ${t} and r.dataset_id = ${d} and r.transaction_id = t.id))
           order by t.due_date, t.id)
         from transactions t
         where t.tenant_id = ${t} and t.dataset_id = ${d} and t.account_id = acc.id
           and abs(t.allocated_amount) + abs(t.discounted_amount) < abs(t.transaction_amount)
           and t.transaction_type in ${remindedTypes} and t.transaction_amount > 0
           and t.due_date is not null
           and t.due_date + (select min((s.value->>'days')::integer) from jsonb_array_elements(rs.steps) s) <= ${onDay}
      ) as invoices
    from acc
    left join reminder_schedules rs on rs.tenant_id = ${t} and rs.dataset_id = ${d} and rs.id = acc.schedule_id
    order by acc.id`);
  return (result as unknown as { rows: BatchRow[] }).rows;
}

/** The invoices of an account that get a reminder now: their latest due step not sent yet. */
function dueInvoicesOf(row: BatchRow): DueInvoice[] {
  const due: DueInvoice[] = [];
  for (const invoice of json<InvoiceRow[]>(row.invoices, [])) {
    const steps = [...(invoice[8] ?? [])].sort((a, b) => a[1] - b[1]);
    const latest = steps.at(-1);
    if (!latest) continue;
    const sent = new Set(invoice[9] ?? []);
    // A step once sent is never sent again, and neither is an earlier one (it was passed).
    if (sent.has(latest[0])) continue;
    due.push({
      row: invoice,
      step: { id: latest[0], days: latest[1] },
      newSteps: steps.filter(([id]) => !sent.has(id)).map(([id]) => id),
    });
  }
  return due;
}

export interface PlannedBatch {
  /** The last account id read; null when the company has no more accounts. */
  last: string | null;
  planned: PlannedReminder[];
  skipped: Skipped;
}

/**
 * Reads and plans one batch: which accounts get one mail, listing which invoices, at which step,
 * with the late fees to date of the money rules (quoted on `day`). Accounts with a disputed amount
 * or paused reminders, and those without an e-mail address, are counted and left out.
 */
export async function planBatch(
  executor: Executor,
  scope: DatasetScope,
  context: RunContext,
  after: string | null,
): Promise<PlannedBatch> {
  const rows = await readBatch(
    executor,
    scope,
    context.day,
    context.defaultScheduleId,
    after,
    context.accountId,
  );
  const skipped: Skipped = { disputed: 0, paused: 0, noEmailAddress: 0 };
  const chosen: { row: BatchRow; email: string; due: DueInvoice[] }[] = [];
  for (const row of rows) {
    if (row.scheduleId === null) continue;
    const due = dueInvoicesOf(row);
    if (due.length === 0) continue;
    if (row.disputed) skipped.disputed += 1;
    else if (row.paused) skipped.paused += 1;
    else {
      const email = addressOf(row.emailAddresses);
      if (email === null) skipped.noEmailAddress += 1;
      else chosen.push({ row, email, due });
    }
  }
  const items = chosen.flatMap(({ row, due }) =>
    due.map(({ row: invoice }) => ({
      id: invoice[0],
      accountId: row.id,
      currency: invoice[3],
      transactionDate: invoice[4],
      dueDate: invoice[2],
      transactionAmount: invoice[5],
      allocatedAmount: invoice[6],
      discountedAmount: invoice[7],
    })),
  );
  const quotes = await quoteTransactions(executor, scope, items, context.day, context.rules);
  const quoteOf = new Map(quotes.map((quote) => [quote.transactionId, quote]));
  const planned = chosen.map(({ row, email, due }): PlannedReminder => {
    const schedule = context.schedules.get(row.scheduleId!)!;
    const invoices = due.map(({ row: invoice, step }): ReminderInvoice => {
      const quote = quoteOf.get(invoice[0]);
      const fees = (quote?.fees ?? []).reduce((sum, fee) => sum.plus(fee.amount), new Big(0));
      return {
        transactionId: invoice[0],
        transactionReference: invoice[1],
        dueDate: invoice[2],
        currency: invoice[3],
        outstandingAmount: new Big(quote?.outstandingAmount ?? invoice[5]).toFixed(4),
        lateFees: fees.toFixed(4),
        stepId: step.id,
        days: step.days,
      };
    });
    const furthest = due.reduce((a, b) => (b.step.days > a.step.days ? b : a)).step.id;
    return {
      accountId: row.id,
      accountReference: row.accountReference,
      accountName: row.name,
      emailAddress: email,
      scheduleId: row.scheduleId!,
      scheduleName: schedule.name,
      step: schedule.steps.find((step) => step.id === furthest) ?? schedule.steps.at(-1)!,
      invoices,
      totals: totalsOf(invoices),
      newSteps: due.flatMap(({ row: invoice, newSteps }) =>
        newSteps.map((stepId) => ({ transactionId: invoice[0], stepId })),
      ),
    };
  });
  return { last: rows.at(-1)?.id ?? null, planned, skipped };
}

/** What a run reads once: the day, the rules, the schedules, the default, the company's name. */
export interface RunContext {
  day: string;
  accountId: string | null;
  rules: MoneyRules;
  schedules: Map<string, { name: string; steps: StoredReminderStep[] }>;
  defaultScheduleId: string | null;
  companyName: string;
  allowed: boolean;
}

export async function readRunContext(
  executor: Executor,
  scope: DatasetScope,
  day: string,
  accountId: string | null,
): Promise<RunContext> {
  const [rules, scheduleRows, defaultScheduleId, company, allowed] = await Promise.all([
    loadMoneyRules(executor, scope),
    executor
      .select({
        id: reminderSchedules.id,
        name: reminderSchedules.name,
        steps: reminderSchedules.steps,
      })
      .from(reminderSchedules)
      .where(and(inDataset(reminderSchedules, scope))),
    defaultReminderScheduleId(executor, scope),
    readMailCompany(executor as Tx, scope),
    customerNotificationsAllowed(executor, scope.tenantId),
  ]);
  return {
    day,
    accountId,
    rules,
    schedules: new Map(scheduleRows.map((row) => [row.id, { name: row.name, steps: row.steps }])),
    defaultScheduleId,
    companyName: company.companyName,
    allowed,
  };
}

/** A planned reminder as the preview shows it. */
export function toPreviewItem(planned: PlannedReminder, context: RunContext): ReminderPreviewItem {
  const rendered = renderReminder(planned.step, {
    company: context.companyName,
    account: planned.accountName,
    invoices: planned.invoices,
    totals: planned.totals,
    statementUrl: null,
  });
  return {
    accountId: planned.accountId,
    accountReference: planned.accountReference,
    accountName: planned.accountName,
    emailAddress: planned.emailAddress,
    scheduleId: planned.scheduleId,
    scheduleName: planned.scheduleName,
    subject: rendered.subject,
    invoices: planned.invoices.map(toInvoiceBody),
    totals: planned.totals.map(toTotalBody),
  };
}

export const toInvoiceBody = (invoice: ReminderInvoice) => ({
  ...invoice,
  outstandingAmount: Number(invoice.outstandingAmount),
  lateFees: Number(invoice.lateFees),
});
export const toTotalBody = (total: ReminderTotal) => ({
  currency: total.currency,
  totalOwed: Number(total.totalOwed),
  lateFees: Number(total.lateFees),
});

/** Who a reminder's audit activity names: the member of staff of Send now, or the schedule. */
export interface ReminderActor {
  userId: string | null;
  userName: string;
  accessKeyId: string | null;
  ipAddress: string | null;
  requestId: string | null;
}

/**
 * Keeps a batch's reminders in the caller's transaction: the reminders (the mail outbox), the
 * steps they send (each once per invoice: the key refuses a second; the batch was planned under
 * lockCompanyRun, so no other run of the company took one meanwhile) and one audit activity each.
 * Answers the ids written.
 */
export async function writeBatch(
  tx: Tx,
  scope: DatasetScope,
  context: RunContext,
  planned: readonly PlannedReminder[],
  source: 'Schedule' | 'SendNow',
  actor: ReminderActor,
  statementLink: StatementLinkIssuer | null,
): Promise<{ ids: string[]; invoices: number }> {
  if (planned.length === 0) return { ids: [], invoices: 0 };
  const rows: (typeof reminders.$inferInsert)[] = [];
  const steps: (typeof reminderInvoiceSteps.$inferInsert)[] = [];
  // One link per mail, the batch's issued together: their statements queue on the transaction's
  // connection without waiting for each other (node-postgres pipelines them).
  const links = statementLink
    ? await Promise.all(planned.map((reminder) => statementLink(tx, scope, reminder.accountId)))
    : planned.map(() => null);
  for (const [index, reminder] of planned.entries()) {
    const id = uuidv7();
    const link = links[index] ?? null;
    const rendered = renderReminder(reminder.step, {
      company: context.companyName,
      account: reminder.accountName,
      invoices: reminder.invoices,
      totals: reminder.totals,
      statementUrl: link?.url ?? null,
    });
    rows.push({
      ...scope,
      id,
      accountId: reminder.accountId,
      scheduleId: reminder.scheduleId,
      runOn: context.day,
      source,
      emailAddress: reminder.emailAddress,
      subject: rendered.subject,
      body: rendered.text,
      html: rendered.html,
      statementUrl: link?.url ?? null,
      invoices: reminder.invoices,
      totals: reminder.totals,
    });
    for (const step of reminder.newSteps) steps.push({ ...scope, ...step, reminderId: id });
  }
  await tx.insert(reminders).values(rows);
  await tx.insert(reminderInvoiceSteps).values(steps);
  await tx.insert(auditActivities).values(
    rows.map((row) => ({
      tenantId: scope.tenantId,
      id: uuidv7(),
      datasetId: scope.datasetId,
      operation: 'SendReminder',
      resourceType: 'Account',
      resourceId: row.accountId,
      userId: actor.userId,
      userName: actor.userName,
      accessKeyId: actor.accessKeyId,
      status: 201,
      ipAddress: actor.ipAddress,
      requestId: actor.requestId,
    })),
  );
  return {
    ids: rows.map((row) => row.id!),
    invoices: planned.reduce((sum, reminder) => sum + reminder.invoices.length, 0),
  };
}

/** One run's batches serialise with any other run of the company (the schedule, Send now). */
export async function lockCompanyRun(tx: Tx, scope: DatasetScope) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`reminders:${scope.tenantId}:${scope.datasetId}`}, 0))`,
  );
}
