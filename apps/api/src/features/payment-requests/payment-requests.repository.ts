import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { notificationDeliveries } from '../../db/schema-company.js';
import type {
  PageQuery,
  PaymentRequest,
  TransactionAllocation,
  paymentRequestQuery,
} from '@ledgerline/contract';
import type { Executor, Tx } from '../../db/client.js';
import {
  paymentRequestAllocations,
  paymentRequests,
  transactions,
} from '../../db/schema-receivables.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { countRows, pageTotal } from '../../platform/paging/count.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';
import {
  accountsById,
  findAccount,
  outstandingOf,
  payableTransactions,
  transactionsById,
  paymentsOf,
  paymentsOfMany,
  mailsOf,
  mailsOfMany,
  hasDiscountsOrLatePayments,
  paymentInProgress,
  hasPayments,
  paymentRequestLinkMail,
} from './payment-request-reads.repository.js';

type Row = typeof paymentRequests.$inferSelect;
type AllocationRow = typeof paymentRequestAllocations.$inferSelect;
type Fields = (typeof paymentRequestQuery)['fields'];
export type PaymentRequestRow = Row;
export type PaymentRequestValues = Omit<
  typeof paymentRequests.$inferInsert,
  'tenantId' | 'datasetId'
>;
export type TransactionValues = Omit<typeof transactions.$inferInsert, 'tenantId' | 'datasetId'>;
export type AllocationValues = Omit<AllocationRow, 'tenantId' | 'datasetId' | 'paymentRequestId'>;

const r = paymentRequests;
const a = paymentRequestAllocations;
const amount = (value: string | null) => (value === null ? null : Number(value));
const iso = (value: Date | null) => (value === null ? null : value.toISOString());
const money = (value: number | null) => (value === null ? null : String(value));

const columns = {
  id: r.id,
  requestType: r.requestType,
  requestStatus: r.requestStatus,
  captureType: r.captureType,
  customerName: r.customerName,
  customerReference: r.customerReference,
  currency: r.currency,
  amountToPay: r.amountToPay,
  createdOn: r.createdOn,
  validUntil: r.validUntil,
  accountId: r.accountId,
};

export function toAllocation(row: AllocationRow): TransactionAllocation {
  return {
    transactionId: row.transactionId,
    amount: amount(row.amount),
    required: row.required,
    canEditAmount: row.canEditAmount,
    minimumAmount: amount(row.minimumAmount),
    maximumAmount: amount(row.maximumAmount),
  };
}

/** The stored request as the API shows it; `extra` carries the parts a caller loaded. */
export function toPaymentRequest(
  row: Row,
  requestUrl: string,
  account: PaymentRequest['account'],
  extra: Partial<
    Pick<
      PaymentRequest,
      | 'transactionAllocations'
      | 'transactions'
      | 'paymentTransactions'
      | 'canEdit'
      | 'canChangeUsage'
      | 'mails'
    >
  > = {},
): PaymentRequest {
  return {
    id: row.id,
    requestType: row.requestType as PaymentRequest['requestType'],
    requestStatus: row.requestStatus as PaymentRequest['requestStatus'],
    captureType: row.captureType as PaymentRequest['captureType'],
    customerName: row.customerName,
    customerReference: row.customerReference,
    currency: row.currency,
    amountToPay: Number(row.amountToPay),
    createdOn: row.createdOn.toISOString(),
    validFrom: iso(row.validFrom),
    validUntil: iso(row.validUntil),
    paymentRequiredBy: row.paymentRequiredBy,
    description: row.description,
    paymentTerms: row.paymentTerms,
    test: row.test,
    requestUrl,
    accountId: row.accountId,
    account,
    billingContact: (row.billingContact as PaymentRequest['billingContact']) ?? null,
    deliveryContact: (row.deliveryContact as PaymentRequest['deliveryContact']) ?? null,
    options: { usage: (row.usageType as 'Single' | 'Multiple' | null) ?? null },
    ...extra,
  };
}

/** One page; the index (tenant, dataset, created_on, id) serves the default order. */
async function readRequestsPage(
  executor: Executor,
  scope: DatasetScope,
  query: PageQuery<Fields, 'transactions'>,
) {
  const compiled = compilePageQuery(query, { columns, tieBreaker: r.id });
  const where = and(inDataset(r, scope), compiled.where);
  const rows = await executor
    .select()
    .from(r)
    .where(where)
    .orderBy(...compiled.orderBy)
    .limit(compiled.limit)
    .offset(compiled.offset);
  const total = await pageTotal(executor, r, where, {
    offset: compiled.offset,
    limit: compiled.limit,
    rows: rows.length,
    wholeList: compiled.where === undefined,
  });
  return { rows, total };
}

async function countRequests(
  executor: Executor,
  scope: DatasetScope,
  query: Pick<PageQuery<Fields>, 'filters'>,
) {
  const compiled = compilePageQuery(
    { page: 1, itemsPerPage: 1, sort: [], ...query },
    { columns, tieBreaker: r.id },
  );
  return countRows(executor, r, and(inDataset(r, scope), compiled.where));
}

