import Big from 'big.js';
import { paymentRequestMessages as m, type PaymentRequest } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import {
  toAllocation,
  toPaymentRequest,
  type PaymentRequestRow,
  type PaymentRequestsRepository,
} from './payment-requests.repository.js';

/** What the service's rules share: the repository and the payer page's address of a request. */
export interface RequestsContext {
  repository: PaymentRequestsRepository;
  requestUrl: (id: string) => string;
  /** PAY_ATTEMPT_HOLD_MINUTES: how long a started payment holds its request. */
  holdMinutes: number;
}

/** What a caller asks to load with a request. */
export type Loaded = {
  allocations?: boolean;
  transactions?: boolean;
  payments?: boolean;
  editState?: boolean;
  mails?: boolean;
};

export const notFound = () => new NotFoundError(m.notFound);

/** The request as answered, with what the caller asked to load. */
export async function present(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  rows: PaymentRequestRow[],
  load: Loaded,
): Promise<PaymentRequest[]> {
  const { repository } = ctx;
  const accountIds = [...new Set(rows.flatMap((row) => (row.accountId ? [row.accountId] : [])))];
  const accounts = await repository.accountsById(tx, scope, accountIds);
  const allocations =
    load.allocations || load.transactions
      ? await repository.allocationsOf(
          tx,
          scope,
          rows.map((row) => row.id),
        )
      : [];
  const transactions = load.transactions
    ? await repository.transactionsById(tx, scope, [
        ...new Set(allocations.map((x) => x.transactionId)),
      ])
    : null;
  // Every request's payments and mails in one read each (a batch of settled payments' web hook
  // payloads), not one per request.
  const ids = rows.map((row) => row.id);
  const payments = load.payments ? await repository.paymentsOfMany(tx, scope, ids) : null;
  const mails = load.mails ? await repository.mailsOfMany(tx, scope, ids) : null;
  return Promise.all(
    rows.map(async (row) => {
      const own = allocations.filter((x) => x.paymentRequestId === row.id);
      const extra: Parameters<typeof toPaymentRequest>[3] = {};
      if (load.allocations || load.transactions)
        extra.transactionAllocations = own.map(toAllocation);
      if (transactions)
        extra.transactions = own.flatMap((x) => transactions.get(x.transactionId) ?? []);
      if (payments) extra.paymentTransactions = payments.get(row.id) ?? [];
      if (mails) extra.mails = mails.get(row.id) ?? [];
      if (load.editState) {
        const state = await editState(ctx, tx, scope, row);
        extra.canEdit = state.canEdit;
        extra.canChangeUsage = state.canChangeUsage;
      }
      return toPaymentRequest(
        row,
        ctx.requestUrl(row.id),
        row.accountId ? (accounts.get(row.accountId) ?? null) : null,
        extra,
      );
    }),
  );
}

/** spec 2 §4: only Open requests without applied discounts or late payments are editable. */
export async function editState(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  row: PaymentRequestRow,
) {
  const { repository } = ctx;
  const open = row.requestStatus === 'Open';
  const applied = open ? await repository.hasDiscountsOrLatePayments(tx, scope, row.id) : false;
  const canEdit = open && !applied;
  const canChangeUsage =
    canEdit &&
    row.requestType === 'Transaction' &&
    row.captureType === 'Immediate' &&
    !(await repository.hasPayments(tx, scope, row.id));
  return { canEdit, canChangeUsage, applied };
}

/** The request's edit state, or a conflict when it is not Open or has discounts applied. */
export async function assertEditable(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  row: PaymentRequestRow,
) {
  if (row.requestStatus !== 'Open') throw new ConflictError(m.notOpen, 'paymentRequestNotOpen');
  const state = await editState(ctx, tx, scope, row);
  if (state.applied) throw new ConflictError(m.discountsApplied, 'paymentRequestDiscountsApplied');
  return state;
}

/**
 * What a Transaction request asks: the sum of its allocations' amounts, an allocation without
 * one counting what its transaction still owes (as createForInvoices sums them).
 */
export async function askedTotal(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  id: string,
): Promise<Big> {
  const allocations = await ctx.repository.allocationsOf(tx, scope, [id]);
  const owed = await ctx.repository.outstandingOf(
    tx,
    scope,
    allocations.filter((x) => x.amount === null).map((x) => x.transactionId),
  );
  return allocations.reduce(
    (sum, x) => sum.plus(x.amount ?? owed.get(x.transactionId) ?? 0),
    new Big(0),
  );
}

/** One request as answered, with what the caller asked to load; NotFound when there is none. */
export async function load(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  id: string,
  what: Loaded,
): Promise<PaymentRequest> {
  const row = await ctx.repository.find(tx, scope, id);
  if (!row) throw notFound();
  return (await present(ctx, tx, scope, [row], what))[0]!;
}
