import Big from 'big.js';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  settlementStatusOf,
  type PageQuery,
  type PaymentDispute,
  type PaymentTransaction,
  type PaymentTransactionDetailFlags,
  type PaymentTransactionProvider,
  type PaymentTransactionSummary,
  type TransactionAccount,
  type paymentTransactionQuery,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { readPaymentRecords, readPaymentRecordsOfPayments } from '../../db/payment-records.js';
import {
  accounts,
  paymentDisputes,
  paymentRequests,
  paymentTransactions,
  transactions,
} from '../../db/schema-receivables.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { countRows } from '../../platform/paging/count.js';
import { createStatementCache, readPage } from '../../platform/paging/statement-cache.js';
import { readPayerQuote, readPayerQuotes } from './payer-quote.js';

type Row = typeof paymentTransactions.$inferSelect;
const everything: PaymentTransactionDetailFlags = {
  includeAccount: true,
  includePaymentRequest: true,
  includePaymentAllocations: true,
  includeLatePaymentTransactions: true,
};
type RequestRow = typeof paymentRequests.$inferSelect;
type Fields = (typeof paymentTransactionQuery)['fields'];
/** findWithDetails's answer. */
type PaymentTransactionDetails = PaymentTransaction &
  Awaited<ReturnType<typeof readPaymentRecords>>;
export interface Scope {
  tenantId: string;
  datasetId: number;
}

const amount = (value: string | null) => (value === null ? null : Number(value));

export function toPaymentTransaction(row: Row, request?: RequestRow | null): PaymentTransaction {
  return {
    id: row.id,
    type: row.type as PaymentTransaction['type'],
    status: row.status as PaymentTransaction['status'],
    allocatedStatus: row.allocatedStatus as PaymentTransaction['allocatedStatus'],
    ledgerlineReference: row.ledgerlineReference,
    createdOn: row.createdOn.toISOString(),
    statusDateTime: row.statusDateTime.toISOString(),
    totalAmount: Number(row.totalAmount),
    currency: row.currency,
    fee: amount(row.fee),
    feeCurrency: row.feeCurrency,
    customerName: row.customerName,
    companyName: row.companyName,
    customerDetails: (row.customerDetails as PaymentTransaction['customerDetails']) ?? null,
    accountId: row.accountId,
    payerId: row.payerId,
    paymentRequestId: row.paymentRequestId,
    ...(request === undefined
      ? {}
      : {
          paymentRequest: request
            ? {
                id: request.id,
                customerName: request.customerName,
                customerReference: request.customerReference,
                requestStatus: request.requestStatus,
                amountToPay: Number(request.amountToPay),
                currency: request.currency,
              }
            : null,
        }),
    paymentProviderId: row.paymentProviderId,
    paymentProviderName: row.paymentProviderName,
    paymentProviderReference: row.paymentProviderReference,
    paymentMethodType: row.paymentMethodType as PaymentTransaction['paymentMethodType'],
    settlementStatus: settlementStatusOf(
      row.status as PaymentTransaction['status'],
      row.paymentMethodType as PaymentTransaction['paymentMethodType'],
    ),
    refundOfId: row.refundOfId,
    refundReason: row.refundReason,
  };
}

const t = paymentTransactions;
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

/** A dispute as the API shows it (issue 19). */
export function toPaymentDispute(row: typeof paymentDisputes.$inferSelect): PaymentDispute {
  return {
    id: row.id,
    paymentTransactionId: row.paymentTransactionId,
    disputeReference: row.disputeReference,
    amount: Number(row.amount),
    currency: row.currency,
    reason: row.reason,
    stage: row.stage as PaymentDispute['stage'],
    respondBy: row.respondBy?.toISOString() ?? null,
    openedOn: row.openedOn.toISOString(),
    closedOn: row.closedOn?.toISOString() ?? null,
    updatedOn: row.updatedOn.toISOString(),
  };
}

