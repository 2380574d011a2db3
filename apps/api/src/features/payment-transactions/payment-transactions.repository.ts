import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type {
  PageQuery,
  paymentTransactionQuery,
  ReservationsPage,
  ReservationsQuery,
} from '@ledgerline/contract';
import type { Executor, Tx } from '../../db/client.js';
import { paymentRequests, paymentTransactions as t } from '../../db/schema-receivables.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { countRows } from '../../platform/paging/count.js';
import {
  createStatementCache,
  readPage,
  type StatementCache,
} from '../../platform/paging/statement-cache.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';
import {
  findManyWithDetails,
  findWithDetails,
  requestOf,
  requestsById,
} from './payment-transaction-details.repository.js';
import { toPaymentTransaction, type Row } from './payment-transactions.rows.js';

type Fields = (typeof paymentTransactionQuery)['fields'];

const columns = {
  id: t.id,
  type: t.type,
  ledgerlineReference: t.ledgerlineReference,
  statusDateTime: t.statusDateTime,
  createdOn: t.createdOn,
  companyName: t.companyName,
  customerName: t.customerName,
  totalAmount: t.totalAmount,
  currency: t.currency,
  status: t.status,
  allocatedStatus: t.allocatedStatus,
  paymentMethodType: t.paymentMethodType,
  accountId: t.accountId,
  payerId: t.payerId,
  paymentRequestId: t.paymentRequestId,
  paymentProviderId: t.paymentProviderId,
};

/** The list's filters and search as SQL, for the export's "include table filters". */
export function compilePaymentTransactionFilter(
  filters: PageQuery<Fields>['filters'],
  search?: PageQuery<Fields>['search'],
) {
  return compilePageQuery(
    { page: 1, itemsPerPage: 1, sort: [], filters, ...(search ? { search } : {}) },
    { columns, tieBreaker: t.id },
  ).where;
}

/**
 * One page and its (capped or estimated) total. `only` narrows the list further (all-failures);
 * its name is part of the statement's shape.
 */
async function readPaymentTransactionsPage(
  statements: StatementCache,
  executor: Executor,
  scope: DatasetScope,
  query: PageQuery<Fields, 'paymentrequest'>,
  only?: { name: string; where: SQL },
) {
  const { rows, total } = await readPage<Row, Fields>(executor, statements, {
    table: t,
    scope,
    query,
    columns,
    tieBreaker: t.id,
    only,
  });
  const requests = query.expand.includes('paymentrequest')
    ? await requestsById(executor, scope, [
        ...new Set(rows.flatMap((row) => (row.paymentRequestId ? [row.paymentRequestId] : []))),
      ])
    : null;
  const requestOfRow = (row: Row) =>
    requests
      ? row.paymentRequestId
        ? (requests.get(row.paymentRequestId) ?? null)
        : null
      : undefined;
  return {
    items: rows.map((row) => toPaymentTransaction(row, requestOfRow(row))),
    totalItems: total.count,
    totalItemsEstimated: total.estimated,
  };
}

/** How many payments match the filters: exact up to 10,000, estimated past that. */
async function countPaymentTransactions(
  executor: Executor,
  scope: DatasetScope,
  query: Pick<PageQuery<Fields>, 'filters'>,
) {
  const compiled = compilePageQuery(
    { page: 1, itemsPerPage: 1, sort: [], ...query },
    { columns, tieBreaker: t.id },
  );
  return countRows(executor, t, and(inDataset(t, scope), compiled.where), {
    preferEstimate: query.filters.length === 0,
  });
}

/** The status the payment had before, or null when the company has no such payment. */
async function setAllocatedStatus(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  status: string,
) {
  const result = (await executor.execute(sql`
    with old as (
      select p.id, p.allocated_status from payment_transactions p
      where p.tenant_id = ${scope.tenantId} and p.dataset_id = ${scope.datasetId} and p.id = ${id}
      for update
    )
    update payment_transactions p set allocated_status = ${status}
    from old
    where p.tenant_id = ${scope.tenantId} and p.dataset_id = ${scope.datasetId} and p.id = old.id
    returning old.allocated_status as "previous"`)) as unknown as {
    rows: { previous: string }[];
  };
  return result.rows[0]?.previous ?? null;
}