async function findRequest(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  forUpdate = false,
): Promise<Row | null> {
  const query = executor
    .select()
    .from(r)
    .where(and(inDataset(r, scope), eq(r.id, id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** Several requests by id (those not found left out). */
async function findRequests(
  executor: Executor,
  scope: DatasetScope,
  ids: string[],
): Promise<Row[]> {
  if (ids.length === 0) return [];
  return executor
    .select()
    .from(r)
    .where(and(inDataset(r, scope), inArray(r.id, ids)));
}

async function allocationsOf(
  executor: Executor,
  scope: DatasetScope,
  requestIds: string[],
): Promise<AllocationRow[]> {
  if (requestIds.length === 0) return [];
  return executor
    .select()
    .from(a)
    .where(and(inDataset(a, scope), inArray(a.paymentRequestId, requestIds)))
    .orderBy(a.paymentRequestId, a.transactionId);
}

async function insertTransaction(
  executor: Executor,
  scope: DatasetScope,
  values: TransactionValues,
) {
  await executor
    .insert(transactions)
    .values({ ...values, tenantId: scope.tenantId, datasetId: scope.datasetId });
}

async function insertRequest(
  executor: Executor,
  scope: DatasetScope,
  values: PaymentRequestValues,
): Promise<Row> {
  const [row] = await executor
    .insert(r)
    .values({ ...values, tenantId: scope.tenantId, datasetId: scope.datasetId })
    .returning();
  return row!;
}

async function insertAllocation(
  executor: Executor,
  scope: DatasetScope,
  paymentRequestId: string,
  values: AllocationValues,
) {
  await executor.insert(a).values({
    ...values,
    paymentRequestId,
    tenantId: scope.tenantId,
    datasetId: scope.datasetId,
  });
}

async function updateRequest(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  values: Partial<PaymentRequestValues>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await executor
    .update(r)
    .set(values)
    .where(and(inDataset(r, scope), eq(r.id, id)));
}

async function updateAllocation(
  executor: Executor,
  scope: DatasetScope,
  paymentRequestId: string,
  allocation: {
    transactionId: string;
    amount: number | null;
    required: boolean | null;
    canEditAmount: boolean | null;
    minimumAmount: number | null;
    maximumAmount: number | null;
  },
): Promise<void> {
  const where: SQL | undefined = and(
    inDataset(a, scope),
    eq(a.paymentRequestId, paymentRequestId),
    eq(a.transactionId, allocation.transactionId),
  );
  await executor
    .update(a)
    .set({
      amount: money(allocation.amount),
      required: allocation.required,
      canEditAmount: allocation.canEditAmount,
      minimumAmount: money(allocation.minimumAmount),
      maximumAmount: money(allocation.maximumAmount),
    })
    .where(where);
}

/** The payment requests' reads and writes, and those of the rows they name. */
export function createPaymentRequestsRepository() {
  return {
    page: readRequestsPage,
    count: countRequests,
    find: findRequest,
    findMany: findRequests,
    insert: insertRequest,
    update: updateRequest,
    allocationsOf,
    insertAllocation,
    updateAllocation,
    insertTransaction,
    accountsById,
    findAccount,
    outstandingOf,
    payableTransactions,
    transactionsById,
    paymentsOf,
    paymentsOfMany,
    mailsOf,
    mailsOfMany,
    hasDiscountsOrLatePayments,
    paymentInProgress,
    hasPayments,
  };
}
export type PaymentRequestsRepository = ReturnType<typeof createPaymentRequestsRepository>;

/**
 * Up to `limit` Open or PartCompleted requests of every company past their valid-until time
 * become Expired (rows another sweep holds are skipped); answers which.
 */
export async function expireDueRequests(tx: Tx, limit: number) {
  const result = (await tx.execute(sql`
    update payment_requests p set request_status = 'Expired'
    from (
      select tenant_id, dataset_id, id from payment_requests
      where request_status in ('Open', 'PartCompleted') and valid_until < now()
      limit ${limit} for update skip locked
    ) due
    where p.tenant_id = due.tenant_id and p.dataset_id = due.dataset_id and p.id = due.id
    returning p.tenant_id as "tenantId", p.dataset_id as "datasetId", p.id`)) as unknown as {
    rows: { tenantId: string; datasetId: number; id: string }[];
  };
  return result.rows;
}

/** The request whose link a sending mails, or null when it is gone or this sending was mailed. */
export async function readRequestForLinkMail(
  tx: Tx,
  scope: DatasetScope,
  paymentRequestId: string,
  eventKey: string,
) {
  const [request] = await tx
    .select()
    .from(r)
    .where(and(inDataset(r, scope), eq(r.id, paymentRequestId)));
  if (!request) return null;
  const d = notificationDeliveries;
  const [sent] = await tx
    .select()
    .from(d)
    .where(
      and(
        inDataset(d, scope),
        eq(d.eventKey, eventKey),
        eq(d.notificationName, paymentRequestLinkMail),
      ),
    );
  return sent ? null : request;
}

/** Records a sending of a request's link (the request's timeline reads it back). */
export async function recordLinkMailSent(
  tx: Tx,
  scope: DatasetScope,
  sent: { eventKey: string; emailAddress: string },
) {
  await tx
    .insert(notificationDeliveries)
    .values({ ...scope, ...sent, notificationName: paymentRequestLinkMail })
    .onConflictDoNothing();
}