function toSummary(row: Row): PaymentTransactionSummary {
  return {
    id: row.id,
    type: row.type as PaymentTransactionSummary['type'],
    status: row.status as PaymentTransactionSummary['status'],
    ledgerlineReference: row.ledgerlineReference,
    createdOn: row.createdOn.toISOString(),
    statusDateTime: row.statusDateTime.toISOString(),
    totalAmount: Number(row.totalAmount),
    currency: row.currency,
    paymentProviderReference: row.paymentProviderReference,
    refundOfId: row.refundOfId,
    refundReason: row.refundReason,
  };
}

/** Statuses of a payment that can give money back, and refunds that count against it (pay/refunds.ts). */
const refundable = new Set(['Paid', 'Duplicated']);
const countedRefunds = new Set(['Processing', 'Refunded']);

/**
 * Issue 19: the refunds and disputes of some payments, newest first, and what is left to refund of
 * each (two statements for all of them).
 */
async function readRefundsAndDisputes(executor: Executor, scope: Scope, rows: Row[]) {
  const ids = rows.filter((row) => row.type === 'Payment').map((row) => row.id);
  const [refunds, disputes] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          executor
            .select()
            .from(t)
            .where(and(inScope(scope), inArray(t.refundOfId, ids)))
            .orderBy(desc(t.createdOn), desc(t.id)),
          executor
            .select()
            .from(paymentDisputes)
            .where(
              and(
                eq(paymentDisputes.tenantId, scope.tenantId),
                eq(paymentDisputes.datasetId, scope.datasetId),
                inArray(paymentDisputes.paymentTransactionId, ids),
              ),
            )
            .orderBy(desc(paymentDisputes.openedOn), desc(paymentDisputes.id)),
        ]);
  return new Map(
    rows.map((row) => {
      const own = refunds.filter((refund) => refund.refundOfId === row.id);
      const taken = own
        .filter((refund) => countedRefunds.has(refund.status))
        .reduce((sum, refund) => sum.plus(refund.totalAmount), new Big(0));
      const left = new Big(row.totalAmount).minus(taken);
      return [
        row.id,
        {
          refunds: own.map(toSummary),
          refundableAmount:
            row.type === 'Payment' && refundable.has(row.status) && left.gt(0) ? Number(left) : 0,
          disputes: disputes
            .filter((dispute) => dispute.paymentTransactionId === row.id)
            .map(toPaymentDispute),
        },
      ] as const;
    }),
  );
}

const inScope = (scope: Scope) =>
  and(eq(t.tenantId, scope.tenantId), eq(t.datasetId, scope.datasetId));

