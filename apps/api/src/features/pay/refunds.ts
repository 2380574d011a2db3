import Big from 'big.js';
import { randomInt } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { paymentRequests, paymentTransactions as t } from '../../db/schema-receivables.js';
import {
  recordWebhookEvent,
  recordWebhookEvents,
  type WebHookEventInput,
} from '../web-hooks/index.js';
import { createPaymentTransactionsRepository } from '../payment-transactions/index.js';
import { applyMove, type AppliedMove, type MoveActor } from './apply-move.js';
import type { PaymentEvent } from './lifecycle.js';
import type { PayScope, PaymentRequestRow, PaymentRow } from './pay.repository.js';
import { inDataset } from '../../platform/scope.js';

/**
 * The money side of a refund, shared by staff's refund (payment-transactions.refunds.ts)
 * and the providers' refund notifications (refund-notifications.ts). A refund is a Refund-type
 * payment transaction naming its payment (`refund_of_id`): Processing while its provider has not
 * finished it, Refunded once the money went back, Failed when it did not. Its payment moves
 * through the lifecycle (refundPart / refundWhole / refundFailed), which reverses and restores the
 * allocations, so its invoices owe again and its request's status follows.
 */

/** A payment that can give money back: paid, or paid twice (Duplicated, allocated to nothing). */
export const refundableStatuses: readonly string[] = ['Paid', 'Duplicated'];
/** Refunds that count against what is left of a payment. */
const counted = ['Processing', 'Refunded'];

const payments = createPaymentTransactionsRepository();

export function refundReference(): string {
  return `RF${Date.now().toString().slice(-7)}${String(randomInt(0, 100_000)).padStart(5, '0')}`;
}

