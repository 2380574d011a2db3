import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import {
  paymentAllocations,
  paymentDisputes,
  providerEvents,
} from '../../db/schema-receivables.js';
import type { NotificationDispute, NotificationRefund } from '../../providers/checkout.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import { eventOfOutcome, moveOf, type MoveActor } from './lifecycle.js';
import type { PayScope } from './pay.repository.js';
import {
  lockPaymentAndRequest,
  lockRefundByReference,
  moveAndTell,
  recordRefund,
  refundableAmount,
  setRefundStatus,
  tell,
} from './refunds.js';
import { claimNotification, markNotification, noPayment } from './settle.js';

/** What a stored notification says about money going back (provider-notifications' summary). */
export interface MoneyBackNotice {
  notificationId: string;
  configurationId: string;
  providerName: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: string | null;
  errorMessage: string | null;
  lateFailure?: boolean;
  refund?: NotificationRefund;
  dispute?: NotificationDispute;
}

/** Whether a notification is one of these (it then settles here, not on the completion path). */
export const isMoneyBack = (summary: { refund?: unknown; dispute?: unknown }) =>
  summary.refund !== undefined || summary.dispute !== undefined;

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

/** What a payment's allocations hold now. */
async function allocatedOf(tx: Tx, scope: PayScope, paymentId: string) {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${paymentAllocations.allocatedAmount}), 0)::text` })
    .from(paymentAllocations)
    .where(
      and(
        eq(paymentAllocations.tenantId, scope.tenantId),
        eq(paymentAllocations.datasetId, scope.datasetId),
        eq(paymentAllocations.paymentTransactionId, paymentId),
        eq(paymentAllocations.status, 'Allocated'),
      ),
    );
  return new Big(row?.total ?? '0');
}

/**
 * Issue 19: a provider's refunds, disputes and late failures (NotificationEvent.refund, .dispute,
 * .lateFailure), settled exactly once each (the transaction claims the stored notification) through
 * the payment lifecycle:
 * - a refund matching one staff made (its provider reference) finishes it: Succeeded → Refunded
 *   (its `payment.refunded` event now); Failed → Failed, what it reversed restored
 *   (`refundFailed`); a refund matching none is recorded as staff's are, within what is left;
 * - a dispute is kept in payment_disputes by (payment, reference): opened → the payment Disputed;
 *   Lost → its amount reversed (the invoices owe again); Won → what a loss reversed restored and the
 *   payment Paid again. Staff are mailed (TenantPaymentDisputed);
 * - a late failure of a Paid payment → Failed, its allocations reversed (TenantPaymentFailed).
 */
export function createMoneyBack(deps: {
  database: Database;
  log: FastifyBaseLogger;
  /** notifications.mail.ts paymentStatusesChanged, after the commit. */
  notify?: (scope: PayScope, changes: PaymentStatusChange[]) => Promise<void>;
}) {
  const { database, log } = deps;

  type Locked = NonNullable<Awaited<ReturnType<typeof lockPaymentAndRequest>>>;

  async function onRefund(
    tx: Tx,
    scope: PayScope,
    locked: Locked,
    refund: NotificationRefund,
    actor: MoveActor,
  ): Promise<string> {
    const { payment, request } = locked;
    const made = await lockRefundByReference(tx, scope, payment.id, refund.refundReference);
    if (made) {
      if (refund.status === 'Pending')
        return `Refund ${made.ledgerlineReference} is still under way`;
      if (refund.status === 'Succeeded') {
        if (made.status !== 'Processing')
          return `Refund ${made.ledgerlineReference} stays ${made.status}`;
        await setRefundStatus(tx, scope, made.id, 'Refunded');
        await tell(tx, scope, 'payment.refunded', payment.id);
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
    const left = await refundableAmount(tx, scope, payment);
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

  async function onDispute(
    tx: Tx,
    scope: PayScope,
    locked: Locked,
    dispute: NotificationDispute,
    actor: MoveActor,
    changes: PaymentStatusChange[],
  ): Promise<string> {
    const { payment, request } = locked;
    const d = paymentDisputes;
    const [found] = await tx
      .select()
      .from(d)
      .where(
        and(
          eq(d.tenantId, scope.tenantId),
          eq(d.datasetId, scope.datasetId),
          eq(d.paymentTransactionId, payment.id),
          eq(d.disputeReference, dispute.disputeReference),
        ),
      )
      .for('update');
    const amount = dispute.amount ? new Big(dispute.amount) : new Big(payment.totalAmount);
    const closed = !open.has(dispute.stage);
    const values = {
      stage: dispute.stage,
      amount: amount.toFixed(4),
      ...(dispute.reason ? { reason: dispute.reason } : {}),
      ...(dispute.respondBy ? { respondBy: new Date(dispute.respondBy) } : {}),
      closedOn: closed ? new Date() : null,
      updatedOn: new Date(),
    };
    let id = found?.id;
    if (!found) {
      id = uuidv7();
      await tx.insert(d).values({
        tenantId: scope.tenantId,
        datasetId: scope.datasetId,
        id,
        paymentTransactionId: payment.id,
        disputeReference: dispute.disputeReference,
        currency: dispute.currency?.toUpperCase() ?? payment.currency,
        reason: dispute.reason,
        ...values,
      });
    } else {
      if (found.stage === dispute.stage)
        return `Dispute ${dispute.disputeReference} stays ${found.stage}`;
      // Providers deliver out of order: a stage earlier than the one reached (Opened after Under
      // review, either after Won or Lost) is an old event arriving late, never a reopening. A
      // closed dispute moves only between Won and Lost (a chargeback cancelled, or taken again).
      if (stageRank[dispute.stage] < rankOf(found.stage))
        return `Dispute ${dispute.disputeReference} stays ${found.stage}: ${dispute.stage} is an earlier event delivered late`;
      await tx
        .update(d)
        .set(values)
        .where(
          and(eq(d.tenantId, scope.tenantId), eq(d.datasetId, scope.datasetId), eq(d.id, found.id)),
        );
    }
    const reversed = new Big(found?.reversedAmount ?? '0');
    const setReversed = (value: Big) =>
      tx
        .update(d)
        .set({ reversedAmount: value.toFixed(4) })
        .where(
          and(eq(d.tenantId, scope.tenantId), eq(d.datasetId, scope.datasetId), eq(d.id, id!)),
        );
    const change = (status: PaymentStatusChange['status']) =>
      changes.push({
        paymentTransactionId: payment.id,
        status,
        from: 'Provider',
        key: dispute.disputeReference,
      });

    if (open.has(dispute.stage)) {
      if (found) return `Dispute ${dispute.disputeReference} ${dispute.stage}`;
      if (moveOf(payment.status, 'disputeOpened')) {
        await moveAndTell(tx, scope, {
          payment,
          request,
          event: 'disputeOpened',
          amount: null,
          audit: { actor },
        });
        change('Disputed');
        return `Dispute ${dispute.disputeReference} opened: the payment is Disputed`;
      }
      if (!found) change('Disputed');
      return `Dispute ${dispute.disputeReference} ${dispute.stage}; the payment stays ${payment.status}`;
    }
    if (dispute.stage === 'Lost') {
      if (!moveOf(payment.status, 'disputeLost'))
        return `Dispute ${dispute.disputeReference} Lost; the payment stays ${payment.status}`;
      // What it actually took from the invoices (never more than the payment still held): a Won
      // gives exactly that back, never what a refund had already given back.
      const before = await allocatedOf(tx, scope, payment.id);
      await moveAndTell(tx, scope, {
        payment,
        request,
        event: 'disputeLost',
        amount,
        audit: { actor },
      });
      await setReversed(before.minus(await allocatedOf(tx, scope, payment.id)));
      change('DisputeLost');
      return `Dispute ${dispute.disputeReference} Lost: ${amount.toFixed(2)} reversed`;
    }
    // Won.
    if (!moveOf(payment.status, 'disputeWon'))
      return `Dispute ${dispute.disputeReference} Won; the payment stays ${payment.status}`;
    await moveAndTell(tx, scope, {
      payment,
      request,
      event: 'disputeWon',
      amount: reversed,
      audit: { actor },
    });
    await setReversed(new Big(0));
    change('DisputeWon');
    return `Dispute ${dispute.disputeReference} Won: the payment is Paid again`;
  }

  async function onLateFailure(
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

  /**
   * Settles one stored notification about `paymentId` (of the notification's configuration) in the
   * caller's transaction; what staff must be told once it has committed is added to `changes`
   * (`tellStaff`). Issue 19's drain settles several in one transaction this way.
   */
  async function settleIn(
    tx: Tx,
    scope: PayScope,
    paymentId: string,
    notice: MoneyBackNotice,
    changes: PaymentStatusChange[],
  ) {
    const actor = { name: `${notice.providerName} notification` };
    // The claim and the payment's lock leave together (the connection pipelines them), as on
    // the completion path (settle.ts load).
    const [claimed, locked] = await Promise.all([
      claimNotification(tx, scope, notice.notificationId),
      lockPaymentAndRequest(tx, scope, paymentId),
    ]);
    if (!claimed) return;
    if (!locked || locked.payment.paymentProviderId !== notice.configurationId) {
      await markNotification(tx, scope, notice.notificationId, noPayment);
      return;
    }
    // Kept whatever it moves; it leaves with the next statement and is awaited with the moves.
    const kept = tx.insert(providerEvents).values({
      tenantId: scope.tenantId,
      datasetId: scope.datasetId,
      id: uuidv7(),
      paymentTransactionId: paymentId,
      providerName: notice.providerName,
      eventType: notice.eventType,
      recordType: 'notification',
      recordId: notice.eventId,
      status: notice.refund?.status ?? notice.dispute?.stage ?? notice.status ?? 'unknown',
      payload: notice.payload,
      payloadFileName: `${notice.eventId}.json`,
    });
    const outcomes: string[] = [];
    const moves = async () => {
      if (notice.lateFailure)
        outcomes.push(await onLateFailure(tx, scope, locked, notice, actor, changes));
      // Each part reads the payment as the part before left it.
      const fresh = async () =>
        outcomes.length > 0 ? (await lockPaymentAndRequest(tx, scope, paymentId))! : locked;
      if (notice.dispute)
        outcomes.push(await onDispute(tx, scope, await fresh(), notice.dispute, actor, changes));
      if (notice.refund)
        outcomes.push(await onRefund(tx, scope, await fresh(), notice.refund, actor));
    };
    await Promise.all([kept, moves()]);
    await markNotification(tx, scope, notice.notificationId, outcomes.join('; '));
  }

  /** After the commit: staff's mails of the moves (a failure is logged, never undoes them). */
  async function tellStaff(scope: PayScope, changes: PaymentStatusChange[]) {
    if (deps.notify && changes.length > 0)
      await deps
        .notify(scope, changes)
        .catch((error: unknown) =>
          log.error(
            { err: error, paymentTransactionIds: changes.map((c) => c.paymentTransactionId) },
            'dispute mail failed',
          ),
        );
  }

  /** Settles one stored notification about `paymentId` in a transaction of its own. */
  async function settle(scope: PayScope, paymentId: string, notice: MoneyBackNotice) {
    const changes: PaymentStatusChange[] = [];
    await database.withTenant(scope.tenantId, (tx) =>
      settleIn(tx, scope, paymentId, notice, changes),
    );
    await tellStaff(scope, changes);
  }

  return { settle, settleIn, tellStaff };
}
export type MoneyBack = ReturnType<typeof createMoneyBack>;
