import Big from 'big.js';
import {
  allocationAmountIssue,
  minorUnitsIssue,
  paymentRequestMessages as m,
  type AllocationInfoInput,
  type PaymentRequest,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { ValidationError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { PaymentRequestsRepository } from './payment-requests.repository.js';
import {
  askedTotal,
  assertEditable,
  load,
  notFound,
  type RequestsContext,
} from './payment-requests.read.js';

type StoredAllocation = Awaited<ReturnType<PaymentRequestsRepository['allocationsOf']>>[number];

const minorUnitFields = [
  ['amount', 'Amount'],
  ['minimumAmount', 'Minimum Amount'],
  ['maximumAmount', 'Maximum Amount'],
] as const;

/**
 * Each entry's amount, checked: in the request's currency's minor units, within the entry's
 * limits and not above what the transaction still owes (its amount owed, exact in numeric); an
 * absent amount keeps the stored one.
 */
export function checkedAmounts(
  input: AllocationInfoInput,
  stored: Map<string, Pick<StoredAllocation, 'amount'>>,
  outstanding: Map<string, string>,
  currency: string,
): (number | null)[] {
  input.forEach((allocation, index) => {
    if (!stored.has(allocation.transactionId)) {
      throw new ValidationError(
        { [`${index}.transactionId`]: [m.allocationNotFound] },
        m.allocationNotFound,
      );
    }
  });
  const amounts = input.map((allocation) => {
    const previous = stored.get(allocation.transactionId)!;
    return allocation.amount ?? (previous.amount === null ? null : Number(previous.amount));
  });
  input.forEach((allocation, index) => {
    for (const [field, label] of minorUnitFields) {
      const issue = minorUnitsIssue(allocation[field], currency, label);
      if (issue) throw new ValidationError({ [`${index}.${field}`]: [issue] }, issue);
    }
  });
  input.forEach((allocation, index) => {
    const owed = outstanding.get(allocation.transactionId);
    const aboveOwed =
      allocation.amount !== null && owed !== undefined && new Big(allocation.amount).gt(owed);
    const issue =
      allocationAmountIssue(amounts[index]!, allocation) ??
      (aboveOwed ? m.amountAboveOutstanding : null);
    if (issue) throw new ValidationError({ [`${index}.amount`]: [issue] }, issue);
  });
  return amounts;
}

/** PATCH payment-requests/{id}/transaction-allocation-info (spec 2 §5 Allocation edit). */
export async function updateAllocations(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  id: string,
  input: AllocationInfoInput,
): Promise<PaymentRequest> {
  const { repository } = ctx;
  const row = await repository.find(tx, scope, id, true);
  if (!row) throw notFound();
  await assertEditable(ctx, tx, scope, row);
  const stored = new Map(
    (await repository.allocationsOf(tx, scope, [id])).map((x) => [x.transactionId, x]),
  );
  const outstanding = await repository.outstandingOf(
    tx,
    scope,
    input.map((allocation) => allocation.transactionId),
  );
  const amounts = checkedAmounts(input, stored, outstanding, row.currency);
  for (const [index, allocation] of input.entries()) {
    await repository.updateAllocation(tx, scope, id, { ...allocation, amount: amounts[index]! });
  }
  // The request asks what its allocations ask, in the same transaction.
  await repository.update(tx, scope, id, {
    amountToPay: (await askedTotal(ctx, tx, scope, id)).toString(),
  });
  return load(ctx, tx, scope, id, {
    allocations: true,
    transactions: true,
    payments: true,
    editState: true,
  });
}
