import Big from 'big.js';
import { randomInt } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { paymentRequests, paymentTransactions as t } from '../../db/schema-receivables.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { createPaymentTransactionsRepository } from '../payment-transactions/index.js';
import { applyMove, type AppliedMove, type MoveActor, type PaymentEvent } from './lifecycle.js';
import type { PayScope, PaymentRequestRow, PaymentRow } from './pay.repository.js';

/**
 * Issue 19: the money side of a refund, shared by staff's refund (payment-transactions.refunds.ts)
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
    .where(
      and(
        eq(t.tenantId, scope.tenantId),
        eq(t.datasetId, scope.datasetId),
        eq(t.refundOfId, paymentId),
        inArray(t.status, counted),
      ),
    );
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
    .where(
      and(eq(t.tenantId, scope.tenantId), eq(t.datasetId, scope.datasetId), eq(t.id, paymentId)),
    )
    .for('update');
  if (!payment) return null;
  const [request] = payment.paymentRequestId
    ? await tx
        .select()
        .from(paymentRequests)
        .where(
          and(
            eq(paymentRequests.tenantId, scope.tenantId),
            eq(paymentRequests.datasetId, scope.datasetId),
            eq(paymentRequests.id, payment.paymentRequestId),
          ),
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
  if (input.tell !== false) await tell(tx, scope, applied.rule.webHook, input.payment.id);
  return applied;
}

/** A web hook event about a payment: the payment as GET payment-transactions/{id} answers it. */
export async function tell(
  tx: Tx,
  scope: PayScope,
  type: AppliedMove['rule']['webHook'],
  paymentId: string,
) {
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
  await tx
    .insert(t)
    .values(
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

/** A payment's refund by its provider's reference, locked. */
export async function lockRefundByReference(
  tx: Tx,
  scope: PayScope,
  paymentId: string,
  reference: string,
) {
  const [row] = await tx
    .select()
    .from(t)
    .where(
      and(
        eq(t.tenantId, scope.tenantId),
        eq(t.datasetId, scope.datasetId),
        eq(t.refundOfId, paymentId),
        eq(t.paymentProviderReference, reference),
      ),
    )
    .for('update');
  return row ?? null;
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
    .where(
      and(eq(t.tenantId, scope.tenantId), eq(t.datasetId, scope.datasetId), eq(t.id, refundId)),
    );
}
