import { and, desc, eq, inArray } from 'drizzle-orm';
import type {
  PaymentTransaction,
  PaymentTransactionDetailFlags,
  PaymentTransactionProvider,
  TransactionAccount,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { readPaymentRecords, readPaymentRecordsOfPayments } from '../../db/payment-records.js';
import {
  accounts,
  paymentDisputes,
  paymentRequests,
  paymentTransactions as t,
  transactions,
} from '../../db/schema-receivables.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';
import { readPayerQuote, readPayerQuotes } from './payer-quote.js';
import {
  refundableAmountOf,
  toPaymentDispute,
  toPaymentTransaction,
  toSummary,
  type RequestRow,
  type Row,
} from './payment-transactions.rows.js';

const everything: PaymentTransactionDetailFlags = {
  includeAccount: true,
  includePaymentRequest: true,
  includePaymentAllocations: true,
  includeLatePaymentTransactions: true,
};
/** findWithDetails's answer. */
type PaymentTransactionDetails = PaymentTransaction &
  Awaited<ReturnType<typeof readPaymentRecords>>;
type Allocations = Awaited<ReturnType<typeof readPaymentRecords>>['paymentAllocations'];

/** The payment requests some payments were made for, by id. */
export async function requestsById(executor: Executor, scope: DatasetScope, ids: string[]) {
  if (ids.length === 0) return new Map<string, RequestRow>();
  const rows = await executor
    .select()
    .from(paymentRequests)
    .where(and(inDataset(paymentRequests, scope), inArray(paymentRequests.id, ids)));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The payment request one payment was made for, or null. */
export async function requestOf(executor: Executor, scope: DatasetScope, row: Row) {
  if (!row.paymentRequestId) return null;
  const found = await requestsById(executor, scope, [row.paymentRequestId]);
  return found.get(row.paymentRequestId) ?? null;
}

/** The accounts payments were made on, by id (spec 2 §3 Payment transaction `account`). */
async function accountsOf(executor: Executor, scope: DatasetScope, ids: string[]) {
  if (ids.length === 0) return new Map<string, TransactionAccount>();
  const rows = await executor
    .select({
      id: accounts.id,
      accountReference: accounts.accountReference,
      name: accounts.name,
      currency: accounts.currency,
    })
    .from(accounts)
    .where(and(inDataset(accounts, scope), inArray(accounts.id, ids)));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The provider configurations payments went through, by id (spec 2 §3 `paymentProvider`). */
async function providersOf(executor: Executor, scope: DatasetScope, ids: string[]) {
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
    .where(and(inDataset(paymentProviders, scope), inArray(paymentProviders.id, ids)));
  return new Map<string, PaymentTransactionProvider>(rows.map((row) => [row.id, row]));
}

/**
 * The references of the invoices a payment's allocations name, by id: the detail page links each
 * allocated invoice by what people call it.
 */
async function invoiceReferencesOf(
  executor: Executor,
  scope: DatasetScope,
  transactionIds: string[],
) {
  if (transactionIds.length === 0) return new Map<string, string>();
  const rows = await executor
    .select({ id: transactions.id, reference: transactions.transactionReference })
    .from(transactions)
    .where(
      and(inDataset(transactions, scope), inArray(transactions.id, [...new Set(transactionIds)])),
    );
  return new Map(rows.map((row) => [row.id, row.reference]));
}

const allocatedInvoices = (allocations: Allocations) =>
  allocations.flatMap((allocation) => (allocation.transactionId ? [allocation.transactionId] : []));

/** Each allocation with the reference of the invoice it went to. */
function withReferences(allocations: Allocations, references: Map<string, string>) {
  return allocations.map((allocation) => ({
    ...allocation,
    transactionReference: allocation.transactionId
      ? (references.get(allocation.transactionId) ?? null)
      : null,
  }));
}

/**
 * The refunds and disputes of some payments, newest first, and what is left to refund of each
 * (two statements for all of them).
 */
async function readRefundsAndDisputes(executor: Executor, scope: DatasetScope, rows: Row[]) {
  const ids = rows.filter((row) => row.type === 'Payment').map((row) => row.id);
  const [refunds, disputes] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          executor
            .select()
            .from(t)
            .where(and(inDataset(t, scope), inArray(t.refundOfId, ids)))
            .orderBy(desc(t.createdOn), desc(t.id)),
          executor
            .select()
            .from(paymentDisputes)
            .where(
              and(
                inDataset(paymentDisputes, scope),
                inArray(paymentDisputes.paymentTransactionId, ids),
              ),
            )
            .orderBy(desc(paymentDisputes.openedOn), desc(paymentDisputes.id)),
        ]);
  return new Map(
    rows.map((row) => {
      const own = refunds.filter((refund) => refund.refundOfId === row.id);
      return [
        row.id,
        {
          refunds: own.map(toSummary),
          refundableAmount: refundableAmountOf(row, own),
          disputes: disputes
            .filter((dispute) => dispute.paymentTransactionId === row.id)
            .map(toPaymentDispute),
        },
      ] as const;
    }),
  );
}

const distinct = (values: (string | null)[]) => [
  ...new Set(values.filter((value): value is string => value !== null)),
];

/**
 * findWithDetails of several payments at once (the web hook payloads of a batch of settled
 * payments): six statements for all of them. Those not found are left out.
 */
export async function findManyWithDetails(executor: Executor, scope: DatasetScope, ids: string[]) {
  if (ids.length === 0) return new Map<string, PaymentTransactionDetails>();
  const rows = await executor
    .select()
    .from(t)
    .where(and(inDataset(t, scope), inArray(t.id, ids)));
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
    [...records.values()].flatMap((record) => allocatedInvoices(record.paymentAllocations)),
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
          paymentAllocations: withReferences(record.paymentAllocations, references),
          payerQuote: payerQuotes.get(row.id) ?? null,
          ...refundsAndDisputes.get(row.id)!,
        },
      ];
    }),
  );
}

