import { and, desc, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { notificationDeliveries } from '../../db/schema-company.js';
import type {
  PageQuery,
  PaymentRequest,
  PaymentRequestMail,
  PaymentRequestPayment,
  PaymentRequestTransaction,
  TransactionAllocation,
  UsageType,
  paymentRequestQuery,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  paymentFeeTransactions,
  paymentRequestAllocations,
  paymentRequests,
  paymentTransactions,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { countRows, pageTotal } from '../../platform/paging/count.js';

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

export interface PayableTransaction {
  id: string;
  accountId: string;
  transactionType: string;
  transactionReference: string;
  currency: string;
  paidStatus: string;
  owed: string;
}

/** The company whose payment requests a call sees (style.md §4). */
export interface PaymentRequestScope {
  tenantId: string;
  datasetId: number;
}

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

const inScope = (scope: PaymentRequestScope) =>
  and(eq(r.tenantId, scope.tenantId), eq(r.datasetId, scope.datasetId));
const allocationsInScope = (scope: PaymentRequestScope) =>
  and(eq(a.tenantId, scope.tenantId), eq(a.datasetId, scope.datasetId));

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

/** notification_deliveries' name for a mail of a request's link (POST payment-requests/{id}/send). */
export const paymentRequestLinkMail = 'PaymentRequestLink';
/** Each sending's event key starts with this; a UUID has no LIKE wildcard in it. */
export const requestLinkEventPrefix = (requestId: string) => `payment-request:${requestId}:send:`;

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

export function createPaymentRequestsRepository() {
  const repository = {
    /** One page; the index (tenant, dataset, created_on, id) serves the default order. */
    async page(
      executor: Executor,
      scope: PaymentRequestScope,
      query: PageQuery<Fields, 'transactions'>,
    ) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: r.id });
      const where = and(inScope(scope), compiled.where);
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
    },

    async count(
      executor: Executor,
      scope: PaymentRequestScope,
      query: Pick<PageQuery<Fields>, 'filters'>,
    ) {
      const compiled = compilePageQuery(
        { page: 1, itemsPerPage: 1, sort: [], ...query },
        { columns, tieBreaker: r.id },
      );
      return countRows(executor, r, and(inScope(scope), compiled.where));
    },

    async find(
      executor: Executor,
      scope: PaymentRequestScope,
      id: string,
      forUpdate = false,
    ): Promise<Row | null> {
      const query = executor
        .select()
        .from(r)
        .where(and(inScope(scope), eq(r.id, id)));
      const [row] = forUpdate ? await query.for('update') : await query;
      return row ?? null;
    },

    /** Several requests by id (those not found left out). */
    async findMany(executor: Executor, scope: PaymentRequestScope, ids: string[]): Promise<Row[]> {
      if (ids.length === 0) return [];
      return executor
        .select()
        .from(r)
        .where(and(inScope(scope), inArray(r.id, ids)));
    },

    async accountsById(executor: Executor, scope: PaymentRequestScope, ids: string[]) {
      if (ids.length === 0) return new Map<string, NonNullable<PaymentRequest['account']>>();
      const rows = await executor
        .select({
          id: accounts.id,
          accountReference: accounts.accountReference,
          name: accounts.name,
          defaultUsageType: accounts.defaultUsageType,
        })
        .from(accounts)
        .where(
          and(
            eq(accounts.tenantId, scope.tenantId),
            eq(accounts.datasetId, scope.datasetId),
            inArray(accounts.id, ids),
          ),
        );
      return new Map(
        rows.map((row) => [
          row.id,
          { ...row, defaultUsageType: row.defaultUsageType as UsageType | null },
        ]),
      );
    },

    async findAccount(executor: Executor, scope: PaymentRequestScope, id: string) {
      const [row] = await executor
        .select()
        .from(accounts)
        .where(
          and(
            eq(accounts.tenantId, scope.tenantId),
            eq(accounts.datasetId, scope.datasetId),
            eq(accounts.id, id),
          ),
        );
      return row ?? null;
    },

    async allocationsOf(
      executor: Executor,
      scope: PaymentRequestScope,
      requestIds: string[],
    ): Promise<AllocationRow[]> {
      if (requestIds.length === 0) return [];
      return executor
        .select()
        .from(a)
        .where(and(allocationsInScope(scope), inArray(a.paymentRequestId, requestIds)))
        .orderBy(a.paymentRequestId, a.transactionId);
    },

    /** What each transaction still owes (spec 2 §4 amount owed), as exact numeric text. */
    async outstandingOf(executor: Executor, scope: PaymentRequestScope, ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await executor
        .select({
          id: transactions.id,
          owed: sql<string>`(${transactions.transactionAmount} - ${transactions.allocatedAmount} - ${transactions.discountedAmount})::text`,
        })
        .from(transactions)
        .where(and(eq(transactions.tenantId, scope.tenantId), eq(transactions.datasetId, scope.datasetId), inArray(transactions.id, ids)));
      return new Map(rows.map((row) => [row.id, row.owed]));
    },

    /**
     * The transactions a new request asks for, locked until the request commits, with what each
     * still owes (spec 2 §4 amount owed) as exact numeric text. Only this company's rows.
     */
    async payableTransactions(executor: Executor, scope: PaymentRequestScope, ids: string[]) {
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
        .where(and(eq(transactions.tenantId, scope.tenantId), eq(transactions.datasetId, scope.datasetId), inArray(transactions.id, ids)))
        .for('update');
      return new Map<string, PayableTransaction>(rows.map((row) => [row.id, row]));
    },

    async transactionsById(
      executor: Executor,
      scope: PaymentRequestScope,
      ids: string[],
    ): Promise<Map<string, PaymentRequestTransaction>> {
      if (ids.length === 0) return new Map();
      const rows = await executor
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.tenantId, scope.tenantId),
            eq(transactions.datasetId, scope.datasetId),
            inArray(transactions.id, ids),
          ),
        );
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
    },

    /** The request's payment attempts, newest first. */
    async paymentsOf(
      executor: Executor,
      scope: PaymentRequestScope,
      requestId: string,
    ): Promise<PaymentRequestPayment[]> {
      return (await repository.paymentsOfMany(executor, scope, [requestId])).get(requestId) ?? [];
    },

    /**
     * Several requests' payment attempts in one read (a batch of settled payments' web hook
     * payloads, issue 19), each request's newest first.
     */
    async paymentsOfMany(
      executor: Executor,
      scope: PaymentRequestScope,
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
            eq(t.tenantId, scope.tenantId),
            eq(t.datasetId, scope.datasetId),
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
    },

    /** The mails of the request's link sent to its payer, newest first (issue 22 item 7). */
    async mailsOf(executor: Executor, scope: PaymentRequestScope, requestId: string): Promise<PaymentRequestMail[]> {
      return (await repository.mailsOfMany(executor, scope, [requestId])).get(requestId) ?? [];
    },

    /** Several requests' link mails in one read, each request's newest first. */
    async mailsOfMany(
      executor: Executor,
      scope: PaymentRequestScope,
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
            eq(d.tenantId, scope.tenantId),
            eq(d.datasetId, scope.datasetId),
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
    },

    /**
     * spec 2 §4: settlement discounts (a Used offer on one of its transactions) or late payments (a
     * fee line on one of its transactions or payments) are applied to the request.
     */
    async hasDiscountsOrLatePayments(
      executor: Executor,
      scope: PaymentRequestScope,
      requestId: string,
    ): Promise<boolean> {
      const transactionIds = executor
        .select({ id: a.transactionId })
        .from(a)
        .where(and(allocationsInScope(scope), eq(a.paymentRequestId, requestId)));
      const paymentIds = executor
        .select({ id: paymentTransactions.id })
        .from(paymentTransactions)
        .where(
          and(
            eq(paymentTransactions.tenantId, scope.tenantId),
            eq(paymentTransactions.datasetId, scope.datasetId),
            eq(paymentTransactions.paymentRequestId, requestId),
          ),
        );
      const [used] = await executor
        .select({ id: settlementOffers.id })
        .from(settlementOffers)
        .where(
          and(
            eq(settlementOffers.tenantId, scope.tenantId),
            eq(settlementOffers.datasetId, scope.datasetId),
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
            eq(f.tenantId, scope.tenantId),
            eq(f.datasetId, scope.datasetId),
            or(
              inArray(f.transactionId, transactionIds),
              inArray(f.paymentTransactionId, paymentIds),
            ),
          ),
        )
        .limit(1);
      return fee !== undefined;
    },

    /** Whether a payment of the request is still Processing and was started since `since`. */
    async paymentInProgress(
      executor: Executor,
      scope: PaymentRequestScope,
      requestId: string,
      since: Date,
    ): Promise<boolean> {
      const t = paymentTransactions;
      const [row] = await executor
        .select({ id: t.id })
        .from(t)
        .where(
          and(
            eq(t.tenantId, scope.tenantId),
            eq(t.datasetId, scope.datasetId),
            eq(t.paymentRequestId, requestId),
            eq(t.status, 'Processing'),
            sql`${t.createdOn} >= ${since.toISOString()}`,
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async hasPayments(
      executor: Executor,
      scope: PaymentRequestScope,
      requestId: string,
    ): Promise<boolean> {
      const t = paymentTransactions;
      const [row] = await executor
        .select({ id: t.id })
        .from(t)
        .where(
          and(
            eq(t.tenantId, scope.tenantId),
            eq(t.datasetId, scope.datasetId),
            eq(t.paymentRequestId, requestId),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async insertTransaction(
      executor: Executor,
      scope: PaymentRequestScope,
      values: TransactionValues,
    ) {
      await executor
        .insert(transactions)
        .values({ ...values, tenantId: scope.tenantId, datasetId: scope.datasetId });
    },

    async insert(
      executor: Executor,
      scope: PaymentRequestScope,
      values: PaymentRequestValues,
    ): Promise<Row> {
      const [row] = await executor
        .insert(r)
        .values({ ...values, tenantId: scope.tenantId, datasetId: scope.datasetId })
        .returning();
      return row!;
    },

    async insertAllocation(
      executor: Executor,
      scope: PaymentRequestScope,
      paymentRequestId: string,
      values: AllocationValues,
    ) {
      await executor.insert(a).values({
        ...values,
        paymentRequestId,
        tenantId: scope.tenantId,
        datasetId: scope.datasetId,
      });
    },

    async update(
      executor: Executor,
      scope: PaymentRequestScope,
      id: string,
      values: Partial<PaymentRequestValues>,
    ): Promise<void> {
      if (Object.keys(values).length === 0) return;
      await executor
        .update(r)
        .set(values)
        .where(and(inScope(scope), eq(r.id, id)));
    },

    async updateAllocation(
      executor: Executor,
      scope: PaymentRequestScope,
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
        allocationsInScope(scope),
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
    },
  };
  return repository;
}
export type PaymentRequestsRepository = ReturnType<typeof createPaymentRequestsRepository>;
