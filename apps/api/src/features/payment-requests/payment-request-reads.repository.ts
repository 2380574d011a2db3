import { and, desc, eq, inArray, like, or, sql } from 'drizzle-orm';
import { notificationDeliveries } from '../../db/schema-company.js';
import type {
  PaymentRequest,
  PaymentRequestMail,
  PaymentRequestPayment,
  PaymentRequestTransaction,
  UsageType,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  paymentFeeTransactions,
  paymentRequestAllocations,
  paymentTransactions,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';

import { type DatasetScope, inDataset } from '../../platform/scope.js';

const a = paymentRequestAllocations;

export interface PayableTransaction {
  id: string;
  accountId: string;
  transactionType: string;
  transactionReference: string;
  currency: string;
  paidStatus: string;
  owed: string;
}

/** notification_deliveries' name for a mail of a request's link (POST payment-requests/{id}/send). */
export const paymentRequestLinkMail = 'PaymentRequestLink';
/** Each sending's event key starts with this; a UUID has no LIKE wildcard in it. */
export const requestLinkEventPrefix = (requestId: string) => `payment-request:${requestId}:send:`;

export async function accountsById(executor: Executor, scope: DatasetScope, ids: string[]) {
  if (ids.length === 0) return new Map<string, NonNullable<PaymentRequest['account']>>();
  const rows = await executor
    .select({
      id: accounts.id,
      accountReference: accounts.accountReference,
      name: accounts.name,
      defaultUsageType: accounts.defaultUsageType,
    })
    .from(accounts)
    .where(and(inDataset(accounts, scope), inArray(accounts.id, ids)));
  return new Map(
    rows.map((row) => [
      row.id,
      { ...row, defaultUsageType: row.defaultUsageType as UsageType | null },
    ]),
  );
}

export async function findAccount(executor: Executor, scope: DatasetScope, id: string) {
  const [row] = await executor
    .select()
    .from(accounts)
    .where(and(inDataset(accounts, scope), eq(accounts.id, id)));
  return row ?? null;
}

/** What each transaction still owes (spec 2 §4 amount owed), as exact numeric text. */
export async function outstandingOf(
  executor: Executor,
  scope: DatasetScope,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({
      id: transactions.id,
      owed: sql<string>`(${transactions.transactionAmount} - ${transactions.allocatedAmount} - ${transactions.discountedAmount})::text`,
    })
    .from(transactions)
    .where(and(inDataset(transactions, scope), inArray(transactions.id, ids)));
  return new Map(rows.map((row) => [row.id, row.owed]));
}

/**
 * The transactions a new request asks for, locked until the request commits, with what each
 * still owes (spec 2 §4 amount owed) as exact numeric text. Only this company's rows.
 */
export async function payableTransactions(executor: Executor, scope: DatasetScope, ids: string[]) {
  if (ids.length === 0) return new Map<string, PayableTransaction>();
  const rows = await executor
    .select({
      id: transactions.id,
      accountId: transactions.accountId,
      transactionType: transactions.transactionType,
      transactionReference: transactions.transactionReference,
      currency: transactions.currency,
      paidStatus: transactions.paidStatus,
      owed: sql<string>`(${transactions.transactionAmount} - ${transactions.allocatedAmount} - ${transactions.discountedAmount})::text`,
    })
    .from(transactions)
    .where(and(inDataset(transactions, scope), inArray(transactions.id, ids)))
    .for('update');
  return new Map<string, PayableTransaction>(rows.map((row) => [row.id, row]));
}

export async function transactionsById(
  executor: Executor,
  scope: DatasetScope,
  ids: string[],
): Promise<Map<string, PaymentRequestTransaction>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select()
    .from(transactions)
    .where(and(inDataset(transactions, scope), inArray(transactions.id, ids)));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        transactionType: row.transactionType,
        transactionReference: row.transactionReference,
        transactionDate: row.transactionDate,
        dueDate: row.dueDate,
        currency: row.currency,
        transactionAmount: Number(row.transactionAmount),
        discountedAmount: Number(row.discountedAmount),
        allocatedAmount: Number(row.allocatedAmount),
        paidStatus: row.paidStatus,
      },
    ]),
  );
}

/** The request's payment attempts, newest first. */
export async function paymentsOf(
  executor: Executor,
  scope: DatasetScope,
  requestId: string,
): Promise<PaymentRequestPayment[]> {
  return (await paymentsOfMany(executor, scope, [requestId])).get(requestId) ?? [];
}

/**
 * Several requests' payment attempts in one read (a batch of settled payments' web hook
 * payloads), each request's newest first.
 */