/** What refunds made or under way have taken from a payment. */
export async function refundedSoFar(tx: Tx, scope: PayScope, paymentId: string): Promise<Big> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${t.totalAmount}), 0)::text` })
    .from(t)
    .where(and(inDataset(t, scope), eq(t.refundOfId, paymentId), inArray(t.status, counted)));
  return new Big(row?.total ?? '0');
}

/** What is left to refund of a payment (0 for one that cannot be refunded). */
export async function refundableAmount(tx: Tx, scope: PayScope, payment: PaymentRow): Promise<Big> {
  if (payment.type !== 'Payment' || !refundableStatuses.includes(payment.status)) return new Big(0);
  const left = new Big(payment.totalAmount).minus(await refundedSoFar(tx, scope, payment.id));
  return left.gt(0) ? left : new Big(0);
}

/** The payment, locked; then its request, locked (the lifecycle's order). */
export async function lockPaymentAndRequest(tx: Tx, scope: PayScope, paymentId: string) {
  const [payment] = await tx
    .select()
    .from(t)
    .where(and(inDataset(t, scope), eq(t.id, paymentId)))
    .for('update');
  if (!payment) return null;
  const [request] = payment.paymentRequestId
    ? await tx
        .select()
        .from(paymentRequests)
        .where(
          and(inDataset(paymentRequests, scope), eq(paymentRequests.id, payment.paymentRequestId)),
        )
        .for('update')
    : [];
  return { payment, request: (request ?? null) as PaymentRequestRow | null };
}

/** The lifecycle move and its web hook event (the payment as GET payment-transactions/{id} answers it). */
export async function moveAndTell(
  tx: Tx,
  scope: PayScope,
  input: {
    payment: PaymentRow;
    request: PaymentRequestRow | null;
    event: PaymentEvent;
    amount: Big | null;
    audit: { actor: MoveActor; errorMessage?: string | null } | null;
    /** False: the move's web hook waits (a refund under way is told when it is done). */
    tell?: boolean;
  },
): Promise<AppliedMove> {
  const applied = await applyMove(tx, scope, input);
  if (input.tell !== false)
    await tell(tx, scope, applied.rule.webHook, input.payment.id, input.payment.paymentRequestId);
  return applied;
}

/** A web hook event held back (holdTells): its payload read once `readHeldTells` runs. */
interface HeldTell {
  type: AppliedMove['rule']['webHook'];
  paymentId: string;
  requestId: string | null;
  /** The lane (a savepoint of the drain's group) that told it. */
  lane: number;
  payload?: WebHookEventInput<AppliedMove['rule']['webHook']>['payload'];
}
interface HeldTells {
  scope: PayScope;
  lane: number;
  /** Told, not yet written, in the order told. */
  held: HeldTell[];
  /** Written during the current lane (writeHeldTells): told again should the lane roll back. */
  writtenInLane: HeldTell[];
}
const heldOf = new WeakMap<Tx, HeldTells>();

/**
 * From now on, `tx`'s web hook events about payments (tell) are held back (the drain's
 * group of notifications giving money back read each payload with about nine statements): their
 * payloads are read together (readHeldTells) before anything moves what they describe again, and
 * written together (writeHeldTells) before the group commits. A lane that rolls back
 * (`endTellLane(tx, false)`) takes its events with it.
 */
export function holdTells(tx: Tx, scope: PayScope) {
  heldOf.set(tx, { scope, lane: 0, held: [], writtenInLane: [] });
}

/** A new lane of the group begins (its events are dropped should it roll back). */
export function startTellLane(tx: Tx) {
  const state = heldOf.get(tx);
  if (!state) return;
  state.lane += 1;
  state.writtenInLane = [];
}

/**
 * The lane ended: kept (its savepoint released), or rolled back, its own events dropped and the
 * other lanes' events it wrote inside its savepoint (writeHeldTells) held again, payloads as read.
 */
export function endTellLane(tx: Tx, kept: boolean) {
  const state = heldOf.get(tx);
  if (!state) return;
  if (!kept) {
    const again = state.writtenInLane.filter((told) => told.lane !== state.lane);
    state.held = [...again, ...state.held.filter((told) => told.lane !== state.lane)];
  }
  state.writtenInLane = [];
}

/**
 * Reads the payloads of the held events (one findManyWithDetails for them all), as things are now:
 * to be called before a move of a payment (or of a request) one of them describes.
 */
export async function readHeldTells(tx: Tx) {
  const state = heldOf.get(tx);
  const unread = state?.held.filter((told) => told.payload === undefined) ?? [];
  if (!state || unread.length === 0) return;
  const found = await payments.findManyWithDetails(tx, state.scope, [
    ...new Set(unread.map((told) => told.paymentId)),
  ]);
  for (const told of unread) told.payload = found.get(told.paymentId)!;
}

/** Whether a held event still to be read describes this payment or this request. */
export function tellsHeldAbout(tx: Tx, paymentId: string, requestId: string | null) {
  const state = heldOf.get(tx);
  return (
    state?.held.some(
      (told) =>
        told.payload === undefined &&
        (told.paymentId === paymentId || (requestId !== null && told.requestId === requestId)),
    ) ?? false
  );
}

/** Writes the held events (their payloads read first where they were not), in one statement. */
export async function writeHeldTells(tx: Tx) {
  const state = heldOf.get(tx);
  if (!state || state.held.length === 0) return;
  await readHeldTells(tx);
  const written = state.held;
  state.held = [];
  state.writtenInLane.push(...written);
  await recordWebhookEvents(
    tx,
    state.scope,
    written.map((told) => ({
      type: told.type,
      recordType: 'PaymentTransaction',
      recordId: told.paymentId,
      payload: told.payload!,
    })),
  );
}

/** A web hook event about a payment: the payment as GET payment-transactions/{id} answers it. */
export async function tell(
  tx: Tx,
  scope: PayScope,
  type: AppliedMove['rule']['webHook'],
  paymentId: string,
  requestId: string | null = null,
) {
  const state = heldOf.get(tx);
  if (state) {
    state.held.push({ type, paymentId, requestId, lane: state.lane });
    return;
  }
  await recordWebhookEvent(tx, scope, {
    type,
    recordType: 'PaymentTransaction',
    recordId: paymentId,
    payload: (await payments.findWithDetails(tx, scope, paymentId))!,
  });
}

export interface NewRefund {
  payment: PaymentRow;
  request: PaymentRequestRow | null;
  amount: Big;
  reason: string | null;
  /** Our id for it (the provider's idempotency key), when chosen before the provider's call. */
  id?: string;
  /** The provider's id of the refund. */
  providerReference: string | null;
  /** Processing: its provider has not finished it (its notification will). */
  status: 'Processing' | 'Refunded';
  audit: { actor: MoveActor } | null;
  /**
   * What is left to refund, when the caller has just read it (refundableAmount) in this
   * transaction with the payment locked: not read again.
   */
  left?: Big;
}

/** The Refund transaction's row for a refund of `payment`. */
export function refundRow(
  scope: PayScope,
  payment: PaymentRow,
  input: {
    id: string;
    amount: Big;
    reason: string | null;
    providerReference: string | null;
    status: 'Processing' | 'Refunded';
  },
) {
  return {
    tenantId: scope.tenantId,
    datasetId: scope.datasetId,
    id: input.id,
    type: 'Refund',
    status: input.status,
    allocatedStatus: 'NotApplicable',
    ledgerlineReference: refundReference(),
    statusDateTime: new Date(),
    totalAmount: input.amount.toFixed(4),
    currency: payment.currency,
    paymentRequestId: payment.paymentRequestId,
    customerName: payment.customerName,
    companyName: payment.companyName,
    customerDetails: payment.customerDetails,
    accountId: payment.accountId,
    payerId: payment.payerId,
    paymentProviderId: payment.paymentProviderId,
    paymentProviderName: payment.paymentProviderName,
    paymentProviderReference: input.providerReference,
    paymentMethodType: payment.paymentMethodType,
    refundOfId: payment.id,
    refundReason: input.reason,
  } satisfies typeof t.$inferInsert;
}

/**
 * The payment's move for a refund of `amount`, in the caller's transaction (the payment and its
 * request locked): the whole of what is left (`left`, the refund itself not counted) refunds it
 * (Refunded), less keeps it Paid; either gives its invoices the money back. Told by web hook
 * unless the refund is still under way.
 */
export function moveForRefund(
  tx: Tx,
  scope: PayScope,
  input: {
    payment: PaymentRow;
    request: PaymentRequestRow | null;
    amount: Big;
    left: Big;
    audit: { actor: MoveActor } | null;
    tell: boolean;
  },
) {
  const whole = input.amount.gte(input.left);
  return moveAndTell(tx, scope, {
    payment: input.payment,
    request: input.request,
    event: whole ? 'refundWhole' : 'refundPart',
    amount: whole ? null : input.amount,
    audit: input.audit,
    tell: input.tell,
  });
}

/**
 * Records a refund the provider reports of its own (no staff refund matches it), in the caller's
 * transaction (the payment and its request locked): the Refund transaction and the payment's move.
 * Never more than what is left: the amount is capped by it.
 */
export async function recordRefund(tx: Tx, scope: PayScope, input: NewRefund) {
  const { payment } = input;
  const left = input.left ?? (await refundableAmount(tx, scope, payment));
  const amount = input.amount.gt(left) ? left : input.amount;
  const id = input.id ?? uuidv7();
  await tx.insert(t).values(
    refundRow(scope, payment, {
      id,
      amount,
      reason: input.reason,
      providerReference: input.providerReference,
      status: input.status,
    }),
  );
  const applied = await moveForRefund(tx, scope, {
    payment,
    request: input.request,
    amount,
    left,
    audit: input.audit,
    tell: input.status === 'Refunded',
  });
  return { refundId: id, applied, amount };
}

/**
 * A payment's refunds, locked, in one statement (a refund notification's reads): the one of a
 * provider reference, and what is left to refund (refundableAmount's answer).
 */
export async function lockRefundsOf(tx: Tx, scope: PayScope, payment: PaymentRow) {
  const rows = await tx
    .select()
    .from(t)
    .where(and(inDataset(t, scope), eq(t.refundOfId, payment.id)))
    .orderBy(t.id)
    .for('update');
  const taken = rows
    .filter((row) => counted.includes(row.status))
    .reduce((sum, row) => sum.plus(row.totalAmount), new Big(0));
  const left =
    payment.type === 'Payment' && refundableStatuses.includes(payment.status)
      ? new Big(payment.totalAmount).minus(taken)
      : new Big(0);
  return {
    made: (reference: string) =>
      rows.find((row) => row.paymentProviderReference === reference) ?? null,
    left: left.gt(0) ? left : new Big(0),
  };
}

/** Sets a refund's status (Processing → Refunded or Failed). */
export async function setRefundStatus(
  tx: Tx,
  scope: PayScope,
  refundId: string,
  status: 'Refunded' | 'Failed',
) {
  await tx
    .update(t)
    .set({ status, statusDateTime: sql`now()` })
    .where(and(inDataset(t, scope), eq(t.id, refundId)));
}
