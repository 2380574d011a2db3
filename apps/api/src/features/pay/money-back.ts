import Big from 'big.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import {
  paymentDisputes,
  paymentRequests,
  paymentTransactions,
  providerEvents,
} from '../../db/schema-receivables.js';
import { providerNotifications } from '../../db/schema-pay.js';
import type { NotificationDispute, NotificationRefund } from '../../providers/checkout.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import { eventOfOutcome, moveOf, type MoveActor } from './lifecycle.js';
import type { PayScope, PaymentRequestRow } from './pay.repository.js';
import {
  endTellLane,
  holdTells,
  lockPaymentAndRequest,
  lockRefundsOf,
  moveAndTell,
  readHeldTells,
  recordRefund,
  setRefundStatus,
  startTellLane,
  tell,
  tellsHeldAbout,
  writeHeldTells,
} from './refunds.js';
import { claimNotification, claimNotifications, markNotification, noPayment } from './settle.js';
import { inDataset } from '../../platform/scope.js';

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

/**
 * What a group of lanes in one transaction (provider-notifications.ts settleTogether) holds back
 * until its end: each notification's provider event and outcome, written together for the group
 * (two statements where each notification had two), a lane's dropped when its savepoint rolls back.
 */
interface Group {
  lane: number;
  providerEvents: { lane: number; row: typeof providerEvents.$inferInsert }[];
  outcomes: { lane: number; id: string; outcome: string }[];
}
const groupOf = new WeakMap<Tx, Group>();

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
    // The payment's refunds, locked, in one statement: the one this names, and what is left.
    const refunds = await lockRefundsOf(tx, scope, payment);
    const made = refunds.made(refund.refundReference);
    if (made) {
      if (refund.status === 'Pending')
        return `Refund ${made.ledgerlineReference} is still under way`;
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
          inDataset(d, scope),
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
    if (found) {
      if (found.stage === dispute.stage)
        return `Dispute ${dispute.disputeReference} stays ${found.stage}`;
      // Providers deliver out of order: a stage earlier than the one reached (Opened after Under
      // review, either after Won or Lost) is an old event arriving late, never a reopening. A
      // closed dispute moves only between Won and Lost (a chargeback cancelled, or taken again).
      if (stageRank[dispute.stage] < rankOf(found.stage))
        return `Dispute ${dispute.disputeReference} stays ${found.stage}: ${dispute.stage} is an earlier event delivered late`;
    }
    /**
     * The dispute as it now stands, in one statement with what the move gave back (its
     * reversedAmount: what a Lost took from the allocations, which a Won gives back), written
     * before the move's web hook event is read.
     */
    const write = async (reversedAmount?: Big) => {
      const set = {
        ...values,
        ...(reversedAmount ? { reversedAmount: reversedAmount.toFixed(4) } : {}),
      };
      if (found)
        await tx
          .update(d)
          .set(set)
          .where(and(inDataset(d, scope), eq(d.id, found.id)));
      else
        await tx.insert(d).values({
          tenantId: scope.tenantId,
          datasetId: scope.datasetId,
          id: uuidv7(),
          paymentTransactionId: payment.id,
          disputeReference: dispute.disputeReference,
          currency: dispute.currency?.toUpperCase() ?? payment.currency,
          reason: dispute.reason,
          ...set,
        });
    };
    const reversed = new Big(found?.reversedAmount ?? '0');
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

    if (open.has(dispute.stage)) {
      if (found) {
        await write();
        return `Dispute ${dispute.disputeReference} ${dispute.stage}`;
      }
      if (moveOf(payment.status, 'disputeOpened')) {
        await moveThenWrite('disputeOpened', null, () => undefined);
        change('Disputed');
        return `Dispute ${dispute.disputeReference} opened: the payment is Disputed`;
      }
      await write();
      change('Disputed');
      return `Dispute ${dispute.disputeReference} ${dispute.stage}; the payment stays ${payment.status}`;
    }
    if (dispute.stage === 'Lost') {
      if (!moveOf(payment.status, 'disputeLost')) {
        await write();
        return `Dispute ${dispute.disputeReference} Lost; the payment stays ${payment.status}`;
      }
      // What it actually took from the invoices (never more than the payment still held): a Won
      // gives exactly that back, never what a refund had already given back.
      await moveThenWrite('disputeLost', amount, (applied) => applied.reversed);
      change('DisputeLost');
      return `Dispute ${dispute.disputeReference} Lost: ${amount.toFixed(2)} reversed`;
    }
    // Won.
    if (!moveOf(payment.status, 'disputeWon')) {
      await write();
      return `Dispute ${dispute.disputeReference} Won; the payment stays ${payment.status}`;
    }
    await moveThenWrite('disputeWon', reversed, () => new Big(0));
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
    /**
     * What a group's claimAndLock read already: the claim, and the payment and its request as
     * locked then (undefined: read them here, as a lane's later notification must).
     */
    pre?: { claimed: boolean; locked: Locked | undefined },
  ) {
    const actor = { name: `${notice.providerName} notification` };
    // The claim and the payment's lock leave together (the connection pipelines them), as on
    // the completion path (settle.ts load).
    const [claimed, locked] = await Promise.all([
      pre ? pre.claimed : claimNotification(tx, scope, notice.notificationId),
      pre?.locked ?? lockPaymentAndRequest(tx, scope, paymentId),
    ]);
    if (!claimed) return;
    const group = groupOf.get(tx);
    const mark = (outcome: string) =>
      group
        ? void group.outcomes.push({ lane: group.lane, id: notice.notificationId, outcome })
        : markNotification(tx, scope, notice.notificationId, outcome);
    if (!locked || locked.payment.paymentProviderId !== notice.configurationId) {
      await mark(noPayment);
      return;
    }
    // A web hook event of the group told about this payment or its request is read as it is
    // before this moves it again (refunds.ts holdTells).
    if (tellsHeldAbout(tx, locked.payment.id, locked.payment.paymentRequestId))
      await readHeldTells(tx);
    const providerEvent = {
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
    } satisfies typeof providerEvents.$inferInsert;
    // Kept whatever it moves: with the group's at its end, else it leaves with the next
    // statement and is awaited with the moves.
    const kept = group
      ? void group.providerEvents.push({ lane: group.lane, row: providerEvent })
      : tx.insert(providerEvents).values(providerEvent);
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
    await mark(outcomes.join('; '));
  }

  /**
   * A group of lanes settled in `tx` (provider-notifications.ts settleTogether): from now until
   * `closeGroup`, the notifications' provider events, outcomes and web hook events are held back
   * and written together at its end; `startLane` / `endLane` bracket each lane's savepoint.
   */
  function openGroup(tx: Tx, scope: PayScope) {
    groupOf.set(tx, { lane: 0, providerEvents: [], outcomes: [] });
    holdTells(tx, scope);
  }
  function startLane(tx: Tx) {
    const group = groupOf.get(tx)!;
    group.lane += 1;
    startTellLane(tx);
  }
  /** The lane's savepoint was released (kept) or rolled back (what it held back dropped). */
  function endLane(tx: Tx, kept: boolean) {
    const group = groupOf.get(tx)!;
    if (!kept) {
      group.providerEvents = group.providerEvents.filter((held) => held.lane !== group.lane);
      group.outcomes = group.outcomes.filter((held) => held.lane !== group.lane);
    }
    endTellLane(tx, kept);
  }
  /** Writes what the group held back, before it commits: a few statements for the whole group. */
  async function closeGroup(tx: Tx, scope: PayScope) {
    const group = groupOf.get(tx)!;
    groupOf.delete(tx);
    const n = providerNotifications;
    const outcomes = group.outcomes.map((held) => sql`(${held.id}::uuid, ${held.outcome}::text)`);
    await Promise.all([
      group.providerEvents.length > 0
        ? tx.insert(providerEvents).values(group.providerEvents.map((held) => held.row))
        : null,
      outcomes.length > 0
        ? tx.execute(sql`
            update ${n} set outcome = v.outcome
            from (values ${sql.join(outcomes, sql`, `)}) as v(id, outcome)
            where ${n.tenantId} = ${scope.tenantId} and ${n.datasetId} = ${scope.datasetId} and ${n.id} = v.id`)
        : null,
      writeHeldTells(tx),
    ]);
  }

  /**
   * A group's reads before its lanes (provider-notifications.ts settleTogether), in one round
   * trip: the claims of its notifications giving money back (undone by `unclaim` for a lane that
   * rolls back), then its payments and their requests, each locked in id order (as settle.ts
   * settleBatch does, so two groups never wait on each other in a circle). A request two of the
   * group's payments share is left out: each lane reads it again as the one before left it.
   */
  async function claimAndLock(
    tx: Tx,
    scope: PayScope,
    notificationIds: string[],
    paymentIds: string[],
  ) {
    const t = paymentTransactions;
    const ofPayments = and(inDataset(t, scope), inArray(t.id, paymentIds));
    const [claimedRows, payments, requests] = await Promise.all([
      claimNotifications(tx, scope, notificationIds),
      tx.select().from(t).where(ofPayments).orderBy(t.id).for('update'),
      tx
        .select()
        .from(paymentRequests)
        .where(
          and(
            inDataset(paymentRequests, scope),
            inArray(
              paymentRequests.id,
              tx.select({ id: t.paymentRequestId }).from(t).where(ofPayments),
            ),
          ),
        )
        .orderBy(paymentRequests.id)
        .for('update'),
    ]);
    const requestOf = new Map(requests.map((row) => [row.id, row]));
    const shared = new Set<string>();
    const seen = new Set<string>();
    for (const payment of payments)
      if (payment.paymentRequestId) {
        if (seen.has(payment.paymentRequestId)) shared.add(payment.paymentRequestId);
        seen.add(payment.paymentRequestId);
      }
    const locked = new Map<string, Locked>();
    for (const payment of payments) {
      const requestId = payment.paymentRequestId;
      if (requestId && (shared.has(requestId) || !requestOf.has(requestId))) continue;
      locked.set(payment.id, {
        payment,
        request: requestId ? (requestOf.get(requestId) as PaymentRequestRow) : null,
      });
    }
    return { claimed: new Set(claimedRows.map((row) => row.id)), locked };
  }

  /** A rolled-back lane's notifications, claimed by claimAndLock, left for one by one again. */
  async function unclaim(tx: Tx, scope: PayScope, notificationIds: string[]) {
    if (notificationIds.length === 0) return;
    const n = providerNotifications;
    await tx
      .update(n)
      .set({ processedAt: null })
      .where(and(inDataset(n, scope), inArray(n.id, notificationIds)));
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

  return {
    settle,
    settleIn,
    tellStaff,
    openGroup,
    startLane,
    endLane,
    closeGroup,
    writeHeldTells,
    claimAndLock,
    unclaim,
  };
}
export type MoneyBack = ReturnType<typeof createMoneyBack>;
