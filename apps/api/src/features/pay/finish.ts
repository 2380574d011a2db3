import type { Tx } from '../../db/client.js';
import { afterMoves, recordMoveEvents, type FinishDeps } from './finish-after.js';
import { finishBatch, type BatchItem } from './finish-batch.js';
import {
  moveFromOutcome,
  type FinishActor,
  type Loaded,
  type Moved,
  type PaymentOutcome,
} from './finish-move.js';
import { lockPayment, lockRequest, quoteOf } from './finish.repository.js';
import type { PayScope, PaymentRow } from './pay.repository.js';
import { claimNotice } from './provider-notices.repository.js';

export type { FinishDeps } from './finish-after.js';
export {
  moneyMismatch,
  noPayment,
  type FinishActor,
  type PaymentMove,
  type PaymentOutcome,
} from './finish-move.js';

/**
 * A payer-page payment finishing (the lifecycle's forward moves, docs/decisions/112): named
 * "finish" and not "settle", which the settlements feature (discount offers) means.
 */

export interface FinishResult {
  changed: boolean;
  payment: PaymentRow | null;
}

/** One move's reads. */
async function load(
  tx: Tx,
  scope: PayScope,
  paymentTransactionId: string,
  outcome: PaymentOutcome,
): Promise<Loaded> {
  // A stored notice is processed exactly once: whoever claims it first does the work.
  // The payment, then its request: a start never locks a payment, so this order cannot deadlock
  // with it, and two moves of one request's payments queue on the request.
  const [claimed, payment] = await Promise.all([
    outcome.notificationId ? claimNotice(tx, scope, outcome.notificationId) : true,
    lockPayment(tx, scope, paymentTransactionId, outcome.configurationId),
  ]);
  if (!claimed || !payment) return { claimed, payment, quote: undefined, request: undefined };
  const [quote, request] = await Promise.all([
    quoteOf(tx, scope, payment.id),
    lockRequest(tx, scope, payment.paymentRequestId),
  ]);
  return { claimed, payment, quote, request };
}

/**
 * The completion path of a payer-page payment, shared by the Sandbox card form, status polls and
 * provider notices. One transaction moves the payment's status (forward only: a late or replayed
 * event never moves Paid back) and, when the money is taken or reserved, allocates it to the
 * invoices as offered, marks the offer Used, records the late-payment fees, updates the invoices
 * and the request, and writes an audit activity. After the commit: the notification mails, the
 * payer's receipt and the payment-event hook.
 */
export function createPaymentFinish(deps: FinishDeps) {
  /**
   * One move in the caller's transaction (its reads, the move and its web hook events): what
   * `afterMoves` must be given once that transaction has committed. The drain finishes a group of
   * notices, money going back among them, in one transaction this way.
   */
  async function finishIn(
    tx: Tx,
    scope: PayScope,
    paymentTransactionId: string,
    outcome: PaymentOutcome,
    actor: FinishActor,
  ): Promise<Moved> {
    const loaded = await load(tx, scope, paymentTransactionId, outcome);
    const moved = await moveFromOutcome(tx, scope, outcome, actor, loaded);
    await recordMoveEvents(deps, tx, scope, [moved]);
    return moved;
  }

  async function finish(
    scope: PayScope,
    paymentTransactionId: string,
    outcome: PaymentOutcome,
    actor: FinishActor,
  ): Promise<FinishResult> {
    const result = await deps.database.withTenant(scope.tenantId, (tx) =>
      finishIn(tx, scope, paymentTransactionId, outcome, actor),
    );
    await afterMoves(deps, scope, [result]);
    return { changed: result.changed, payment: result.payment };
  }

  return {
    finish,
    finishIn,
    finishBatch: (scope: PayScope, items: BatchItem[]) => finishBatch(deps, scope, items),
    afterMoves: (scope: PayScope, results: Moved[]) => afterMoves(deps, scope, results),
  };
}
export type PaymentFinish = ReturnType<typeof createPaymentFinish>;