export async function paymentsOfMany(
  executor: Executor,
  scope: DatasetScope,
  requestIds: string[],
): Promise<Map<string, PaymentRequestPayment[]>> {
  const byRequest = new Map<string, PaymentRequestPayment[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return byRequest;
  const t = paymentTransactions;
  const rows = await executor
    .select({
      paymentRequestId: t.paymentRequestId,
      id: t.id,
      createdOn: t.createdOn,
      statusDateTime: t.statusDateTime,
      ledgerlineReference: t.ledgerlineReference,
      status: t.status,
      totalAmount: t.totalAmount,
      currency: t.currency,
    })
    .from(t)
    .where(
      and(
        inDataset(t, scope),
        requestIds.length === 1
          ? eq(t.paymentRequestId, requestIds[0]!)
          : inArray(t.paymentRequestId, requestIds),
      ),
    )
    .orderBy(desc(t.createdOn), desc(t.id));
  for (const { paymentRequestId, ...row } of rows)
    byRequest.get(paymentRequestId!)?.push({
      ...row,
      createdOn: row.createdOn.toISOString(),
      statusDateTime: row.statusDateTime.toISOString(),
      totalAmount: Number(row.totalAmount),
    });
  return byRequest;
}

/** The mails of the request's link sent to its payer, newest first. */
export async function mailsOf(
  executor: Executor,
  scope: DatasetScope,
  requestId: string,
): Promise<PaymentRequestMail[]> {
  return (await mailsOfMany(executor, scope, [requestId])).get(requestId) ?? [];
}

/** Several requests' link mails in one read, each request's newest first. */
export async function mailsOfMany(
  executor: Executor,
  scope: DatasetScope,
  requestIds: string[],
): Promise<Map<string, PaymentRequestMail[]>> {
  const byRequest = new Map<string, PaymentRequestMail[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return byRequest;
  const d = notificationDeliveries;
  const prefixes = requestIds.map((id) => [id, requestLinkEventPrefix(id)] as const);
  const rows = await executor
    .select({ eventKey: d.eventKey, sentOn: d.sentOn, emailAddress: d.emailAddress })
    .from(d)
    .where(
      and(
        inDataset(d, scope),
        eq(d.notificationName, paymentRequestLinkMail),
        or(...prefixes.map(([, prefix]) => like(d.eventKey, `${prefix}%`))),
      ),
    )
    .orderBy(desc(d.sentOn));
  for (const { eventKey, ...row } of rows) {
    // The prefix is the request id and a separator: one request's prefix never starts another's.
    const owner = prefixes.find(([, prefix]) => eventKey.startsWith(prefix));
    if (owner) byRequest.get(owner[0])!.push({ ...row, sentOn: row.sentOn.toISOString() });
  }
  return byRequest;
}

/**
 * spec 2 §4: settlement discounts (a Used offer on one of its transactions) or late payments (a
 * fee line on one of its transactions or payments) are applied to the request.
 */
export async function hasDiscountsOrLatePayments(
  executor: Executor,
  scope: DatasetScope,
  requestId: string,
): Promise<boolean> {
  const transactionIds = executor
    .select({ id: a.transactionId })
    .from(a)
    .where(and(inDataset(a, scope), eq(a.paymentRequestId, requestId)));
  const paymentIds = executor
    .select({ id: paymentTransactions.id })
    .from(paymentTransactions)
    .where(
      and(
        inDataset(paymentTransactions, scope),
        eq(paymentTransactions.paymentRequestId, requestId),
      ),
    );
  const [used] = await executor
    .select({ id: settlementOffers.id })
    .from(settlementOffers)
    .where(
      and(
        inDataset(settlementOffers, scope),
        eq(settlementOffers.status, 'Used'),
        inArray(settlementOffers.transactionId, transactionIds),
      ),
    )
    .limit(1);
  if (used) return true;
  const f = paymentFeeTransactions;
  const [fee] = await executor
    .select({ id: f.id })
    .from(f)
    .where(
      and(
        inDataset(f, scope),
        or(inArray(f.transactionId, transactionIds), inArray(f.paymentTransactionId, paymentIds)),
      ),
    )
    .limit(1);
  return fee !== undefined;
}

/** Whether a payment of the request is still Processing and was started since `since`. */
export async function paymentInProgress(
  executor: Executor,
  scope: DatasetScope,
  requestId: string,
  since: Date,
): Promise<boolean> {
  const t = paymentTransactions;
  const [row] = await executor
    .select({ id: t.id })
    .from(t)
    .where(
      and(
        inDataset(t, scope),
        eq(t.paymentRequestId, requestId),
        eq(t.status, 'Processing'),
        sql`${t.createdOn} >= ${since.toISOString()}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function hasPayments(
  executor: Executor,
  scope: DatasetScope,
  requestId: string,
): Promise<boolean> {
  const t = paymentTransactions;
  const [row] = await executor
    .select({ id: t.id })
    .from(t)
    .where(and(inDataset(t, scope), eq(t.paymentRequestId, requestId)))
    .limit(1);
  return row !== undefined;
}
