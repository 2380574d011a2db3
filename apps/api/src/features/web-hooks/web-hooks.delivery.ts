import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { SecretBox } from '../../platform/secrets.js';
import { endpointOutcomes, type Attempt } from './delivery-attempts.js';
import { tellAdministrators } from './endpoint-disabled-mail.js';
import type { PostResult } from './safe-http.js';
import type { SvixClient } from './svix-client.js';
import { takeWrittenMark } from './web-hook-events.repository.js';
import { createSvixSender, sendToEndpoint } from './web-hook-senders.js';
import {
  clearFailing,
  disableEndpoint,
  dispatchNewEvents,
  dueDeliveries,
  earliestRetry,
  markFailing,
  recordAttempts,
  type DueDelivery,
} from './web-hooks-delivery.repository.js';

export const deliverQueue = 'web-hooks.deliver';
const wakeQueue = 'web-hooks.wake';
const sweepQueue = 'web-hooks.sweep';

export interface WebHookDeliveryOptions {
  /** Seconds before each retry; a delivery is given up after the last. */
  retrySeconds: number[];
  timeoutMs: number;
  allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_PORTS; undefined: any. */
  allowedPorts?: readonly number[];
  /** This server's own addresses (PUBLIC_URL's host): never sent to. */
  ownAddresses?: () => Promise<string[]>;
  /** An endpoint failing this long is disabled and the administrators are mailed. */
  disableAfterHours: number;
  /** Deliveries attempted at once (different endpoints or records). */
  concurrency?: number;
}

interface Deps {
  database: Database;
  jobs: Jobs;
  secrets: SecretBox;
  mailer: Mailer;
  svix: SvixClient | null;
  publicUrl: string;
  log: FastifyBaseLogger;
  options: WebHookDeliveryOptions;
}

/** How long a commit's nudge waits for the commits beside it. */
const commitNudgeDelayMs = 20;

/**
 * The nudges of the drain. One send at a time in this process: a nudge while one is under way
 * (which may have been written before the caller's commit) waits for it and then sends once more,
 * one send for every nudge that came meanwhile, so a burst of commits (provider notifications
 * settled side by side) queues two drains, not one per commit. After every transaction, one that
 * recorded an event nudges once it has committed, a few milliseconds later, so the commits of a
 * burst share one nudge (and one drain).
 */
function createNudger(deps: Pick<Deps, 'database' | 'jobs' | 'log'>) {
  const { database, jobs, log } = deps;
  let started = false;
  let sending: Promise<void> | null = null;
  let following: Promise<void> | null = null;
  let nudgeSoon: NodeJS.Timeout | null = null;

  async function send() {
    try {
      await jobs.send(deliverQueue, {});
    } catch (error) {
      log.error({ err: error }, 'could not queue web hook delivery; the sweep will');
    }
  }

  function nudge(): Promise<void> {
    if (!started) return Promise.resolve();
    if (!sending) {
      sending = send().finally(() => {
        sending = null;
      });
      return sending;
    }
    following ??= sending.then(() => {
      following = null;
      return nudge();
    });
    return following;
  }

  database.afterWrite(() => {
    // A stopped delivery leaves the mark to a running one on the same database (tests, restarts).
    if (!started || !takeWrittenMark() || nudgeSoon) return;
    nudgeSoon = setTimeout(() => {
      nudgeSoon = null;
      void nudge();
    }, commitNudgeDelayMs);
  });

  return {
    nudge,
    start: () => {
      started = true;
    },
    stop: () => {
      started = false;
    },
  };
}

/**
 * Records a batch of attempts in one transaction (one statement for the deliveries, one for
 * each endpoint state): answers the endpoints it disabled for failing too long.
 */
