import type { Tx } from '../../db/client.js';
import { deferWrites, flushWrites } from './deferred-writes.js';
import { afterMoves, recordMoveEvents, type FinishDeps } from './finish-after.js';
import {
  moveFromOutcome,
  type FinishActor,
  type Moved,
  type PaymentOutcome,
} from './finish-move.js';
import { lockPaymentsAndRequests, quotesOf } from './finish.repository.js';
import type { PayScope } from './pay.repository.js';
import { claimNotices } from './provider-notices.repository.js';

export interface BatchItem {
  paymentTransactionId: string;
  outcome: PaymentOutcome;
  actor: FinishActor;
}

/** A batch's reads in one round trip: its claims, payments, quotes and requests (locked). */
async function readBatch(tx: Tx, scope: PayScope, items: BatchItem[]) {
  const notificationIds = items.flatMap((item) =>
    item.outcome.notificationId ? [item.outcome.notificationId] : [],
  );
  const paymentIds = [...new Set(items.map((item) => item.paymentTransactionId))];
  const [claimedRows, [payments, requests], quotes] = await Promise.all([
    claimNotices(tx, scope, notificationIds),
    lockPaymentsAndRequests(tx, scope, paymentIds),
    quotesOf(tx, scope, paymentIds),
  ]);
  return {
    claimed: new Set(claimedRows.map((row) => row.id)),
    current: new Map(payments.map((row) => [row.id, row])),
    quoteOf: new Map(quotes.map((row) => [row.paymentTransactionId, row])),
    requestOf: new Map(requests.map((row) => [row.id, row])),
  };
}
type BatchState = Awaited<ReturnType<typeof readBatch>>;

/**
 * In rounds: every payment's first notice, then every second one... Each round's web hook events
 * are read and written together once its moves are done (their reads leave in a few writes for
 * the whole round, not a few per move); a payment moves at most once per round, so its events
 * still show it as its own move left it.
 */
export function roundsOf<T extends { paymentTransactionId: string }>(items: T[]): T[][] {
  const rounds: T[][] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const round = seen.get(item.paymentTransactionId) ?? 0;
    seen.set(item.paymentTransactionId, round + 1);
    (rounds[round] ??= []).push(item);
  }
  return rounds;
}

/** One item's move from what the batch read, the batch's state updated for the moves after it. */
async function moveItem(tx: Tx, scope: PayScope, state: BatchState, item: BatchItem) {
  const { paymentTransactionId, outcome, actor } = item;
  const row = state.current.get(paymentTransactionId);
  // Only a payment of the notice's own configuration moves (lockPayment's rule).
  const payment =
    row && (!outcome.configurationId || row.paymentProviderId === outcome.configurationId)
      ? row
      : null;
  const result = await moveFromOutcome(tx, scope, outcome, actor, {
    claimed: outcome.notificationId ? state.claimed.has(outcome.notificationId) : true,
    payment,
    quote: payment ? state.quoteOf.get(payment.id) : undefined,
    request: payment?.paymentRequestId ? state.requestOf.get(payment.paymentRequestId) : undefined,
  });
  if (result.changed && result.payment) state.current.set(result.payment.id, result.payment);
  // A later move of the request's other payment sees what this one did (a duplicate).
  if (result.request) state.requestOf.set(result.request.id, result.request);
  return result;
}

/**
 * Several stored notices' moves in ONE transaction (the drain's batches,
 * docs/decisions/086-provider-notifications-are-settled-inline.md "Provider notifications are
 * settled inline"): their claims, payments, quotes and requests are read in one round trip — the
 * payments, then the requests, each locked in id order, so two batches never wait on each other
 * in a circle for them — then the moves, each payment's in the order given (in rounds: roundsOf),
 * a later event seeing what its earlier one did. Every move commits with the others or none does;
 * the caller finishes them one by one when it fails.
 */
export async function finishBatch(
  deps: FinishDeps,
  scope: PayScope,
  items: BatchItem[],
): Promise<void> {
  const results = await deps.database.withTenant(scope.tenantId, async (tx) => {
    // The moves' inserts and request statuses go together, a few statements for the whole
    // batch rather than a few per move (deferred-writes.ts; flushed before any read of them).
    deferWrites(tx);
    const state = await readBatch(tx, scope, items);
    const moved: Moved[] = [];
    for (const round of roundsOf(items)) {
      const movedInRound: Moved[] = [];
      for (const item of round) movedInRound.push(await moveItem(tx, scope, state, item));
      await recordMoveEvents(deps, tx, scope, movedInRound);
      moved.push(...movedInRound);
    }
    await flushWrites(tx);
    return moved;
  });
  await afterMoves(deps, scope, results);
}
