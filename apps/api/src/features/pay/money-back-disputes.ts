import Big from 'big.js';
import type { Tx } from '../../db/client.js';
import type { NotificationDispute } from '../../providers/checkout.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import type { MoveActor } from './apply-move.js';
import { moveOf } from './lifecycle.js';
import { lockDispute, writeDispute, type DisputeRow } from './money-back.repository.js';
import type { PayScope } from './pay.repository.js';
import { moveAndTell, tell, type lockPaymentAndRequest } from './refunds.js';

export type Locked = NonNullable<Awaited<ReturnType<typeof lockPaymentAndRequest>>>;

const open: ReadonlySet<string> = new Set(['Opened', 'UnderReview']);
/** How far a dispute has gone: it never goes back (Won and Lost are both its end). */
const stageRank: Record<NotificationDispute['stage'], number> = {
  Opened: 0,
  UnderReview: 1,
  Won: 2,
  Lost: 2,
};
/** How far a stored stage has gone (an unknown one: as far as can be). */
const rankOf = (stage: string) => stageRank[stage as NotificationDispute['stage']] ?? 2;

/**
 * Why a known dispute stays as it is: the same stage again, or one earlier than the one reached
 * (providers deliver out of order: Opened after Under review, either after Won or Lost, is an old
 * event arriving late, never a reopening; a closed dispute moves only between Won and Lost, a
 * chargeback cancelled or taken again). Null: it moves.
 */
export function disputeStays(
  found: Pick<DisputeRow, 'stage'> | undefined,
  dispute: Pick<NotificationDispute, 'stage' | 'disputeReference'>,
): string | null {
  if (!found) return null;
  if (found.stage === dispute.stage)
    return `Dispute ${dispute.disputeReference} stays ${found.stage}`;
  if (stageRank[dispute.stage] < rankOf(found.stage))
    return `Dispute ${dispute.disputeReference} stays ${found.stage}: ${dispute.stage} is an earlier event delivered late`;
  return null;
}

/** One dispute notice's work: what it writes, moves and tells. */
function disputeCase(
  tx: Tx,
  scope: PayScope,
  locked: Locked,
  dispute: NotificationDispute,
  actor: MoveActor,
  changes: PaymentStatusChange[],
  found: DisputeRow | undefined,
) {
  const { payment, request } = locked;
  const amount = dispute.amount ? new Big(dispute.amount) : new Big(payment.totalAmount);
  const values = {
    stage: dispute.stage,
    amount: amount.toFixed(4),
    ...(dispute.reason ? { reason: dispute.reason } : {}),
    ...(dispute.respondBy ? { respondBy: new Date(dispute.respondBy) } : {}),
    closedOn: open.has(dispute.stage) ? null : new Date(),
    updatedOn: new Date(),
  };
  /**
   * The dispute as it now stands, in one statement with what the move gave back (its
   * reversedAmount: what a Lost took from the allocations, which a Won gives back), written
   * before the move's web hook event is read.
   */
  const write = (reversedAmount?: Big) =>
    writeDispute(tx, scope, found, payment, dispute, {
      ...values,
      ...(reversedAmount ? { reversedAmount: reversedAmount.toFixed(4) } : {}),
    });
  const change = (status: PaymentStatusChange['status']) =>
    changes.push({
      paymentTransactionId: payment.id,
      status,
      from: 'Provider',
      key: dispute.disputeReference,
    });
  const moveThenWrite = async (
    event: 'disputeOpened' | 'disputeLost' | 'disputeWon',
    moved: Big | null,
    reversedAfter: (applied: Awaited<ReturnType<typeof moveAndTell>>) => Big | undefined,
  ) => {
    const applied = await moveAndTell(tx, scope, {
      payment,
      request,
      event,
      amount: moved,
      audit: { actor },
      tell: false,
    });
    await write(reversedAfter(applied));
    await tell(tx, scope, applied.rule.webHook, payment.id, payment.paymentRequestId);
  };
  const reversed = new Big(found?.reversedAmount ?? '0');
  return { payment, dispute, found, amount, reversed, write, change, moveThenWrite };
}
type DisputeCase = ReturnType<typeof disputeCase>;

async function onOpen(c: DisputeCase): Promise<string> {
  const { dispute, payment } = c;
  if (c.found) {
    await c.write();
    return `Dispute ${dispute.disputeReference} ${dispute.stage}`;
  }
  if (moveOf(payment.status, 'disputeOpened')) {
    await c.moveThenWrite('disputeOpened', null, () => undefined);
    c.change('Disputed');
    return `Dispute ${dispute.disputeReference} opened: the payment is Disputed`;
  }
  await c.write();
  c.change('Disputed');
  return `Dispute ${dispute.disputeReference} ${dispute.stage}; the payment stays ${payment.status}`;
}

async function onLost(c: DisputeCase): Promise<string> {
  const { dispute, payment, amount } = c;
  if (!moveOf(payment.status, 'disputeLost')) {
    await c.write();
    return `Dispute ${dispute.disputeReference} Lost; the payment stays ${payment.status}`;
  }
  // What it actually took from the invoices (never more than the payment still held): a Won
  // gives exactly that back, never what a refund had already given back.
  await c.moveThenWrite('disputeLost', amount, (applied) => applied.reversed);
  c.change('DisputeLost');
  return `Dispute ${dispute.disputeReference} Lost: ${amount.toFixed(2)} reversed`;
}

async function onWon(c: DisputeCase): Promise<string> {
  const { dispute, payment } = c;
  if (!moveOf(payment.status, 'disputeWon')) {
    await c.write();
    return `Dispute ${dispute.disputeReference} Won; the payment stays ${payment.status}`;
  }
  await c.moveThenWrite('disputeWon', c.reversed, () => new Big(0));
  c.change('DisputeWon');
  return `Dispute ${dispute.disputeReference} Won: the payment is Paid again`;
}

/**
 * A dispute is kept in payment_disputes by (payment, reference): opened → the payment Disputed;
 * Lost → its amount reversed (the invoices owe again); Won → what a loss reversed restored and the
 * payment Paid again. Staff are mailed (TenantPaymentDisputed).
 */
export async function onDispute(
  tx: Tx,
  scope: PayScope,
  locked: Locked,
  dispute: NotificationDispute,
  actor: MoveActor,
  changes: PaymentStatusChange[],
): Promise<string> {
  const found = await lockDispute(tx, scope, locked.payment.id, dispute.disputeReference);
  const stays = disputeStays(found, dispute);
  if (stays) return stays;
  const c = disputeCase(tx, scope, locked, dispute, actor, changes, found);
  if (open.has(dispute.stage)) return onOpen(c);
  if (dispute.stage === 'Lost') return onLost(c);
  return onWon(c);
}