async function recordAll(deps: Deps, done: Attempt[]) {
  const { retrySeconds, disableAfterHours } = deps.options;
  const { answered, failing } = endpointOutcomes(done);
  return deps.database.db.transaction(async (tx) => {
    await recordAttempts(tx, done, retrySeconds);
    await clearFailing(tx, answered);
    if (failing.length === 0) return [];
    const tooLong = await markFailing(tx, failing, disableAfterHours);
    for (const endpoint of tooLong) {
      await disableEndpoint(
        tx,
        { tenantId: endpoint.tenant_id, datasetId: Number(endpoint.dataset_id) },
        endpoint.id,
        `Every attempt failed for ${disableAfterHours / 24} days.`,
      );
    }
    return tooLong;
  });
}

/** Attempts rows, at most `concurrency` at a time, then records them together. */
async function attemptAll(
  deps: Deps,
  send: (row: DueDelivery) => Promise<PostResult>,
  rows: DueDelivery[],
) {
  const done: { row: DueDelivery; result: PostResult }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      let result: PostResult;
      try {
        result = await send(row);
      } catch (error) {
        // e.g. a secret sealed under another SECRETS_KEY: a failed attempt, not a stuck drain
        result = { statusCode: null, durationMs: 0, error: (error as Error).message };
      }
      done.push({ row, result });
    }
  };
  const concurrency = deps.options.concurrency ?? 16;
  await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
  if (done.length === 0) return;
  const disabled = await recordAll(deps, done);
  const mailDeps = { ...deps, disableAfterHours: deps.options.disableAfterHours };
  for (const endpoint of disabled) {
    const scope = { tenantId: endpoint.tenant_id, datasetId: Number(endpoint.dataset_id) };
    await tellAdministrators(mailDeps, scope, endpoint.id);
  }
}

/**
 * Delivery of the outbox. One pg-boss queue holds at most one waiting and one running drain
 * across every API process; a drain fans new events out to deliveries (an endpoint each, or Svix)
 * and attempts every due delivery, oldest event first, never two of one record and endpoint at
 * once and never one while an older one of the same record and endpoint is still pending (in
 * order per record). A commit that wrote an event nudges it; a failed attempt schedules a wake at
 * its retry time; a sweep every minute, and one at start, catch anything a crash left behind.
 */
export function createWebHookDelivery(deps: Deps) {
  const { database, jobs, secrets, svix, options } = deps;
  const concurrency = options.concurrency ?? 16;
  let wakeAt = Infinity;
  jobs.nudgeQueue(deliverQueue);
  const nudger = createNudger(deps);
  const { nudge } = nudger;
  const toSvix = svix ? createSvixSender(database, svix) : null;
  const send = (row: DueDelivery) =>
    row.endpoint_id === null ? toSvix!(row) : sendToEndpoint(row, secrets, options);

  /** A wake at the earliest retry time still ahead, unless one this early is already set. */
  async function scheduleWake() {
    const next = await earliestRetry(database.db);
    if (!next) return;
    const at = new Date(next).getTime();
    if (at >= wakeAt && wakeAt > Date.now()) return;
    wakeAt = at;
    await jobs.send(wakeQueue, {}, { startAfterSeconds: Math.max(1, (at - Date.now()) / 1000) });
  }

  /** The drain: runs until nothing is new or due, at most a few minutes (then queues itself again). */
  async function drain() {
    const until = Date.now() + 5 * 60_000;
    for (;;) {
      const dispatched = await dispatchNewEvents(database.db, 1000, svix !== null);
      const rows = await dueDeliveries(database.db, concurrency * 8);
      await attemptAll(deps, send, rows);
      if (dispatched === 0 && rows.length === 0) break;
      if (Date.now() > until) {
        await nudge();
        break;
      }
    }
    await scheduleWake();
  }

  return {
    async register() {
      await jobs.work(deliverQueue, drain);
      await jobs.work(wakeQueue, nudge);
      await jobs.work(sweepQueue, nudge);
      await jobs.schedule(sweepQueue, '* * * * *');
      nudger.start();
      // What a stopped or crashed process left: committed events not yet sent.
      await nudge();
    },
    nudge,
    /** The drain itself, for tests and the bench that run it without waiting for the queue. */
    drain,
    stop: nudger.stop,
  };
}
export type WebHookDelivery = ReturnType<typeof createWebHookDelivery>;