/** One payment with the payment request it was made for, or null. */
async function findPaymentTransaction(executor: Executor, scope: DatasetScope, id: string) {
  const [row] = await executor
    .select()
    .from(t)
    .where(and(inDataset(t, scope), eq(t.id, id)));
  if (!row) return null;
  return toPaymentTransaction(row, await requestOf(executor, scope, row));
}

/** One payment's row (locked for update when asked), or null. */
export async function readPaymentRow(tx: Tx, scope: DatasetScope, id: string, forUpdate = false) {
  const query = tx
    .select()
    .from(t)
    .where(and(inDataset(t, scope), eq(t.id, id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** One payment request's row, locked for update, or null. */
export async function lockPaymentRequest(tx: Tx, scope: DatasetScope, id: string) {
  const [row] = await tx
    .select()
    .from(paymentRequests)
    .where(and(inDataset(paymentRequests, scope), eq(paymentRequests.id, id)))
    .for('update');
  return row ?? null;
}

/** Keeps a refund's row (reserved as Processing before its provider is called). */
export async function insertRefund(tx: Tx, row: typeof t.$inferInsert) {
  await tx.insert(t).values(row);
}

/** Removes a reserved refund its provider refused. */
export async function deleteRefund(tx: Tx, scope: DatasetScope, refundId: string) {
  await tx.delete(t).where(and(inDataset(t, scope), eq(t.id, refundId)));
}

/** A reserved refund its provider agreed to: its reference, and Refunded or still Processing. */
export async function finishRefund(
  tx: Tx,
  scope: DatasetScope,
  refundId: string,
  answer: { reference: string | null; status: 'Processing' | 'Refunded' },
) {
  await tx
    .update(t)
    .set({
      paymentProviderReference: answer.reference,
      status: answer.status,
      statusDateTime: new Date(),
    })
    .where(and(inDataset(t, scope), eq(t.id, refundId)));
}

/**
 * Up to 200 reservations of every company past their authorisation window at `now`, the one
 * lapsing first first (read as the owner, across companies).
 */
export async function readDueReservations(executor: Executor, now: Date) {
  const result = (await executor.execute(sql`
    select tenant_id as "tenantId", dataset_id as "datasetId", id from payment_transactions
    where status = 'Pending' and authorisation_expires_on <= ${now.toISOString()}::timestamptz
    order by authorisation_expires_on, id limit 200`)) as unknown as {
    rows: { tenantId: string; datasetId: number; id: string }[];
  };
  return result.rows;
}

/** The company's Pending payments, the one lapsing first first, paged. */
export async function readReservationsPage(
  executor: Executor,
  scope: DatasetScope,
  query: ReservationsQuery,
): Promise<ReservationsPage> {
  const pending = and(inDataset(t, scope), eq(t.status, 'Pending'));
  const [rows, [total]] = await Promise.all([
    executor
      .select()
      .from(t)
      .where(pending)
      .orderBy(sql`${t.authorisationExpiresOn} asc nulls last`, asc(t.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    executor.select({ n: count() }).from(t).where(pending),
  ]);
  return {
    items: rows.map((row) => ({
      ...toPaymentTransaction(row),
      expiresOn: row.authorisationExpiresOn?.toISOString() ?? null,
    })),
    totalItems: total?.n ?? 0,
  };
}

/** The payment transactions' reads and writes; the list's prepared statements are its own. */
export function createPaymentTransactionsRepository() {
  const statements = createStatementCache();
  return {
    page: (
      executor: Executor,
      scope: DatasetScope,
      query: PageQuery<Fields, 'paymentrequest'>,
      only?: { name: string; where: SQL },
    ) => readPaymentTransactionsPage(statements, executor, scope, query, only),
    count: countPaymentTransactions,
    setAllocatedStatus,
    find: findPaymentTransaction,
    findManyWithDetails,
    findWithDetails,
  };
}
export type PaymentTransactionsRepository = ReturnType<typeof createPaymentTransactionsRepository>;