export function createPaymentTransactionsRepository() {
  const statements = createStatementCache();
  /** spec 2 §3 Payment transaction `account`: the account paid on, as a transaction shows it. */
  /** The accounts payments were made on, by id (spec 2 §3 Payment transaction `account`). */
  async function accountsOf(executor: Executor, scope: Scope, ids: string[]) {
    if (ids.length === 0) return new Map<string, TransactionAccount>();
    const rows = await executor
      .select({
        id: accounts.id,
        accountReference: accounts.accountReference,
        name: accounts.name,
        currency: accounts.currency,
      })
      .from(accounts)
      .where(
        and(
          eq(accounts.tenantId, scope.tenantId),
          eq(accounts.datasetId, scope.datasetId),
          inArray(accounts.id, ids),
        ),
      );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The provider configurations payments went through, by id (spec 2 §3 `paymentProvider`). */
  async function providersOf(executor: Executor, scope: Scope, ids: string[]) {
    if (ids.length === 0) return new Map<string, PaymentTransactionProvider>();
    const rows = await executor
      .select({
        id: paymentProviders.id,
        name: paymentProviders.name,
        providerName: paymentProviders.providerName,
        isTest: paymentProviders.isTest,
        enabled: paymentProviders.enabled,
      })
      .from(paymentProviders)
      .where(
        and(
          eq(paymentProviders.tenantId, scope.tenantId),
          eq(paymentProviders.datasetId, scope.datasetId),
          inArray(paymentProviders.id, ids),
        ),
      );
    return new Map<string, PaymentTransactionProvider>(rows.map((row) => [row.id, row]));
  }

  async function requestsById(executor: Executor, scope: Scope, ids: string[]) {
    if (ids.length === 0) return new Map<string, RequestRow>();
    const rows = await executor
      .select()
      .from(paymentRequests)
      .where(
        and(
          eq(paymentRequests.tenantId, scope.tenantId),
          eq(paymentRequests.datasetId, scope.datasetId),
          inArray(paymentRequests.id, ids),
        ),
      );
    return new Map(rows.map((row) => [row.id, row]));
  }

  return {
    /**
     * One page and its (capped or estimated) total. `only` narrows the list further
     * (all-failures); its name is part of the statement's shape.
     */
    async page(
      executor: Executor,
      scope: Scope,
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
      const expandRequest = query.expand.includes('paymentrequest');
      const requests = expandRequest
        ? await requestsById(executor, scope, [
            ...new Set(rows.flatMap((row) => (row.paymentRequestId ? [row.paymentRequestId] : []))),
          ])
        : null;
      return {
        items: rows.map((row) =>
          toPaymentTransaction(
            row,
            requests
              ? row.paymentRequestId
                ? (requests.get(row.paymentRequestId) ?? null)
                : null
              : undefined,
          ),
        ),
        totalItems: total.count,
        totalItemsEstimated: total.estimated,
      };
    },

    async count(executor: Executor, scope: Scope, query: Pick<PageQuery<Fields>, 'filters'>) {
      const compiled = compilePageQuery(
        { page: 1, itemsPerPage: 1, sort: [], ...query },
        { columns, tieBreaker: t.id },
      );
      return countRows(executor, t, and(inScope(scope), compiled.where), {
        preferEstimate: query.filters.length === 0,
      });
    },

    /** The status the payment had before, or null when the company has no such payment. */
    async setAllocatedStatus(executor: Executor, scope: Scope, id: string, status: string) {
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
    },

    async find(executor: Executor, scope: Scope, id: string) {
      const [row] = await executor
        .select()
        .from(t)
        .where(and(inScope(scope), eq(t.id, id)));
      if (!row) return null;
      const request = row.paymentRequestId
        ? ((await requestsById(executor, scope, [row.paymentRequestId])).get(
            row.paymentRequestId,
          ) ?? null)
        : null;
      return toPaymentTransaction(row, request);
    },

    /**
     * findWithDetails of several payments at once (the web hook payloads of a batch of settled
     * payments): six statements for all of them. Those not found are left out.
     */
    async findManyWithDetails(executor: Executor, scope: Scope, ids: string[]) {
      if (ids.length === 0) return new Map<string, PaymentTransactionDetails>();
      const rows = await executor
        .select()
        .from(t)
        .where(and(inScope(scope), inArray(t.id, ids)));
      const distinct = (values: (string | null)[]) => [
        ...new Set(values.filter((value): value is string => value !== null)),
      ];
      const [requests, records, payerQuotes, refundsAndDisputes, accountRows, providerRows] =
        await Promise.all([
          requestsById(executor, scope, distinct(rows.map((row) => row.paymentRequestId))),
          readPaymentRecordsOfPayments(
            executor,
            scope,
            rows.map((row) => row.id),
          ),
          readPayerQuotes(executor, scope, rows),
          readRefundsAndDisputes(executor, scope, rows),
          accountsOf(executor, scope, distinct(rows.map((row) => row.accountId))),
          providersOf(executor, scope, distinct(rows.map((row) => row.paymentProviderId))),
        ]);
      const references = await invoiceReferencesOf(
        executor,
        scope,
        [...records.values()].flatMap((record) =>
          record.paymentAllocations.flatMap((allocation) =>
            allocation.transactionId ? [allocation.transactionId] : [],
          ),
        ),
      );
      // As the detail call answers it with every flag on (web hook payloads say what the page says).
      return new Map<string, PaymentTransactionDetails>(
        rows.map((row) => {
          const record = records.get(row.id)!;
          return [
            row.id,
            {
              ...toPaymentTransaction(
                row,
                row.paymentRequestId ? (requests.get(row.paymentRequestId) ?? null) : null,
              ),
              account: row.accountId ? (accountRows.get(row.accountId) ?? null) : null,
              paymentProvider: row.paymentProviderId
                ? (providerRows.get(row.paymentProviderId) ?? null)
                : null,
              ...record,
              paymentAllocations: record.paymentAllocations.map((allocation) => ({
                ...allocation,
                transactionReference: allocation.transactionId
                  ? (references.get(allocation.transactionId) ?? null)
                  : null,
              })),
              payerQuote: payerQuotes.get(row.id) ?? null,
              ...refundsAndDisputes.get(row.id)!,
            },
          ];
        }),
      );
    },

    /**
     * The detail page's payment: with its allocations and late-payment fee lines (spec 2 §2) and
     * what the payer page offered (issue 14).
     */
    async findWithDetails(
      executor: Executor,
      scope: Scope,
      id: string,
      flags: PaymentTransactionDetailFlags = everything,
    ) {
      const [row] = await executor
        .select()
        .from(t)
        .where(and(inScope(scope), eq(t.id, id)));
      if (!row) return null;
      const request = row.paymentRequestId
        ? ((await requestsById(executor, scope, [row.paymentRequestId])).get(
            row.paymentRequestId,
          ) ?? null)
        : null;
      const payment = toPaymentTransaction(row, request);
      const [records, payerQuote, refundsAndDisputes, account, paymentProvider] = await Promise.all(
        [
          readPaymentRecords(executor, scope, { paymentTransactionId: id }),
          readPayerQuote(executor, scope, payment),
          readRefundsAndDisputes(executor, scope, [row]),
          flags.includeAccount && row.accountId
            ? accountsOf(executor, scope, [row.accountId]).then(
                (found) => found.get(row.accountId!) ?? null,
              )
            : null,
          row.paymentProviderId
            ? providersOf(executor, scope, [row.paymentProviderId]).then(
                (found) => found.get(row.paymentProviderId!) ?? null,
              )
            : null,
        ],
      );
      // Each allocated invoice by its reference, so the page links it by what people call it.
      const references = flags.includePaymentAllocations
        ? await invoiceReferencesOf(
            executor,
            scope,
            records.paymentAllocations.flatMap((allocation) =>
              allocation.transactionId ? [allocation.transactionId] : [],
            ),
          )
        : new Map<string, string>();
      const { paymentRequest, ...lean } = payment;
      return {
        ...lean,
        ...(flags.includePaymentRequest ? { paymentRequest } : {}),
        ...(flags.includeAccount ? { account } : {}),
        paymentProvider,
        ...(flags.includePaymentAllocations
          ? {
              paymentAllocations: records.paymentAllocations.map((allocation) => ({
                ...allocation,
                transactionReference: allocation.transactionId
                  ? (references.get(allocation.transactionId) ?? null)
                  : null,
              })),
            }
          : {}),
        ...(flags.includeLatePaymentTransactions
          ? { paymentFeeTransactions: records.paymentFeeTransactions }
          : {}),
        payerQuote,
        ...refundsAndDisputes.get(id)!,
      };
    },
  };
}

/**
 * What the payment's detail page links to by name (issue 22 item 8): the customer's account and
 * the references of the transactions the payment was allocated to.
 */
/** The references of the invoices a payment's allocations name, by id. */
async function invoiceReferencesOf(executor: Executor, scope: Scope, transactionIds: string[]) {
  if (transactionIds.length === 0) return new Map<string, string>();
  const rows = await executor
    .select({ id: transactions.id, reference: transactions.transactionReference })
    .from(transactions)
    .where(
      and(
        eq(transactions.tenantId, scope.tenantId),
        eq(transactions.datasetId, scope.datasetId),
        inArray(transactions.id, [...new Set(transactionIds)]),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.reference]));
}
export type PaymentTransactionsRepository = ReturnType<typeof createPaymentTransactionsRepository>;
