import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PaymentAllocation, PaymentFeeTransaction } from '@ledgerline/contract';
import { inDataset, type DatasetScope } from '../platform/scope.js';
import type { Executor } from './client.js';
import { paymentAllocations, paymentFeeTransactions } from './schema-receivables.js';

/**
 * The payment allocations and late-payment fee lines (spec 2 §3) of one accounting transaction or
 * one payment transaction, as the API shows them on both detail pages; oldest first.
 */
export type PaymentRecordOwner = { transactionId: string } | { paymentTransactionId: string };

type FeeDetail = PaymentFeeTransaction['feeDetails'][number];

export async function readPaymentRecords(
  executor: Executor,
  scope: DatasetScope,
  owner: PaymentRecordOwner,
) {
  const [allocations, fees] =
    'transactionId' in owner
      ? await readRows(
          executor,
          scope,
          eq(paymentAllocations.transactionId, owner.transactionId),
          eq(paymentFeeTransactions.transactionId, owner.transactionId),
        )
      : await readRows(
          executor,
          scope,
          eq(paymentAllocations.paymentTransactionId, owner.paymentTransactionId),
          eq(paymentFeeTransactions.paymentTransactionId, owner.paymentTransactionId),
        );
  return recordsOf(allocations, fees);
}

/** The allocations and fee lines of the company that match each condition, oldest first. */
function readRows(executor: Executor, scope: DatasetScope, allocationsWhere: SQL, feesWhere: SQL) {
  const a = paymentAllocations;
  const f = paymentFeeTransactions;
  return Promise.all([
    executor
      .select()
      .from(a)
      .where(and(inDataset(a, scope), allocationsWhere))
      .orderBy(asc(a.createdOn), asc(a.id)),
    executor
      .select()
      .from(f)
      .where(and(inDataset(f, scope), feesWhere))
      .orderBy(asc(f.createdOn), asc(f.id)),
  ]);
}

type AllocationRow = typeof paymentAllocations.$inferSelect;
type FeeRow = typeof paymentFeeTransactions.$inferSelect;

function recordsOf(allocations: AllocationRow[], fees: FeeRow[]) {
  return {
    paymentAllocations: allocations.map((row): PaymentAllocation => ({
      id: row.id,
      createdOn: row.createdOn.toISOString(),
      type: row.type,
      status: row.status,
      entityType: row.entityType,
      transactionId: row.transactionId,
      accountId: row.accountId,
      paymentTransactionId: row.paymentTransactionId,
      settlementOfferId: row.settlementOfferId,
      discountedAmount: Number(row.discountedAmount),
      allocatedAmount: Number(row.allocatedAmount),
    })),
    paymentFeeTransactions: fees.map((row): PaymentFeeTransaction => ({
      id: row.id,
      createdOn: row.createdOn.toISOString(),
      transactionId: row.transactionId,
      paymentTransactionId: row.paymentTransactionId,
      // Amounts are stored as JSON numbers or numeric strings (the demo data writes strings).
      feeDetails: (
        (row.feeDetails as (Omit<FeeDetail, 'amount'> & { amount: number | string })[] | null) ?? []
      ).map((fee) => ({
        ...fee,
        amount: Number(fee.amount),
      })),
    })),
  };
}

/**
 * readPaymentRecords of several payment transactions at once (a batch of settled payments' web
 * hook payloads): two statements for all of them, each payment's records as readPaymentRecords
 * gives them.
 */
export async function readPaymentRecordsOfPayments(
  executor: Executor,
  scope: DatasetScope,
  paymentTransactionIds: string[],
) {
  if (paymentTransactionIds.length === 0) return new Map<string, ReturnType<typeof recordsOf>>();
  const [allocations, fees] = await readRows(
    executor,
    scope,
    inArray(paymentAllocations.paymentTransactionId, paymentTransactionIds),
    inArray(paymentFeeTransactions.paymentTransactionId, paymentTransactionIds),
  );
  return new Map(
    paymentTransactionIds.map((id) => [
      id,
      recordsOf(
        allocations.filter((row) => row.paymentTransactionId === id),
        fees.filter((row) => row.paymentTransactionId === id),
      ),
    ]),
  );
}
