import Big from 'big.js';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { paymentAllocations as a, settlementOffers, transactions } from '../../db/schema-receivables.js';
import type { Scope } from './payment-transactions.repository.js';

/**
 * Issue 10 item 1: a pending payment's allocations follow the money its provider moved, in the
 * transaction that records the new status (docs/decisions.md, "Allocations follow a capture or a
 * cancel"). A capture keeps the allocations in order — the invoice due first, then the one
 * allocated first — each up to what it held, until the captured amount is spent; what an
 * allocation gives up leaves its invoice's allocated amount, and an allocation left with nothing
 * is Cancelled. A cancel cancels them all. The invoices' paid status is recomputed from what is
 * allocated to them; a cancelled allocation's discount leaves the invoice and its offer reopens.
 */
export async function allocationsFollowPayment(tx: Tx, scope: Scope, paymentTransactionId: string, captured: Big | null): Promise<void> {
  const rows = await tx
    .select({ id: a.id, transactionId: a.transactionId, allocatedAmount: a.allocatedAmount, discountedAmount: a.discountedAmount, settlementOfferId: a.settlementOfferId })
    .from(a)
    .leftJoin(transactions, and(eq(transactions.tenantId, a.tenantId), eq(transactions.datasetId, a.datasetId), eq(transactions.id, a.transactionId)))
    .where(and(eq(a.tenantId, scope.tenantId), eq(a.datasetId, scope.datasetId), eq(a.paymentTransactionId, paymentTransactionId), ne(a.status, 'Cancelled')))
    // Invoices first (an account allocation has no due date), the one due first, then the oldest allocation.
    .orderBy(sql`${transactions.dueDate} asc nulls last`, asc(a.createdOn), asc(a.id));

  let left = captured ?? new Big(0);
  for (const row of rows) {
    const held = new Big(row.allocatedAmount);
    const kept = held.lt(left) ? held : left;
    left = left.minus(kept);
    const cancelled = kept.eq(0);
    const givenUp = held.minus(kept);
    const discountWithdrawn = cancelled ? new Big(row.discountedAmount) : new Big(0);
    await tx
      .update(a)
      .set(cancelled ? { status: 'Cancelled', allocatedAmount: '0', discountedAmount: '0' } : { status: 'Allocated', allocatedAmount: kept.toFixed(4) })
      .where(and(eq(a.tenantId, scope.tenantId), eq(a.datasetId, scope.datasetId), eq(a.id, row.id)));
    if (row.transactionId) {
      const allocated = sql`greatest(${transactions.allocatedAmount} - ${givenUp.toFixed(4)}::numeric, 0)`;
      const discounted = sql`greatest(${transactions.discountedAmount} - ${discountWithdrawn.toFixed(4)}::numeric, 0)`;
      await tx
        .update(transactions)
        .set({
          allocatedAmount: allocated,
          discountedAmount: discounted,
          paidStatus: sql`case when ${allocated} + ${discounted} >= ${transactions.transactionAmount} then 'FullyPaid' when ${allocated} + ${discounted} > 0 then 'PartPaid' else 'Unpaid' end`,
          updatedOn: new Date(),
        })
        .where(and(eq(transactions.tenantId, scope.tenantId), eq(transactions.datasetId, scope.datasetId), eq(transactions.id, row.transactionId)));
    }
    if (cancelled && row.settlementOfferId) {
      await tx
        .update(settlementOffers)
        .set({ status: 'Open' })
        .where(and(eq(settlementOffers.tenantId, scope.tenantId), eq(settlementOffers.datasetId, scope.datasetId), eq(settlementOffers.id, row.settlementOfferId), eq(settlementOffers.status, 'Used')));
    }
  }
}
