import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import type { PaymentFinish } from './finish.js';
import { isMoneyBack, type MoneyBack } from './money-back.js';
import { processLanes } from './provider-notice-lanes.js';
import type { PayScope } from './pay.repository.js';
import {
  unprocessedNotices,
  type NoticeSummary,
  type ProviderNoticeRow,
} from './provider-notices.repository.js';

/**
 * The drain of stored provider notices: this process finishes the new ones through the completion
 * path (finish.ts) or money-back.ts, exactly once each (the transaction claims the row), with a
 * delayed job per company as the safety net should it stop first.
 */

/** The safety net's job (its name predates the notices' name: queued jobs keep it). */
export const providerNoticeJob = 'pay.provider-notifications';

export interface NoticeJob extends PayScope {
  /** Why the job was sent (the first new notice's id), for the log. */
  notificationId: string;
}

/** Notices of one company finished side by side (each in its own transaction). */
const drainConcurrency = 8;
const drainBatch = 200;
/** At most this many notices are finished in one transaction; a few at least, when there are. */
const groupBatch = 25;
const minimumGroup = 4;
/** How long a drain that found new notices arriving waits for the next few. */
const gatherMs = 20;
/** The safety net job's delay, and how long before it is due the next notice sends another. */
const safetyNetSeconds = 30;
const safetyNetMargin = 10;

export interface Drain {
  database: Database;
  jobs: Jobs;
  finish: PaymentFinish;
  /** Refunds, disputes and late failures the notices report. */
  moneyBack?: MoneyBack;
  log: FastifyBaseLogger;
  /** The drains under way in this process, by company: a new notice asks them to look again. */
  draining: Map<string, { again: boolean; done: Promise<void> }>;
  /** Set when the app closes: drains take no new payment and no new drain starts. */
  stopping: boolean;
  safetyNets: Map<string, { at: number; sent: Promise<void> }>;
}

/**
 * The safety net (docs/decisions/086-provider-notifications-are-settled-inline.md "Provider notifications are settled inline"): a delayed job
 * per company that drains whatever is still unprocessed when it runs — what a stopped or crashed
 * process left. One is sent per company at most every `safetyNetSeconds - safetyNetMargin`
 * seconds, always due after the commit of every notification it covers (it is sent after
 * theirs, and runs `safetyNetSeconds` after it was sent). A notification stored while the send is
 * under way waits for that send.
 */
export function safetyNet(d: Drain, scope: PayScope, notificationId: string): Promise<void> {
  const key = `${scope.tenantId}:${scope.datasetId}`;
  const now = Date.now();
  const last = d.safetyNets.get(key);
  if (last && now - last.at < (safetyNetSeconds - safetyNetMargin) * 1000) return last.sent;
  if (d.safetyNets.size >= 10_000) d.safetyNets.clear();
  const sent = d.jobs.send<NoticeJob>(
    providerNoticeJob,
    { ...scope, notificationId },
    { startAfterSeconds: safetyNetSeconds },
  );
  d.safetyNets.set(key, { at: now, sent });
  // A failed send is not remembered: the next notification sends again.
  sent.catch(() => {
    if (d.safetyNets.get(key)?.sent === sent) d.safetyNets.delete(key);
  });
  return sent;
}

/** Runs a company's drain now, in the background; a failure is left to the safety net's job. */
export function startDrain(d: Drain, scope: PayScope) {
  if (d.stopping) return;
  drain(d, scope).catch((error: unknown) =>
    d.log.error({ err: error, ...scope }, 'provider notifications left to their job'),
  );
}

/** Settles every unprocessed notification of a company, oldest first, until none is left. */
export async function drain(d: Drain, scope: PayScope) {
  const key = `${scope.tenantId}:${scope.datasetId}`;
  const running = d.draining.get(key);
  if (running) {
    running.again = true;
    return;
  }
  let finished!: () => void;
  const state = { again: true, done: new Promise<void>((resolve) => (finished = resolve)) };
  d.draining.set(key, state);
  try {
    while (state.again && !d.stopping) {
      state.again = false;
      await drainOnce(d, scope);
      // More came while it ran: a moment for the next few, so they settle in one transaction
      // rather than each in its own (a burst settles at a batch's cost per notification).
      if (state.again) await new Promise((resolve) => setTimeout(resolve, gatherMs));
    }
  } finally {
    d.draining.delete(key);
    finished();
  }
}

/**
 * The safety net's work: after any drain of the company under way in this process has ended
 * (an inline one that failed or was stopped says nothing), a drain of its own, which throws when
 * it did not finish, so pg-boss retries the job.
 */
export async function drainForJob(d: Drain, scope: PayScope) {
  const key = `${scope.tenantId}:${scope.datasetId}`;
  for (let running = d.draining.get(key); running; running = d.draining.get(key))
    await running.done;
  await drain(d, scope);
  if (d.stopping)
    throw new Error('The process stopped before its provider notifications were settled.');
}

async function drainOnce(d: Drain, scope: PayScope) {
  for (;;) {
    const batch = await d.database.readAsTenant(scope.tenantId, (tx) =>
      unprocessedNotices(tx, scope, drainBatch),
    );
    if (batch.length === 0) return;
    // Events of one payment in arrival order; different payments side by side.
    const byPayment = new Map<string, (typeof batch)[number][]>();
    for (const row of batch) {
      const summary = row.summary as NoticeSummary;
      const key = summary.paymentTransactionId ?? summary.providerReference ?? row.id;
      byPayment.set(key, [...(byPayment.get(key) ?? []), row]);
    }
    // The lanes giving money back after the others (each lane is one payment's, so no order
    // between lanes matters): they then share a few groups, each one transaction with a few
    // statements of its own (finishTogether), instead of one small group beside every batch.
    const givesBack = (lane: ProviderNoticeRow[]) =>
      lane.some((row) => isMoneyBack(row.summary as NoticeSummary));
    const lanes = [
      ...[...byPayment.values()].filter((lane) => !givesBack(lane)),
      ...[...byPayment.values()].filter(givesBack),
    ];
    const width = d.database.kind === 'pglite' ? 1 : drainConcurrency;
    // Lanes go in groups of about `groupBatch` notices, one transaction each, spread
    // over the workers (a small backlog: smaller groups, every worker busy).
    const groupSize = Math.min(groupBatch, Math.max(minimumGroup, Math.ceil(batch.length / width)));
    let next = 0;
    // Every group ends before the job does (a failed one stops the taking of new groups; the
    // others finish theirs), so nothing of a job runs on after it was given up or the process stops.
    let failure: unknown = null;
    await Promise.allSettled(
      Array.from({ length: Math.min(width, lanes.length) }, async () => {
        while (next < lanes.length && failure === null && !d.stopping) {
          const group: ProviderNoticeRow[][] = [];
          let size = 0;
          while (next < lanes.length && (size === 0 || size + lanes[next]!.length <= groupSize)) {
            size += lanes[next]!.length;
            group.push(lanes[next++]!);
          }
          try {
            await processLanes(d, scope, group);
          } catch (error) {
            failure = error;
          }
        }
      }),
    );
    // The job fails and is retried: what was not settled is still unprocessed.
    if (failure !== null) throw failure;
    if (batch.length < drainBatch || d.stopping) return;
  }
}
