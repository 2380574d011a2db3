import { sql } from 'drizzle-orm';
import { uuidPattern } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import { noPayment, type PaymentFinish } from './finish.js';
import { isMoneyBack, type MoneyBack, type MoneyBackNotice } from './money-back.js';
import type { PayScope } from './pay.repository.js';
import type { Drain } from './provider-notice-drain.js';
import {
  closeUnmatchedNotice,
  paymentIdOfNotice,
  type NoticeSummary,
  type ProviderNoticeRow,
} from './provider-notices.repository.js';

/**
 * A drain's group of notices, in lanes (one payment's notices each, in arrival order): the batch
 * path, the money-back group, or one by one.
 */

/** A move finish.ts finishIn made, for its afterMoves once committed. */
type SettledMove = Awaited<ReturnType<PaymentFinish['finishIn']>>;

/** What a notification says, for the completion path. */
function finishArgs(notification: ProviderNoticeRow) {
  const summary = notification.summary as NoticeSummary;
  return {
    outcome: {
      // An event that says nothing about status is kept as a provider event and moves nothing.
      status: summary.status ?? 'Processing',
      providerReference: summary.providerReference,
      errorMessage: summary.errorMessage,
      notificationId: notification.id,
      reportsProcessing: summary.status === 'Processing',
      configurationId: notification.configurationId,
      amount: summary.amount ?? null,
      currency: summary.currency ?? null,
      lateFailure: summary.lateFailure === true,
      exchange: {
        eventType: notification.eventType,
        recordType: 'notification',
        recordId: notification.eventId,
        status: summary.status ?? 'unknown',
        payload: notification.payload,
      },
    },
    actor: { name: `${notification.providerName} notification` },
  };
}

/** Our own id, when the provider echoes it: straight to the completion path (which checks the configuration). */
function ourPaymentId(notification: ProviderNoticeRow): string | null {
  const id = (notification.summary as NoticeSummary).paymentTransactionId;
  return id !== null && uuidPattern.test(id) ? id : null;
}

async function process(d: Drain, scope: PayScope, notification: ProviderNoticeRow) {
  const summary = notification.summary as NoticeSummary;
  // The provider's reference is looked up first.
  const paymentId =
    ourPaymentId(notification) ??
    (await d.database.readAsTenant(scope.tenantId, (tx) =>
      paymentIdOfNotice(tx, scope, notification.configurationId, summary),
    ));
  if (!paymentId) {
    await d.database.withTenant(scope.tenantId, (tx) =>
      closeUnmatchedNotice(tx, scope, notification.id, noPayment),
    );
    return;
  }
  if (d.moneyBack && isMoneyBack(summary)) {
    await d.moneyBack.handle(scope, paymentId, noticeOf(notification));
    return;
  }
  const { outcome, actor } = finishArgs(notification);
  await d.finish.finish(scope, paymentId, outcome, actor);
}

/** What a stored notification about money going back says, for money-back.ts. */
function noticeOf(notification: ProviderNoticeRow): MoneyBackNotice {
  const summary = notification.summary as NoticeSummary;
  return {
    notificationId: notification.id,
    configurationId: notification.configurationId,
    providerName: notification.providerName,
    eventId: notification.eventId,
    eventType: notification.eventType,
    payload: notification.payload,
    status: summary.status,
    errorMessage: summary.errorMessage,
    lateFailure: summary.lateFailure,
    refund: summary.refund,
    dispute: summary.dispute,
  };
}

/**
 * Several payments' notifications (whole lanes, each in arrival order): the lanes the batch path
 * can take (every row names our payment and none gives money back) in one transaction; the lanes
 * that give money back (refunds, disputes, late failures, and whatever else their
 * payment was told beside) in another, each lane in a savepoint of its own (finishTogether); the
 * others one by one. When the batch fails (a deadlock on shared invoices, a bad row), its lanes go
 * one by one too, and so does a lane whose savepoint failed, so one bad notification holds up
 * only its own payment's.
 */
export async function processLanes(d: Drain, scope: PayScope, lanes: ProviderNoticeRow[][]) {
  const ours = (lane: ProviderNoticeRow[]) => lane.every((row) => ourPaymentId(row) !== null);
  const batchable = (lane: ProviderNoticeRow[]) =>
    ours(lane) && lane.every((row) => !isMoneyBack(row.summary as NoticeSummary));
  const batch = lanes.filter(batchable);
  const together = d.moneyBack ? lanes.filter((lane) => !batchable(lane) && ours(lane)) : [];
  const oneByOne = lanes.filter((lane) => !batch.includes(lane) && !together.includes(lane));
  if (batch.flat().length > 1) {
    try {
      await d.finish.finishBatch(
        scope,
        batch
          .flat()
          .map((row) => ({ paymentTransactionId: ourPaymentId(row)!, ...finishArgs(row) })),
      );
    } catch (error) {
      d.log.warn(
        { err: error, ...scope, notifications: batch.flat().length },
        'provider notification batch failed: one by one',
      );
      oneByOne.push(...batch);
    }
  } else oneByOne.push(...batch);
  if (together.flat().length > 1) oneByOne.push(...(await finishTogether(d, scope, together)));
  else oneByOne.push(...together);
  let failure: unknown = null;
  for (const lane of oneByOne) {
    for (const row of lane) {
      try {
        await process(d, scope, row);
      } catch (error) {
        d.log.error({ err: error, notificationId: row.id }, 'provider notification failed');
        failure ??= error;
        break;
      }
    }
  }
  if (failure !== null) throw failure;
}

