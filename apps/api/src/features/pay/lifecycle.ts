import Big from 'big.js';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { WebHookEventType } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import {
  paymentAllocations as a,
  paymentTransactions,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import type { CheckoutPaymentStatus } from '../../providers/checkout.js';
import { recordLatePaymentFees } from '../money-rules/index.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import type { Offered } from './pay-page.js';
import type { PayScope, PaymentRequestRow, PaymentRow } from './pay.repository.js';
import { flushWrites, insertRow, setRequestStatus } from './deferred-writes.js';
import { inDataset, sameDataset } from '../../platform/scope.js';

/**
 * Issue 19: ONE payment lifecycle, declared as data (as Kill Bill's PaymentStates.xml or
 * Hyperswitch's typed status maps). Every path that moves a payment — the payer page's settle,
 * provider notifications, staff capture and cancel, the reservation expiry job, refunds and
 * disputes — looks its move up in `paymentMoves` and applies it with `applyMove`, in its own
 * transaction. Nothing else writes a payment's status, its allocations' statuses, its invoices'
 * allocated amounts or its request's status (docs/decisions/112-one-payment-lifecycle-declared-as-data.md "One payment lifecycle, declared
 * as data").
 */

/** spec 2 §3 Payment transaction statuses. */
export const paymentStatuses = [
  'Processing',
  'Pending',
  'Paid',
  'Failed',
  'NotAuthorised',
  'Rejected',
  'Cancelled',
  'Refunded',
  'Disputed',
  'Duplicated',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** spec 2 §3 allocation record statuses. Provisional: reserved money, which never counts as paid. */
export const allocationStatuses = ['Allocated', 'Provisional', 'Cancelled'] as const;
export type AllocationStatus = (typeof allocationStatuses)[number];

/** spec 2 §3 request statuses, derived from the money (requestStatusOf). */
export type RequestStatus =
  'Open' | 'PartCompleted' | 'Completed' | 'Pending' | 'Cancelled' | 'Expired';

/**
 * The hidden sub-state of a Processing payment (migration 0019 `provider_step`; it was a suffix on
 * the provider reference): its card details sent and the charge under way ('ticket'), its charge
 * waiting for the card issuer's 3-D Secure answer ('challenge'), that answer sent on
 * ('challengeAnswered'). Any other move clears it.
 */
export const providerSteps = ['ticket', 'challenge', 'challengeAnswered'] as const;
export type ProviderStep = (typeof providerSteps)[number];

const stepSuffix: Record<ProviderStep, string> = {
  ticket: ':ticket',
  challenge: ':challenge',
  challengeAnswered: ':challenge:ticket',
};

/**
 * The reference as the card-frame adapters read it (TranSafe, Opayo Pi): the provider's own
 * reference with its step's suffix, as they were written before the step had a column.
 */
export function referenceForProvider(
  payment: Pick<PaymentRow, 'paymentProviderReference' | 'providerStep'>,
): string | null {
  const reference = payment.paymentProviderReference;
  if (!reference) return reference;
  const step = payment.providerStep as ProviderStep | null;
  return step && stepSuffix[step] ? `${reference}${stepSuffix[step]}` : reference;
}

/** What happened to a payment. */
export const paymentEvents = [
  // A provider's outcome (the card form, a status poll, a notification).
  'paid',
  'reserved',
  'failed',
  'notAuthorised',
  'rejected',
  'providerCancelled',
  // A second settled payment of a Single request another payment already holds.
  'duplicate',
  // Staff (payment-transactions' pending capture and cancel; the reservations queue).
  'captureWhole',
  'capturePart',
  'cancel',
  // The reservation expiry job: the provider's authorisation window has passed.
  'authorisationExpired',
  // The money went back after it had succeeded (GoCardless `failed` after `confirmed`).
  'lateFailure',
  // Refunds (staff or provider-initiated) and disputes: the `refunds` helper wires these.
  'refundPart',
  'refundWhole',
  // A refund under way failed, or one paid came back (a refund notification's Failed).
  'refundFailed',
  'disputeOpened',
  'disputeWon',
  'disputeLost',
] as const;
export type PaymentEvent = (typeof paymentEvents)[number];

/**
 * What a move does to the payment's allocations:
 * - allocate: the money as offered, Allocated (the invoices count it as paid);
 * - provision: the money as offered, Provisional (reserved: the invoices do not count it);
 * - confirm: Provisional → Allocated up to the amount captured (the one due first first), the rest
 *   released (Cancelled, its discount withdrawn, its offer reopened);
 * - release: Provisional → Cancelled;
 * - reverse: Allocated money given back (the amount, else all of it): the last due first, an
 *   allocation left with nothing Cancelled; what it gave back is kept as its reversedAmount;
 * - restore: reversed money allocated again (a dispute won);
 * - none.
 */
export type AllocationEffect =
  'allocate' | 'provision' | 'confirm' | 'release' | 'reverse' | 'restore' | 'none';

/** One allowed move. */
export interface PaymentMoveRule {
  from: readonly PaymentStatus[];
  event: PaymentEvent;
  to: PaymentStatus;
  allocations: AllocationEffect;
  /** The payment's allocated status after the move; null keeps it. */
  allocatedStatus: 'AutoAllocated' | 'NotApplicable' | 'Unallocated' | null;
  /** The merchant's web hook event (issue 15), written in the move's transaction. */
  webHook: WebHookEventType;
  /** The notification mails (spec 3 §3), in the notifications feature's wording; null: none. */
  mail: Pick<PaymentStatusChange, 'status' | 'from'> | null;
  /**
   * The audit activity's operation. A staff route writes its own activity under this operation;
   * a provider's or a job's move is written by applyMove.
   */
  audit: string;
  /** The move needs an amount (a part capture, a part refund). */
  needsAmount?: true;
}

const declined = ['failed', 'notAuthorised', 'rejected'] as const;
const declinedTo = {
  failed: 'Failed',
  notAuthorised: 'NotAuthorised',
  rejected: 'Rejected',
} as const;

/** THE table. Anything not here is not a move (a replay, a late event: the status stays). */
// One move a line, read as the table it is.
// prettier-ignore
export const paymentMoves: readonly PaymentMoveRule[] = [
  // A started payment's provider outcome.
  { from: ['Processing'], event: 'paid', to: 'Paid', allocations: 'allocate', allocatedStatus: 'AutoAllocated', webHook: 'payment.succeeded', mail: { status: 'Paid', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  { from: ['Processing'], event: 'reserved', to: 'Pending', allocations: 'provision', allocatedStatus: 'AutoAllocated', webHook: 'payment.pending', mail: { status: 'Pending', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  ...declined.map((event) => ({ from: ['Processing'] as const, event, to: declinedTo[event], allocations: 'none' as const, allocatedStatus: 'NotApplicable' as const, webHook: 'payment.failed' as const, mail: { status: 'Failed' as const, from: 'Provider' as const }, audit: 'ChangePaymentStatus' })),
  { from: ['Processing'], event: 'providerCancelled', to: 'Cancelled', allocations: 'none', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  // spec 2: a second settled payment of a Single request is Duplicated and allocated to nothing.
  { from: ['Processing'], event: 'duplicate', to: 'Duplicated', allocations: 'none', allocatedStatus: 'Unallocated', webHook: 'payment.duplicated', mail: null, audit: 'ChangePaymentStatus' },
  // A reservation: captured by the provider itself, by staff (whole or part), or undone.
  { from: ['Pending'], event: 'paid', to: 'Paid', allocations: 'confirm', allocatedStatus: null, webHook: 'payment.succeeded', mail: { status: 'Paid', from: 'Pending' }, audit: 'ChangePaymentStatus' },
  { from: ['Pending'], event: 'captureWhole', to: 'Paid', allocations: 'confirm', allocatedStatus: null, webHook: 'payment.captured', mail: { status: 'Paid', from: 'Pending' }, audit: 'CapturePendingPayment' },
  { from: ['Pending'], event: 'capturePart', to: 'Paid', allocations: 'confirm', allocatedStatus: null, webHook: 'payment.captured', mail: { status: 'Paid', from: 'Pending' }, audit: 'CapturePendingPayment', needsAmount: true },
  { from: ['Pending'], event: 'cancel', to: 'Cancelled', allocations: 'release', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Pending' }, audit: 'CancelPendingPayment' },
  ...declined.map((event) => ({ from: ['Pending'] as const, event, to: declinedTo[event], allocations: 'release' as const, allocatedStatus: 'NotApplicable' as const, webHook: 'payment.failed' as const, mail: { status: 'Failed' as const, from: 'Provider' as const }, audit: 'ChangePaymentStatus' })),
  { from: ['Pending'], event: 'providerCancelled', to: 'Cancelled', allocations: 'release', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Pending' }, audit: 'ChangePaymentStatus' },
  { from: ['Pending'], event: 'authorisationExpired', to: 'Cancelled', allocations: 'release', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Pending' }, audit: 'ExpireReservation' },
  // The money went back after it had succeeded.
  { from: ['Paid'], event: 'lateFailure', to: 'Failed', allocations: 'reverse', allocatedStatus: 'NotApplicable', webHook: 'payment.failed', mail: { status: 'Failed', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  // Refunds: a part refund keeps the payment Paid; the whole of it (or of what was left) Refunded.
  { from: ['Paid'], event: 'refundPart', to: 'Paid', allocations: 'reverse', allocatedStatus: null, webHook: 'payment.refunded', mail: null, audit: 'RefundPayment', needsAmount: true },
  { from: ['Paid'], event: 'refundWhole', to: 'Refunded', allocations: 'reverse', allocatedStatus: null, webHook: 'payment.refunded', mail: null, audit: 'RefundPayment' },
  // A Duplicated payment holds no allocation: its refund gives back money nothing counted.
  { from: ['Duplicated'], event: 'refundPart', to: 'Duplicated', allocations: 'none', allocatedStatus: null, webHook: 'payment.refunded', mail: null, audit: 'RefundPayment', needsAmount: true },
  { from: ['Duplicated'], event: 'refundWhole', to: 'Refunded', allocations: 'none', allocatedStatus: 'NotApplicable', webHook: 'payment.refunded', mail: null, audit: 'RefundPayment' },
  // A refund that failed gives the payment back what it reversed: Paid again (refunds helper).
  { from: ['Paid', 'Refunded'], event: 'refundFailed', to: 'Paid', allocations: 'restore', allocatedStatus: null, webHook: 'payment.refund-failed', mail: null, audit: 'RefundFailed', needsAmount: true },
  { from: ['Duplicated'], event: 'refundFailed', to: 'Duplicated', allocations: 'none', allocatedStatus: null, webHook: 'payment.refund-failed', mail: null, audit: 'RefundFailed', needsAmount: true },
  // Disputes: opened holds the books as they are; lost (or charged back at once) reverses the
  // money disputed; won restores what a loss reversed and the payment is Paid again.
  { from: ['Paid'], event: 'disputeOpened', to: 'Disputed', allocations: 'none', allocatedStatus: null, webHook: 'payment.disputed', mail: null, audit: 'ChangePaymentStatus' },
  { from: ['Paid', 'Disputed'], event: 'disputeLost', to: 'Disputed', allocations: 'reverse', allocatedStatus: null, webHook: 'payment.dispute-lost', mail: null, audit: 'ChangePaymentStatus' },
  { from: ['Disputed'], event: 'disputeWon', to: 'Paid', allocations: 'restore', allocatedStatus: null, webHook: 'payment.dispute-won', mail: null, audit: 'ChangePaymentStatus' },
];

/** The move an event makes from a status, or null: not allowed (the payment stays as it is). */
export function moveOf(from: string, event: PaymentEvent): PaymentMoveRule | null {
  return (
    paymentMoves.find(
      (rule) => rule.event === event && (rule.from as readonly string[]).includes(from),
    ) ?? null
  );
}

/**
 * The event a provider's outcome is, for a payment in `from`. A Paid payment moves to Failed only
 * on a late failure (the provider says so); a second settled payment of a Single request that
 * another payment holds is a duplicate.
 */
export function eventOfOutcome(
  from: string,
  status: CheckoutPaymentStatus,
  context: {
    lateFailure?: boolean;
    request?: Pick<PaymentRequestRow, 'usageType' | 'requestStatus'> | null;
  } = {},
): PaymentEvent | null {
  if (
    from === 'Paid' &&
    context.lateFailure &&
    status !== 'Paid' &&
    status !== 'Pending' &&
    status !== 'Processing'
  )
    return 'lateFailure';
  switch (status) {
    case 'Paid':
    case 'Pending': {
      const held =
        context.request &&
        context.request.usageType !== 'Multiple' &&
        (context.request.requestStatus === 'Completed' ||
          context.request.requestStatus === 'Pending');
      if (from === 'Processing' && held) return 'duplicate';
      return status === 'Paid' ? 'paid' : 'reserved';
    }
    case 'Failed':
      return 'failed';
    case 'NotAuthorised':
      return 'notAuthorised';
    case 'Rejected':
      return 'rejected';
    case 'Cancelled':
      return 'providerCancelled';
    default:
      return null;
  }
}

/** What the money of a request's payments is, for requestStatusOf. */
export interface RequestMoney {
  usageType: string | null;
  requestType: string;
  amountToPay: string;
  current: string;
  /** Allocated money of the request's payments (with the discounts it settled). */
  held: string;
  /** Provisional (reserved) money of the request's payments. */
  reserved: string;
  /** The request's payments that are Paid, and those Pending (reserved). */
  paidPayments: number;
  pendingPayments: number;
  /** Transaction requests: invoices not paid in full; and those not paid in full were the reservations captured. */
  owing: number;
  owingIfCaptured: number;
}

/**
 * spec 2 §3 request status, from the money: Completed when paid in full (or, Single usage, when a
 * payment holds it), Pending while a reservation would complete it, PartCompleted when some money
 * is held or reserved, else Open. A Cancelled or Expired request stays so unless money holds it.
 */
export function requestStatusOf(m: RequestMoney): RequestStatus {
  const held = new Big(m.held);
  const reserved = new Big(m.reserved);
  let derived: RequestStatus;
  if (m.usageType !== 'Multiple') {
    derived =
      m.paidPayments > 0 || held.gt(0) ? 'Completed' : m.pendingPayments > 0 ? 'Pending' : 'Open';
  } else if (m.requestType === 'Transaction') {
    derived =
      m.owing === 0
        ? 'Completed'
        : m.owingIfCaptured === 0 && reserved.gt(0)
          ? 'Pending'
          : held.gt(0) || reserved.gt(0)
            ? 'PartCompleted'
            : 'Open';
  } else {
    derived = held.gte(m.amountToPay)
      ? 'Completed'
      : held.plus(reserved).gte(m.amountToPay) && reserved.gt(0)
        ? 'Pending'
        : held.gt(0) || reserved.gt(0)
          ? 'PartCompleted'
          : 'Open';
  }
  if (derived === 'Open' && (m.current === 'Cancelled' || m.current === 'Expired'))
    return m.current;
  return derived;
}

/** An invoice's paid status from what settles it (spec 2 §3: Provisional money never counts). */
export function paidStatusOf(
  transactionAmount: Big.BigSource,
  allocated: Big.BigSource,
  discounted: Big.BigSource,
) {
  const settled = new Big(allocated).plus(discounted);
  return settled.gte(transactionAmount) ? 'FullyPaid' : settled.gt(0) ? 'PartPaid' : 'Unpaid';
}

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

/**
 * allocate / provision: the invoices of a Transaction request as offered (each up to what it still
 * owes), an Account request's one allocation. Provisional money is written to the allocations
 * only: the invoices count it when it is captured (confirm).
 */
async function writeAllocations(
  tx: Tx,
  scope: PayScope,
  payment: PaymentRow,
  offered: Offered | null,
  status: 'Allocated' | 'Provisional',
) {
  const where = (table: typeof transactions | typeof settlementOffers, id: string) =>
    and(inDataset(table, scope), eq(table.id, id));
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
    // The fee lines as shown, recorded by the money rules on the day they were shown for.
    if (invoice.fees.length > 0) {
      await recordLatePaymentFees(tx, scope, {
        paymentTransactionId: payment.id,
        transactionId: row.id,
        paidOn: offered.quotedOn,
      });
    }
    // Another payment may have settled part of it since the payer was quoted: never past what is owed.
    const room = new Big(row.transactionAmount)
      .minus(row.allocatedAmount)
      .minus(row.discountedAmount);
    if (room.lte(0)) continue;
    const discount = Big(invoice.discount).gt(room) ? room : new Big(invoice.discount);
    // A part the payer chose (no discount, no fees), else the invoice in full after its discount.
    const wanted = new Big(
      invoice.paidAmount ?? new Big(invoice.outstandingAmount).minus(invoice.discount),
    );
    const allocated = wanted.gt(room.minus(discount)) ? room.minus(discount) : wanted;
    let offerId: string | null = null;
    if (invoice.offer && discount.gt(0)) {
      if (invoice.offer.source === 'Manual') {
        offerId = invoice.offer.id;
        await tx
          .update(settlementOffers)
          .set({ status: 'Used' })
          .where(where(settlementOffers, offerId));
      } else {
        // A generated offer becomes a Used offer of the invoice, so the merchant sees what was given.
        offerId = uuidv7();
        await tx.insert(settlementOffers).values({
          ...ofScope(scope),
          id: offerId,
          transactionId: row.id,
          type: invoice.offer.type,
          status: 'Used',
          description: invoice.offer.description,
          validFrom: offered.quotedOn,
          validUntil: invoice.offer.validUntil,
          currency: row.currency,
          amount: discount.toFixed(4),
        });
      }
    }
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
    if (status === 'Provisional') continue;
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
      .where(where(transactions, row.id));
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
async function confirm(
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
async function release(tx: Tx, scope: PayScope, paymentTransactionId: string) {
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
async function reverse(
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
async function restore(tx: Tx, scope: PayScope, paymentTransactionId: string, amount: Big | null) {
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

/** The request's money, read in one statement (requestStatusOf's facts). */
async function requestMoney(
  tx: Tx,
  scope: PayScope,
  request: PaymentRequestRow,
): Promise<RequestMoney> {
  const { tenantId, datasetId } = scope;
  const id = request.id;
  await flushWrites(tx);
  const result = (await tx.execute(sql`
    select
      coalesce(sum(a.allocated_amount + a.discounted_amount) filter (where a.status = 'Allocated'), 0)::text as held,
      coalesce(sum(a.allocated_amount + a.discounted_amount) filter (where a.status = 'Provisional'), 0)::text as reserved,
      (select count(*) from payment_transactions p where p.tenant_id = ${tenantId} and p.dataset_id = ${datasetId} and p.payment_request_id = ${id} and p.status = 'Paid')::int as "paidPayments",
      (select count(*) from payment_transactions p where p.tenant_id = ${tenantId} and p.dataset_id = ${datasetId} and p.payment_request_id = ${id} and p.status = 'Pending')::int as "pendingPayments",
      (select count(*) from payment_request_allocations x
        join transactions t on t.tenant_id = x.tenant_id and t.dataset_id = x.dataset_id and t.id = x.transaction_id
        where x.tenant_id = ${tenantId} and x.dataset_id = ${datasetId} and x.payment_request_id = ${id}
          and t.allocated_amount + t.discounted_amount < t.transaction_amount)::int as owing,
      (select count(*) from payment_request_allocations x
        join transactions t on t.tenant_id = x.tenant_id and t.dataset_id = x.dataset_id and t.id = x.transaction_id
        where x.tenant_id = ${tenantId} and x.dataset_id = ${datasetId} and x.payment_request_id = ${id}
          and t.allocated_amount + t.discounted_amount + coalesce((
            select sum(r.allocated_amount + r.discounted_amount) from payment_allocations r
            where r.tenant_id = t.tenant_id and r.dataset_id = t.dataset_id and r.transaction_id = t.id and r.status = 'Provisional'), 0)
            < t.transaction_amount)::int as "owingIfCaptured"
    from payment_allocations a
    join payment_transactions p on p.tenant_id = a.tenant_id and p.dataset_id = a.dataset_id and p.id = a.payment_transaction_id
    where p.tenant_id = ${tenantId} and p.dataset_id = ${datasetId} and p.payment_request_id = ${id}`)) as unknown as {
    rows: Omit<RequestMoney, 'usageType' | 'requestType' | 'amountToPay' | 'current'>[];
  };
  const row = result.rows[0]!;
  return {
    usageType: request.usageType,
    requestType: request.requestType,
    amountToPay: request.amountToPay,
    current: request.requestStatus,
    held: row.held,
    reserved: row.reserved,
    paidPayments: Number(row.paidPayments),
    pendingPayments: Number(row.pendingPayments),
    owing: Number(row.owing),
    owingIfCaptured: Number(row.owingIfCaptured),
  };
}

/**
 * The request's status derived again from its money, in the caller's transaction (the caller holds
 * the request's lock). Answers the request as it is now, and whether this completed it.
 */
export async function deriveRequestStatus(
  tx: Tx,
  scope: PayScope,
  request: PaymentRequestRow,
  /** The status when the move alone decides it (no read needed). */
  known?: RequestStatus,
) {
  const status = known ?? requestStatusOf(await requestMoney(tx, scope, request));
  if (status === request.requestStatus) return { request, completed: false };
  await setRequestStatus(tx, scope, request.id, status);
  return { request: { ...request, requestStatus: status }, completed: status === 'Completed' };
}

/** Who moved it, for the audit activity applyMove writes. */
export interface MoveActor {
  name: string;
  ipAddress?: string | null;
  requestId?: string | null;
}

export interface MoveInput {
  /** The payment, locked by the caller (select … for update) in `tx`. */
  payment: PaymentRow;
  event: PaymentEvent;
  /** The payment's request, locked by the caller after the payment; its status is derived again. */
  request?: PaymentRequestRow | null;
  /** What the payer was shown (allocate, provision). */
  offered?: Offered | null;
  /** A part capture's, refund's or dispute's amount (major units); null: the whole. */
  amount?: Big | null;
  /** Columns the provider's answer sets with the move (its reference, the method, a capture's amount). */
  set?: Partial<
    Pick<
      PaymentRow,
      'paymentProviderReference' | 'paymentMethodType' | 'totalAmount' | 'providerStep'
    >
  >;
  /**
   * The audit activity: written here for a provider's or a job's move; null when a staff route's
   * own activity records it (its operation is the rule's `audit`).
   */
  audit: { actor: MoveActor; errorMessage?: string | null } | null;
}

export interface AppliedMove {
  rule: PaymentMoveRule;
  before: PaymentStatus;
  payment: PaymentRow;
  /** The request as the move left it, and whether the move completed it. */
  request: PaymentRequestRow | null;
  completedRequestId: string | null;
  /** What a `reverse` move took from the allocations (0 for any other move). */
  reversed: Big;
}

export class MoveRefused extends Error {
  constructor(
    readonly from: string,
    readonly event: PaymentEvent,
  ) {
    super(`A ${from} payment cannot be moved by ${event}.`);
  }
}

/**
 * Applies one move of the table in the caller's transaction: the payment's status (and what the
 * provider's answer sets), its allocations and invoices, its request's status derived again, and
 * the audit activity. Throws MoveRefused when the table has no such move. The caller writes the
 * move's web hook event (rule.webHook) in the same transaction and sends its mail after the commit.
 */
export async function applyMove(tx: Tx, scope: PayScope, input: MoveInput): Promise<AppliedMove> {
  const { payment, event } = input;
  const rule = moveOf(payment.status, event);
  if (!rule) throw new MoveRefused(payment.status, event);
  const amount = input.amount ?? null;
  // Everything below is issued without waiting where no value depends on an earlier answer: the
  // statements run in the order issued, so what reads reads after what writes (docs/decisions/086-provider-notifications-are-settled-inline.md
  // "Provider notifications are settled inline").
  const moved = Promise.all([
    tx
      .update(paymentTransactions)
      .set({
        status: rule.to,
        statusDateTime: sql`now()`,
        ...(rule.to !== 'Processing' ? { providerStep: null } : {}),
        ...input.set,
        ...(rule.allocatedStatus ? { allocatedStatus: rule.allocatedStatus } : {}),
      })
      .where(and(inDataset(paymentTransactions, scope), eq(paymentTransactions.id, payment.id)))
      .returning(),
    input.audit
      ? insertRow(tx, auditActivities, {
          tenantId: scope.tenantId,
          id: uuidv7(),
          datasetId: scope.datasetId,
          operation: rule.audit,
          resourceType: 'PaymentTransaction',
          resourceId: payment.id,
          userName: input.audit.actor.name,
          status: 200,
          errorMessage: input.audit.errorMessage ?? null,
          ipAddress: input.audit.actor.ipAddress ?? null,
          requestId: input.audit.actor.requestId ?? null,
        })
      : null,
  ]);
  // Awaited below; a failure fails the transaction either way.
  moved.catch(() => undefined);
  let request = input.request ?? null;
  let completedRequestId: string | null = null;
  let reversed = new Big(0);
  try {
    const effect = rule.allocations;
    if (effect === 'allocate' || effect === 'provision')
      await writeAllocations(
        tx,
        scope,
        payment,
        input.offered ?? null,
        effect === 'allocate' ? 'Allocated' : 'Provisional',
      );
    else if (effect === 'confirm') await confirm(tx, scope, payment.id, amount);
    else if (effect === 'release') await release(tx, scope, payment.id);
    else if (effect === 'reverse') reversed = await reverse(tx, scope, payment.id, amount);
    else if (effect === 'restore') await restore(tx, scope, payment.id, amount);
    if (request && (effect !== 'none' || rule.to !== payment.status || event === 'duplicate')) {
      // A Single request a payment has just been Paid for is Completed (requestStatusOf): the
      // settle path's common move needs no read (bench/pay.ts's notification throughput).
      const known =
        request.usageType !== 'Multiple' && rule.to === 'Paid' ? 'Completed' : undefined;
      const derived = await deriveRequestStatus(tx, scope, request, known);
      request = derived.request;
      if (derived.completed) completedRequestId = request.id;
    }
  } catch (error) {
    // The move's own failure, if it failed, is the cause (what came after it was aborted).
    await moved;
    throw error;
  }
  const [[after]] = await moved;
  return {
    rule,
    before: payment.status as PaymentStatus,
    payment: after!,
    request,
    completedRequestId,
    reversed,
  };
}
