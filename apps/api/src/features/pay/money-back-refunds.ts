import Big from 'big.js';
import type { Tx } from '../../db/client.js';
import type { NotificationRefund } from '../../providers/checkout.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import type { MoveActor } from './apply-move.js';
import { eventOfOutcome, moveOf } from './lifecycle.js';
import type { Locked } from './money-back-disputes.js';
import type { MoneyBackNotice } from './money-back.js';
import type { PayScope } from './pay.repository.js';
import { lockRefundsOf, moveAndTell, recordRefund, setRefundStatus, tell } from './refunds.js';

/**
 * A refund matching one staff made (its provider reference) finishes it: Succeeded → Refunded (its
 * `payment.refunded` event now); Failed → Failed, what it reversed restored (`refundFailed`); a
 * refund matching none is recorded as staff's are, within what is left.
 */
export async function onRefund(
  tx: Tx,
  scope: PayScope,
  locked: Locked,
  refund: NotificationRefund,
  actor: MoveActor,
): Promise<string> {
  const { payment, request } = locked;
  // The payment's refunds, locked, in one statement: the one this names, and what is left.
  const refunds = await lockRefundsOf(tx, scope, payment);
  const made = refunds.made(refund.refundReference);
  if (made) {
    if (refund.status === 'Pending') return `Refund ${made.ledgerlineReference} is still under way`;
    if (refund.status === 'Succeeded') {
      if (made.status !== 'Processing')
        return `Refund ${made.ledgerlineReference} stays ${made.status}`;
      await setRefundStatus(tx, scope, made.id, 'Refunded');
      await tell(tx, scope, 'payment.refunded', payment.id, payment.paymentRequestId);
      return `Refund ${made.ledgerlineReference} Refunded`;
    }
    if (made.status === 'Failed') return `Refund ${made.ledgerlineReference} stays Failed`;
    await setRefundStatus(tx, scope, made.id, 'Failed');
    if (!moveOf(payment.status, 'refundFailed'))
      return `Refund ${made.ledgerlineReference} Failed; the payment stays ${payment.status}`;
    await moveAndTell(tx, scope, {
      payment,
      request,
      event: 'refundFailed',
      amount: new Big(made.totalAmount),
      audit: { actor },
    });
    return `Refund ${made.ledgerlineReference} Failed; its money is the invoices' again`;
  }
  if (refund.status === 'Failed')
    return 'A failed refund Ledgerline never recorded: nothing to undo';
  const left = refunds.left;
  if (left.lte(0)) return `Nothing is left of the payment to refund (it is ${payment.status})`;
  const amount = refund.amount ? new Big(refund.amount) : left;
  const recorded = await recordRefund(tx, scope, {
    payment,
    request,
    amount,
    reason: refund.reason ?? null,
    providerReference: refund.refundReference,
    status: refund.status === 'Pending' ? 'Processing' : 'Refunded',
    audit: { actor },
    left,
  });
  return `Refund of ${recorded.amount.toFixed(2)} recorded`;
}

/** A late failure of a Paid payment → Failed, its allocations reversed (TenantPaymentFailed). */
export async function onLateFailure(
  tx: Tx,
  scope: PayScope,
  locked: Locked,
  notice: MoneyBackNotice,
  actor: MoveActor,
  changes: PaymentStatusChange[],
) {
  const { payment, request } = locked;
  const event = notice.status
    ? eventOfOutcome(payment.status, notice.status as Parameters<typeof eventOfOutcome>[1], {
        lateFailure: true,
      })
    : null;
  if (event !== 'lateFailure' || !moveOf(payment.status, event))
    return `Status stays ${payment.status} (a late ${notice.status ?? 'event'} does not move it)`;
  await moveAndTell(tx, scope, {
    payment,
    request,
    event,
    amount: null,
    audit: {
      actor,
      errorMessage: notice.errorMessage ?? 'The money went back after the payment had succeeded.',
    },
  });
  changes.push({ paymentTransactionId: payment.id, status: 'Failed', from: 'Provider' });
  return 'Failed after it had succeeded: its allocations were reversed';
}