/** The parts of one payment's detail page, read together. */
async function readDetailParts(
  executor: Executor,
  scope: DatasetScope,
  row: Row,
  payment: PaymentTransaction,
  flags: PaymentTransactionDetailFlags,
) {
  const [records, payerQuote, refundsAndDisputes, account, paymentProvider] = await Promise.all([
    readPaymentRecords(executor, scope, { paymentTransactionId: row.id }),
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
  ]);
  // Each allocated invoice by its reference, so the page links it by what people call it.
  const references = flags.includePaymentAllocations
    ? await invoiceReferencesOf(executor, scope, allocatedInvoices(records.paymentAllocations))
    : new Map<string, string>();
  return { records, payerQuote, refundsAndDisputes, account, paymentProvider, references };
}

/**
 * The detail page's payment: with its allocations and late-payment fee lines (spec 2 §2) and
 * what the payer page offered.
 */
export async function findWithDetails(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  flags: PaymentTransactionDetailFlags = everything,
) {
  const [row] = await executor
    .select()
    .from(t)
    .where(and(inDataset(t, scope), eq(t.id, id)));
  if (!row) return null;
  const payment = toPaymentTransaction(row, await requestOf(executor, scope, row));
  const { records, payerQuote, refundsAndDisputes, account, paymentProvider, references } =
    await readDetailParts(executor, scope, row, payment, flags);
  const { paymentRequest, ...lean } = payment;
  return {
    ...lean,
    ...(flags.includePaymentRequest ? { paymentRequest } : {}),
    ...(flags.includeAccount ? { account } : {}),
    paymentProvider,
    ...(flags.includePaymentAllocations
      ? { paymentAllocations: withReferences(records.paymentAllocations, references) }
      : {}),
    ...(flags.includeLatePaymentTransactions
      ? { paymentFeeTransactions: records.paymentFeeTransactions }
      : {}),
    payerQuote,
    ...refundsAndDisputes.get(id)!,
  };
}