/** One lane's notices in the group's transaction, in arrival order (finishTogether). */
async function finishLane(
  d: Drain,
  tx: Tx,
  scope: PayScope,
  lane: ProviderNoticeRow[],
  held: Awaited<ReturnType<MoneyBack['claimAndLock']>>,
  laneMoves: SettledMove[],
  laneChanges: PaymentStatusChange[],
) {
  const moneyBack = d.moneyBack!;
  const { claimed, locked } = held;
  for (const row of lane) {
    const paymentId = ourPaymentId(row)!;
    // The payment as locked before the lanes, for the first notice to move it only (by its
    // stored id: an id in capitals names the same payment).
    const before = locked.get(paymentId.toLowerCase());
    locked.delete(paymentId.toLowerCase());
    if (isMoneyBack(row.summary as NoticeSummary))
      await moneyBack.handleIn(tx, scope, paymentId, noticeOf(row), laneChanges, {
        claimed: claimed.has(row.id),
        locked: before,
      });
    else {
      // Its web hook events are written at once: those held before it go first (each
      // payment's events in the order of its moves).
      await moneyBack.writeHeldTells(tx);
      const { outcome, actor } = finishArgs(row);
      laneMoves.push(await d.finish.finishIn(tx, scope, paymentId, outcome, actor));
    }
  }
}

/**
 * Lanes that give money back (each row names our payment), in ONE transaction (one
 * commit for the group, where each notification had its own): each lane in a savepoint, its rows
 * in arrival order through the same code as one by one (money-back.ts handleIn, finish.ts
 * finishIn), each claiming its stored notification. A lane that fails is rolled back to its
 * savepoint (its claims with it) and answered for one by one after the commit; when the
 * transaction itself fails, every lane is. The mails go after the commit. The lanes answered
 * for one by one.
 */
async function finishTogether(
  d: Drain,
  scope: PayScope,
  lanes: ProviderNoticeRow[][],
): Promise<ProviderNoticeRow[][]> {
  const moneyBack = d.moneyBack!;
  const failed: ProviderNoticeRow[][] = [];
  const moves: SettledMove[] = [];
  const changes: PaymentStatusChange[] = [];
  try {
    await d.database.withTenant(scope.tenantId, async (tx) => {
      // The notifications' provider events, outcomes and web hook events are written together
      // at the group's end (money-back.ts openGroup), a lane's dropped with its savepoint.
      moneyBack.openGroup(tx, scope);
      // The notifications giving money back are claimed, and the payments and requests locked,
      // all at once; each lane's first notification takes its payment as locked then.
      const held = await moneyBack.claimAndLock(
        tx,
        scope,
        lanes.flat().flatMap((row) => (isMoneyBack(row.summary as NoticeSummary) ? [row.id] : [])),
        lanes.map((lane) => ourPaymentId(lane[0]!)!),
      );
      for (const lane of lanes) {
        const laneMoves: SettledMove[] = [];
        const laneChanges: PaymentStatusChange[] = [];
        moneyBack.startLane(tx);
        // The savepoint leaves now (its `then` sends it), ahead of the lane's first statement on
        // the same connection, and is answered with it (the connection pipelines them).
        const savepoint = tx.execute(sql.raw('savepoint notification_lane')).then(() => undefined);
        // Awaited below on either path; marked handled meanwhile.
        savepoint.catch(() => undefined);
        try {
          await finishLane(d, tx, scope, lane, held, laneMoves, laneChanges);
          await savepoint;
          await tx.execute(sql.raw('release savepoint notification_lane'));
          moneyBack.endLane(tx, true);
        } catch (error) {
          // Had the savepoint itself failed, the transaction is lost: the group goes one by one.
          await savepoint;
          await tx.execute(sql.raw('rollback to savepoint notification_lane'));
          await tx.execute(sql.raw('release savepoint notification_lane'));
          moneyBack.endLane(tx, false);
          // Claimed before its savepoint: unclaimed, so one by one settles it after the commit.
          await moneyBack.unclaim(
            tx,
            scope,
            lane.flatMap((row) => (held.claimed.has(row.id) ? [row.id] : [])),
          );
          d.log.warn(
            { err: error, ...scope, notificationId: lane[0]!.id },
            'provider notification lane failed in its group: one by one',
          );
          failed.push(lane);
          continue;
        }
        moves.push(...laneMoves);
        changes.push(...laneChanges);
      }
      await moneyBack.closeGroup(tx, scope);
    });
  } catch (error) {
    d.log.warn(
      { err: error, ...scope, notifications: lanes.flat().length },
      'provider notification group failed: one by one',
    );
    return lanes;
  }
  await Promise.all([d.finish.afterMoves(scope, moves), moneyBack.tellStaff(scope, changes)]);
  return failed;
}
