import Big from 'big.js';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import {
  paymentAllocations as a,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import { inDataset, sameDataset } from '../../platform/scope.js';
import { recordLatePaymentFees } from '../money-rules/index.js';
import { flushWrites, insertRow } from './deferred-writes.js';
import { paidStatusOf, type AllocationStatus } from './lifecycle.js';
import type { Offered } from './pay-page-answer.js';
import type { PayScope, PaymentRow } from './pay.repository.js';

/**
 * The allocation effects of the lifecycle's moves (lifecycle.ts `AllocationEffect`): allocate and
 * provision write a payment's allocations, confirm / release / reverse / restore move them, and
 * each keeps its invoices' allocated and discounted amounts and paid status in step.
 */
const ofScope = (scope: PayScope) => ({ tenantId: scope.tenantId, datasetId: scope.datasetId });

/** The invoice's allocated and discounted amounts moved by what its allocations gained or gave up; its paid status follows. */
async function shiftInvoice(
  tx: Tx,
  scope: PayScope,
  transactionId: string,
  allocatedDelta: Big,
  discountDelta: Big,
) {
  if (allocatedDelta.eq(0) && discountDelta.eq(0)) return;
  const allocated = sql`greatest(${transactions.allocatedAmount} + ${allocatedDelta.toFixed(4)}::numeric, 0)`;
  const discounted = sql`greatest(${transactions.discountedAmount} + ${discountDelta.toFixed(4)}::numeric, 0)`;
  await tx
    .update(transactions)
    .set({
      allocatedAmount: allocated,
      discountedAmount: discounted,
      paidStatus: sql`case when ${allocated} + ${discounted} >= ${transactions.transactionAmount} then 'FullyPaid' when ${allocated} + ${discounted} > 0 then 'PartPaid' else 'Unpaid' end`,
      updatedOn: new Date(),
    })
    .where(and(inDataset(transactions, scope), eq(transactions.id, transactionId)));
}

async function reopenOffer(tx: Tx, scope: PayScope, offerId: string | null) {
  if (!offerId) return;
  await tx
    .update(settlementOffers)
    .set({ status: 'Open' })
    .where(
      and(
        inDataset(settlementOffers, scope),
        eq(settlementOffers.id, offerId),
        eq(settlementOffers.status, 'Used'),
      ),
    );
}

type InvoiceRow = typeof transactions.$inferSelect;
type OfferedInvoice = Offered['invoices'][number];

/**
 * What a payment puts on one invoice as offered: its discount and allocated amount, never past
 * what the invoice still owes (another payment may have settled part of it since the payer was
 * quoted); null when it owes nothing now.
 */
export function invoiceShareOf(
  row: Pick<InvoiceRow, 'transactionAmount' | 'allocatedAmount' | 'discountedAmount'>,
  invoice: Pick<OfferedInvoice, 'discount' | 'paidAmount' | 'outstandingAmount'>,
): { discount: Big; allocated: Big } | null {
  const room = new Big(row.transactionAmount)
    .minus(row.allocatedAmount)
    .minus(row.discountedAmount);
  if (room.lte(0)) return null;
  const discount = Big(invoice.discount).gt(room) ? room : new Big(invoice.discount);
  // A part the payer chose (no discount, no fees), else the invoice in full after its discount.
  const wanted = new Big(
    invoice.paidAmount ?? new Big(invoice.outstandingAmount).minus(invoice.discount),
  );
  const allocated = wanted.gt(room.minus(discount)) ? room.minus(discount) : wanted;
  return { discount, allocated };
}

/**
 * The offer a discount used: a Manual offer is marked Used; a generated one becomes a Used offer
 * of the invoice, so the merchant sees what was given. Null when no offer gave a discount.
 */
async function useOffer(
  tx: Tx,
  scope: PayScope,
  row: InvoiceRow,
  invoice: OfferedInvoice,
  discount: Big,
  quotedOn: Offered['quotedOn'],
): Promise<string | null> {
  if (!invoice.offer || !discount.gt(0)) return null;
  if (invoice.offer.source === 'Manual') {
    await tx
      .update(settlementOffers)
      .set({ status: 'Used' })
      .where(and(inDataset(settlementOffers, scope), eq(settlementOffers.id, invoice.offer.id)));
    return invoice.offer.id;
  }
  const offerId = uuidv7();
  await tx.insert(settlementOffers).values({
    ...ofScope(scope),
    id: offerId,
    transactionId: row.id,
    type: invoice.offer.type,
    status: 'Used',
    description: invoice.offer.description,
    validFrom: quotedOn,
    validUntil: invoice.offer.validUntil,
    currency: row.currency,
    amount: discount.toFixed(4),
  });
  return offerId;
}

/** One offered invoice's allocation (and, Allocated, the invoice's amounts and paid status). */
async function allocateInvoice(
  tx: Tx,
  scope: PayScope,
  payment: PaymentRow,
  offered: Offered,
  status: 'Allocated' | 'Provisional',
  row: InvoiceRow,
  invoice: OfferedInvoice,
) {
  // The fee lines as shown, recorded by the money rules on the day they were shown for.
  if (invoice.fees.length > 0) {
    await recordLatePaymentFees(tx, scope, {
      paymentTransactionId: payment.id,
      transactionId: row.id,
      paidOn: offered.quotedOn,
    });
  }
  const share = invoiceShareOf(row, invoice);
  if (!share) return;
  const { discount, allocated } = share;
  const offerId = await useOffer(tx, scope, row, invoice, discount, offered.quotedOn);
  await insertRow(tx, a, {
    ...ofScope(scope),
    id: uuidv7(),
    paymentTransactionId: payment.id,
    type: 'Payment',
    status,
    entityType: 'Transaction',
    transactionId: row.id,
    accountId: row.accountId,
    settlementOfferId: offerId,
    discountedAmount: discount.toFixed(4),
    allocatedAmount: allocated.toFixed(4),
  });
  if (status === 'Provisional') return;
  const newAllocated = new Big(row.allocatedAmount).plus(allocated);
  const newDiscounted = new Big(row.discountedAmount).plus(discount);
  await tx
    .update(transactions)
    .set({
      allocatedAmount: newAllocated.toFixed(4),
      discountedAmount: newDiscounted.toFixed(4),
      paidStatus: paidStatusOf(row.transactionAmount, newAllocated, newDiscounted),
      updatedOn: new Date(),
    })
    .where(and(inDataset(transactions, scope), eq(transactions.id, row.id)));
}

/**
 * allocate / provision: the invoices of a Transaction request as offered (each up to what it still
 * owes), an Account request's one allocation. Provisional money is written to the allocations
 * only: the invoices count it when it is captured (confirm).
 */
export async function writeAllocations(
  tx: Tx,
  scope: PayScope,
  payment: PaymentRow,
  offered: Offered | null,
  status: 'Allocated' | 'Provisional',
) {
  if (!offered || offered.invoices.length === 0) {
    await insertRow(tx, a, {
      ...ofScope(scope),
      id: uuidv7(),
      paymentTransactionId: payment.id,
      type: 'Payment',
      status,
      entityType: 'Account',
      accountId: payment.accountId,
      allocatedAmount: payment.totalAmount,
    });
    return;
  }
  const ids = offered.invoices.map((invoice) => invoice.transactionId);
  const rows = await tx
    .select()
    .from(transactions)
    .where(and(inDataset(transactions, scope), inArray(transactions.id, ids)))
    .orderBy(transactions.id)
    .for('update');
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const invoice of offered.invoices) {
    const row = byId.get(invoice.transactionId);
    if (!row) continue; // deleted by the ERP since: the money stays unallocated to it
    await allocateInvoice(tx, scope, payment, offered, status, row, invoice);
  }
}

