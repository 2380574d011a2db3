import type { Tx } from '../../db/client.js';
import { providerEvents } from '../../db/schema-receivables.js';
import type { PaymentRequestRow } from './pay.repository.js';
import type { PayScope } from './pay.repository.js';
import { lockPaymentsAndRequests } from './finish.repository.js';
import type { Locked } from './money-back-disputes.js';
import { claimNotices, markNotices, unclaimNotices } from './provider-notices.repository.js';
import { endTellLane, holdTells, startTellLane, writeHeldTells } from './refunds.js';

/**
 * What a group of lanes in one transaction (provider-notices.ts finishTogether) holds back
 * until its end: each notice's provider event and outcome, written together for the group
 * (two statements where each notice had two), a lane's dropped when its savepoint rolls back.
 */
interface Group {
  lane: number;
  providerEvents: { lane: number; row: typeof providerEvents.$inferInsert }[];
  outcomes: { lane: number; id: string; outcome: string }[];
}
const groupOf = new WeakMap<Tx, Group>();

/** The group `tx` holds, if it is a group's transaction. */
export const groupIn = (tx: Tx): Group | undefined => groupOf.get(tx);

/**
 * A group of lanes handled in `tx` (provider-notices.ts finishTogether): from now until
 * `closeGroup`, the notices' provider events, outcomes and web hook events are held back
 * and written together at its end; `startLane` / `endLane` bracket each lane's savepoint.
 */
export function openGroup(tx: Tx, scope: PayScope) {
  groupOf.set(tx, { lane: 0, providerEvents: [], outcomes: [] });
  holdTells(tx, scope);
}
export function startLane(tx: Tx) {
  const group = groupOf.get(tx)!;
  group.lane += 1;
  startTellLane(tx);
}
/** The lane's savepoint was released (kept) or rolled back (what it held back dropped). */
export function endLane(tx: Tx, kept: boolean) {
  const group = groupOf.get(tx)!;
  if (!kept) {
    group.providerEvents = group.providerEvents.filter((held) => held.lane !== group.lane);
    group.outcomes = group.outcomes.filter((held) => held.lane !== group.lane);
  }
  endTellLane(tx, kept);
}
/** Writes what the group held back, before it commits: a few statements for the whole group. */
export async function closeGroup(tx: Tx, scope: PayScope) {
  const group = groupOf.get(tx)!;
  groupOf.delete(tx);
  await Promise.all([
    group.providerEvents.length > 0
      ? tx.insert(providerEvents).values(group.providerEvents.map((held) => held.row))
      : null,
    markNotices(tx, scope, group.outcomes),
    writeHeldTells(tx),
  ]);
}

/**
 * A group's reads before its lanes (provider-notices.ts finishTogether), in one round trip: the
 * claims of its notices giving money back (undone by `unclaim` for a lane that rolls back), then
 * its payments and their requests, each locked in id order (as finish-batch.ts finishBatch does,
 * so two groups never wait on each other in a circle). A request two of the group's payments
 * share is left out: each lane reads it again as the one before left it.
 */
export async function claimAndLock(
  tx: Tx,
  scope: PayScope,
  notificationIds: string[],
  paymentIds: string[],
) {
  const [claimedRows, [payments, requests]] = await Promise.all([
    claimNotices(tx, scope, notificationIds),
    lockPaymentsAndRequests(tx, scope, paymentIds),
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

/** A rolled-back lane's notices, claimed by claimAndLock, left for one by one again. */
export const unclaim = unclaimNotices;