/** A payment's allocations with their invoices' due dates, in `order`. */
async function allocationsOf(
  tx: Tx,
  scope: PayScope,
  paymentTransactionId: string,
  statuses: AllocationStatus[],
  newestFirst = false,
) {
  // What a batch held back is written before its allocations are read (deferred-writes.ts).
  await flushWrites(tx);
  return (
    tx
      .select({
        id: a.id,
        status: a.status,
        transactionId: a.transactionId,
        allocatedAmount: a.allocatedAmount,
        discountedAmount: a.discountedAmount,
        reversedAmount: a.reversedAmount,
        settlementOfferId: a.settlementOfferId,
        transactionAmount: transactions.transactionAmount,
        invoiceAllocated: transactions.allocatedAmount,
        invoiceDiscounted: transactions.discountedAmount,
      })
      .from(a)
      .leftJoin(
        transactions,
        and(sameDataset(transactions, a), eq(transactions.id, a.transactionId)),
      )
      .where(
        and(
          inDataset(a, scope),
          eq(a.paymentTransactionId, paymentTransactionId),
          inArray(a.status, statuses),
        ),
      )
      // Invoices first (an account allocation has no due date), the one due first, then the oldest
      // allocation (docs/decisions/042-allocations-follow-a-capture-or-a-cancel.md "Allocations follow a capture or a cancel"); reversed: the other way.
      .orderBy(
        ...(newestFirst
          ? [sql`${transactions.dueDate} desc nulls first`, desc(a.createdOn), desc(a.id)]
          : [sql`${transactions.dueDate} asc nulls last`, asc(a.createdOn), asc(a.id)]),
      )
  );
}

const setAllocation = (
  tx: Tx,
  scope: PayScope,
  id: string,
  values: Partial<typeof a.$inferInsert>,
) =>
  tx
    .update(a)
    .set(values)
    .where(and(inDataset(a, scope), eq(a.id, id)));

/** confirm: a capture of `captured` (null: all of it) turns Provisional money Allocated; the rest is released. */
export async function confirm(
  tx: Tx,
  scope: PayScope,
  paymentTransactionId: string,
  captured: Big | null,
) {
  const rows = await allocationsOf(tx, scope, paymentTransactionId, ['Provisional']);
  let left = captured ?? rows.reduce((sum, row) => sum.plus(row.allocatedAmount), new Big(0));
  for (const row of rows) {
    const held = new Big(row.allocatedAmount);
    let kept = held.lt(left) ? held : left;
    // Never past what the invoice owes now (another payment may have settled it meanwhile).
    if (row.transactionId && row.transactionAmount !== null) {
      const room = new Big(row.transactionAmount)
        .minus(row.invoiceAllocated!)
        .minus(row.invoiceDiscounted!)
        .minus(row.discountedAmount);
      if (kept.gt(room)) kept = room.gt(0) ? room : new Big(0);
    }
    left = left.minus(kept);
    if (kept.eq(0)) {
      await setAllocation(tx, scope, row.id, {
        status: 'Cancelled',
        allocatedAmount: '0',
        discountedAmount: '0',
      });
      await reopenOffer(tx, scope, row.settlementOfferId);
      continue;
    }
    await setAllocation(tx, scope, row.id, {
      status: 'Allocated',
      allocatedAmount: kept.toFixed(4),
    });
    if (row.transactionId)
      await shiftInvoice(tx, scope, row.transactionId, kept, new Big(row.discountedAmount));
  }
}

/** release: reserved money goes back; a discount it held is withdrawn and its offer reopens. */
export async function release(tx: Tx, scope: PayScope, paymentTransactionId: string) {
  const rows = await allocationsOf(tx, scope, paymentTransactionId, ['Provisional']);
  for (const row of rows) {
    await setAllocation(tx, scope, row.id, {
      status: 'Cancelled',
      allocatedAmount: '0',
      discountedAmount: '0',
    });
    await reopenOffer(tx, scope, row.settlementOfferId);
  }
}

/** reverse: Allocated money given back (`amount`, else all of it), the last due first. */
export async function reverse(
  tx: Tx,
  scope: PayScope,
  paymentTransactionId: string,
  amount: Big | null,
): Promise<Big> {
  const rows = await allocationsOf(tx, scope, paymentTransactionId, ['Allocated'], true);
  let left = amount ?? rows.reduce((sum, row) => sum.plus(row.allocatedAmount), new Big(0));
  let total = new Big(0);
  for (const row of rows) {
    if (left.lte(0)) break;
    const held = new Big(row.allocatedAmount);
    const taken = held.lt(left) ? held : left;
    left = left.minus(taken);
    total = total.plus(taken);
    const emptied = taken.eq(held);
    await setAllocation(tx, scope, row.id, {
      status: emptied ? 'Cancelled' : 'Allocated',
      allocatedAmount: held.minus(taken).toFixed(4),
      reversedAmount: new Big(row.reversedAmount).plus(taken).toFixed(4),
    });
    // An allocation left with nothing no longer settles its invoice's discount either (kept on the row for a restore).
    if (row.transactionId)
      await shiftInvoice(
        tx,
        scope,
        row.transactionId,
        taken.times(-1),
        emptied ? new Big(row.discountedAmount).times(-1) : new Big(0),
      );
  }
  return total;
}

/** restore: reversed money allocated again (`amount`, else all of it), the one due first first, never past what the invoice owes. */
export async function restore(
  tx: Tx,
  scope: PayScope,
  paymentTransactionId: string,
  amount: Big | null,
) {
  const rows = (
    await allocationsOf(tx, scope, paymentTransactionId, ['Allocated', 'Cancelled'])
  ).filter((row) => new Big(row.reversedAmount).gt(0));
  let left = amount ?? rows.reduce((sum, row) => sum.plus(row.reversedAmount), new Big(0));
  for (const row of rows) {
    if (left.lte(0)) break;
    const reversed = new Big(row.reversedAmount);
    const wasEmpty = row.status === 'Cancelled';
    const discount = wasEmpty ? new Big(row.discountedAmount) : new Big(0);
    let given = reversed.lt(left) ? reversed : left;
    if (row.transactionId && row.transactionAmount !== null) {
      const room = new Big(row.transactionAmount)
        .minus(row.invoiceAllocated!)
        .minus(row.invoiceDiscounted!)
        .minus(discount);
      if (given.gt(room)) given = room.gt(0) ? room : new Big(0);
    }
    if (given.eq(0)) continue;
    left = left.minus(given);
    await setAllocation(tx, scope, row.id, {
      status: 'Allocated',
      allocatedAmount: new Big(row.allocatedAmount).plus(given).toFixed(4),
      reversedAmount: reversed.minus(given).toFixed(4),
    });
    if (row.transactionId) await shiftInvoice(tx, scope, row.transactionId, given, discount);
  }
}
