import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Database, Tx } from '../../db/client.js';
import { datasets, users } from '../../db/schema.js';
import { webHookDeliveries, webHookEndpoints } from '../../db/schema-web-hooks.js';
import type { Jobs } from '../../platform/jobs.js';
import { escapeHtml, subjectValue, type Mailer } from '../../platform/mail.js';
import type { SecretBox } from '../../platform/secrets.js';
import { postWebHook, type PostResult } from './safe-http.js';
import { svixAppUid, type SvixClient } from './svix-client.js';
import { takeWrittenMark } from './web-hook-events.js';

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

interface DueDelivery {
  tenant_id: string;
  dataset_id: number;
  id: string;
  event_id: string;
  endpoint_id: string | null;
  attempts: number;
  type: string;
  payload: unknown;
  created_on: string | Date;
  url: string | null;
  secret: string | null;
}

/** What a receiver gets (contract webHookEventSchema): the same through Svix and embedded delivery. */
export function envelopeOf(
  row: Pick<
    DueDelivery,
    'event_id' | 'type' | 'created_on' | 'tenant_id' | 'dataset_id' | 'payload'
  >,
) {
  return {
    id: row.event_id,
    type: row.type,
    timestamp: new Date(row.created_on).toISOString(),
    tenantId: row.tenant_id,
    datasetId: Number(row.dataset_id),
    data: row.payload,
  };
}

/** How long a commit's nudge waits for the commits beside it. */
const commitNudgeDelayMs = 20;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Delivery of the outbox (issue 15). One pg-boss queue holds at most one waiting and one running
 * drain across every API process; a drain fans new events out to deliveries (an endpoint each, or
 * Svix) and attempts every due delivery, oldest event first, never two of one record and endpoint
 * at once and never one while an older one of the same record and endpoint is still pending (in
 * order per record). A commit that wrote an event nudges it; a failed attempt schedules a wake at
 * its retry time; a sweep every minute, and one at start, catch anything a crash left behind.
 */
export function createWebHookDelivery(deps: {
  database: Database;
  jobs: Jobs;
  secrets: SecretBox;
  mailer: Mailer;
  svix: SvixClient | null;
  publicUrl: string;
  log: FastifyBaseLogger;
  options: WebHookDeliveryOptions;
}) {
  const { database, jobs, secrets, mailer, svix, log, options } = deps;
  const concurrency = options.concurrency ?? 16;
  let started = false;
  let wakeAt = Infinity;
  const svixApps = new Set<string>();
  jobs.nudgeQueue(deliverQueue);

  async function send() {
    try {
      await jobs.send(deliverQueue, {});
    } catch (error) {
      log.error({ err: error }, 'could not queue web hook delivery; the sweep will');
    }
  }

  /**
   * One send at a time in this process. A nudge while one is under way (which may have been
   * written before the caller's commit) waits for it and then sends once more, one send for every
   * nudge that came meanwhile: a burst of commits (provider notifications settled side by side)
   * queues two drains, not one per commit.
   */
  let sending: Promise<void> | null = null;
  let following: Promise<void> | null = null;
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

  // After every transaction: one that recorded an event nudges the drain once it has committed,
  // a few milliseconds later, so the commits of a burst share one nudge (and one drain).
  let nudgeSoon: NodeJS.Timeout | null = null;
  database.afterWrite(() => {
    // A stopped delivery leaves the mark to a running one on the same database (tests, restarts).
    if (!started || !takeWrittenMark() || nudgeSoon) return;
    nudgeSoon = setTimeout(() => {
      nudgeSoon = null;
      void nudge();
    }, commitNudgeDelayMs);
  });

  /** New events → deliveries, in one owner transaction; answers how many events it took. */
  async function dispatch(limit: number): Promise<number> {
    const toSvix = svix !== null;
    const result = await database.db.execute(sql`
      with batch as (
        select e.tenant_id, e.dataset_id, e.id, e.seq, e.type, e.record_id from web_hook_events e
        where e.dispatched_on is null order by e.seq limit ${limit} for update skip locked
      ), marked as (
        update web_hook_events e set dispatched_on = now() from batch
        where e.tenant_id = batch.tenant_id and e.dataset_id = batch.dataset_id and e.id = batch.id
      ), to_endpoints as (
        insert into web_hook_deliveries (tenant_id, dataset_id, event_id, event_seq, endpoint_id, record_id)
        select b.tenant_id, b.dataset_id, b.id, b.seq, ep.id, b.record_id
        from batch b join web_hook_endpoints ep on ep.tenant_id = b.tenant_id and ep.dataset_id = b.dataset_id
        where ${!toSvix} and not ep.disabled and (cardinality(ep.event_types) = 0 or b.type = any(ep.event_types))
      ), to_svix as (
        insert into web_hook_deliveries (tenant_id, dataset_id, event_id, event_seq, endpoint_id, record_id)
        select b.tenant_id, b.dataset_id, b.id, b.seq, null, b.record_id from batch b where ${toSvix}
      )
      select count(*)::int as n from batch`);
    return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
  }

  async function due(limit: number): Promise<DueDelivery[]> {
    return rowsOf<DueDelivery>(
      await database.db.execute(sql`
        select d.tenant_id, d.dataset_id, d.id, d.event_id, d.endpoint_id, d.attempts,
          e.type, e.payload, e.created_on, ep.url, ep.secret
        from web_hook_deliveries d
        join web_hook_events e on e.tenant_id = d.tenant_id and e.dataset_id = d.dataset_id and e.id = d.event_id
        left join web_hook_endpoints ep on ep.tenant_id = d.tenant_id and ep.dataset_id = d.dataset_id and ep.id = d.endpoint_id
        where d.status = 'Pending' and d.next_attempt_on <= now()
          and not exists (
            select 1 from web_hook_deliveries o
            where o.tenant_id = d.tenant_id and o.dataset_id = d.dataset_id and o.record_id = d.record_id
              and o.status = 'Pending' and o.event_seq < d.event_seq
              and o.endpoint_id is not distinct from d.endpoint_id
          )
        order by d.event_seq
        limit ${limit}`),
    );
  }

  async function sendToSvix(row: DueDelivery): Promise<PostResult> {
    const started = performance.now();
    const scope = { tenantId: row.tenant_id, datasetId: Number(row.dataset_id) };
    const uid = svixAppUid(scope);
    try {
      if (!svixApps.has(uid)) {
        const [company] = await database.db
          .select({ name: datasets.name })
          .from(datasets)
          .where(and(eq(datasets.tenantId, scope.tenantId), eq(datasets.id, scope.datasetId)));
        await svix!.getOrCreateApplication({ uid, name: company?.name ?? uid });
        svixApps.add(uid);
      }
      const sent = await svix!.createMessage(uid, {
        eventType: row.type,
        eventId: row.event_id,
        payload: envelopeOf(row),
      });
      return {
        statusCode: sent.statusCode,
        durationMs: Math.round(performance.now() - started),
        error: null,
      };
    } catch (error) {
      const statusCode = (error as { statusCode?: number | null }).statusCode ?? null;
      return {
        statusCode,
        durationMs: Math.round(performance.now() - started),
        error: (error as Error).message,
      };
    }
  }

  function sendToEndpoint(row: DueDelivery): Promise<PostResult> {
    const body = JSON.stringify(envelopeOf(row));
    const now = new Date();
    const signature = new Webhook(secrets.open(row.secret!)).sign(row.event_id, now, body);
    return postWebHook(
      row.url!,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'Ledgerline-Webhooks/1.0',
        'webhook-id': row.event_id,
        'webhook-timestamp': Math.floor(now.getTime() / 1000).toString(),
        'webhook-signature': signature,
      },
      {
        timeoutMs: options.timeoutMs,
        allowPrivate: options.allowPrivate,
        allowedPorts: options.allowedPorts,
        ownAddresses: options.ownAddresses,
      },
    );
  }

  const succeeded = (result: PostResult) =>
    result.error === null &&
    result.statusCode !== null &&
    result.statusCode >= 200 &&
    result.statusCode < 300;

  /**
   * Records a batch of attempts in one transaction (one statement for the deliveries, one for
   * each endpoint state): answers the endpoints it disabled for failing too long.
   */
  async function recordAll(done: { row: DueDelivery; result: PostResult }[]) {
    const column = <T>(pick: (item: { row: DueDelivery; result: PostResult }) => T) =>
      sql.param(done.map(pick));
    const retryOf = ({ row, result }: { row: DueDelivery; result: PostResult }) =>
      succeeded(result) ? null : (options.retrySeconds[row.attempts] ?? null);
    const endpointsOf = (keep: (item: { row: DueDelivery; result: PostResult }) => boolean) => {
      const seen = new Map<string, { tenantId: string; datasetId: number; id: string }>();
      for (const item of done.filter(keep)) {
        const { row } = item;
        if (row.endpoint_id)
          seen.set(row.endpoint_id, {
            tenantId: row.tenant_id,
            datasetId: Number(row.dataset_id),
            id: row.endpoint_id,
          });
      }
      return [...seen.values()];
    };
    const answered = endpointsOf(({ result }) => succeeded(result));
    const answeredIds = new Set(answered.map((e) => e.id));
    const failing = endpointsOf(({ result }) => !succeeded(result)).filter(
      (e) => !answeredIds.has(e.id),
    );
    const keys = (list: { tenantId: string; datasetId: number; id: string }[]) => sql`
      select * from unnest(${sql.param(list.map((e) => e.tenantId))}::uuid[], ${sql.param(list.map((e) => e.datasetId))}::integer[], ${sql.param(list.map((e) => e.id))}::uuid[]) as k(tenant_id, dataset_id, id)`;

    return database.db.transaction(async (tx) => {
      await tx.execute(sql`
        update web_hook_deliveries d set
          attempts = v.attempts,
          status = v.status,
          next_attempt_on = case when v.retry_in is null then null else now() + make_interval(secs => v.retry_in) end,
          last_attempt_on = now(),
          status_code = v.status_code,
          duration_ms = v.duration_ms,
          error = v.error
        from unnest(
          ${column(({ row }) => row.tenant_id)}::uuid[],
          ${column(({ row }) => Number(row.dataset_id))}::integer[],
          ${column(({ row }) => row.id)}::uuid[],
          ${column(({ row }) => row.attempts + 1)}::integer[],
          ${column((item) => (succeeded(item.result) ? 'Succeeded' : retryOf(item) === null ? 'Failed' : 'Pending'))}::text[],
          ${column(retryOf)}::integer[],
          ${column(({ result }) => result.statusCode)}::integer[],
          ${column(({ result }) => result.durationMs)}::integer[],
          ${column(({ result }) => (succeeded(result) ? null : (result.error ?? `The endpoint answered ${result.statusCode}.`)))}::text[]
        ) as v(tenant_id, dataset_id, id, attempts, status, retry_in, status_code, duration_ms, error)
        where d.tenant_id = v.tenant_id and d.dataset_id = v.dataset_id and d.id = v.id`);
      if (answered.length > 0) {
        await tx.execute(sql`
          update web_hook_endpoints ep set failing_since = null
          from (${keys(answered)}) k
          where ep.tenant_id = k.tenant_id and ep.dataset_id = k.dataset_id and ep.id = k.id and ep.failing_since is not null`);
      }
      if (failing.length === 0) return [];
      const tooLong = rowsOf<{ tenant_id: string; dataset_id: number; id: string }>(
        await tx.execute(sql`
          update web_hook_endpoints ep set failing_since = coalesce(ep.failing_since, now())
          from (${keys(failing)}) k
          where ep.tenant_id = k.tenant_id and ep.dataset_id = k.dataset_id and ep.id = k.id
          returning ep.tenant_id, ep.dataset_id, ep.id,
            (not ep.disabled and ep.failing_since <= now() - make_interval(hours => ${options.disableAfterHours})) as too_long`),
      ).filter((row) => (row as unknown as { too_long: boolean }).too_long);
      for (const endpoint of tooLong) {
        await disableEndpoint(
          tx,
          endpoint.tenant_id,
          Number(endpoint.dataset_id),
          endpoint.id,
          `Every attempt failed for ${options.disableAfterHours / 24} days.`,
        );
      }
      return tooLong;
    });
  }

  async function tellAdministrators(tenantId: string, datasetId: number, endpointId: string) {
    try {
      const [endpoint] = await database.db
        .select({ url: webHookEndpoints.url })
        .from(webHookEndpoints)
        .where(and(eq(webHookEndpoints.tenantId, tenantId), eq(webHookEndpoints.id, endpointId)));
      const [company] = await database.db
        .select({ name: datasets.name })
        .from(datasets)
        .where(and(eq(datasets.tenantId, tenantId), eq(datasets.id, datasetId)));
      const administrators = await database.db
        .select({ email: users.emailAddress })
        .from(users)
        .where(
          and(
            eq(users.tenantId, tenantId),
            eq(users.role, 'Administrator'),
            isNull(users.disabledAt),
          ),
        );
      const url = endpoint?.url ?? endpointId;
      const companyName = company?.name ?? `company ${datasetId}`;
      const lead = `Ledgerline stopped sending web hooks of ${companyName} to ${url}: every attempt failed for ${options.disableAfterHours / 24} days. Fix the receiver, then switch the endpoint on again on the Web Hooks page.`;
      const link = `${deps.publicUrl}/settings/web-hooks`;
      for (const { email } of administrators) {
        await mailer.send({
          to: email,
          subject: `Web hook endpoint disabled: ${subjectValue(url, 120)}`,
          text: `${lead}\n\n${link}\n`,
          html: `<p>${escapeHtml(lead)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        });
      }
      log.warn(
        { tenantId, datasetId, endpointId },
        'web hook endpoint disabled after failing too long',
      );
    } catch (error) {
      log.error(
        { err: error, tenantId, endpointId },
        'could not mail the administrators about a disabled web hook endpoint',
      );
    }
  }

  /** Attempts rows, at most `concurrency` at a time, then records them together. */
  async function attemptAll(rows: DueDelivery[]) {
    const done: { row: DueDelivery; result: PostResult }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        let result: PostResult;
        try {
          result = row.endpoint_id === null ? await sendToSvix(row) : await sendToEndpoint(row);
        } catch (error) {
          // e.g. a secret sealed under another SECRETS_KEY: a failed attempt, not a stuck drain
          result = { statusCode: null, durationMs: 0, error: (error as Error).message };
        }
        done.push({ row, result });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
    if (done.length === 0) return;
    const disabled = await recordAll(done);
    for (const endpoint of disabled) {
      await tellAdministrators(endpoint.tenant_id, Number(endpoint.dataset_id), endpoint.id);
    }
  }

  /** A wake at the earliest retry time still ahead, unless one this early is already set. */
  async function scheduleWake() {
    const [next] = rowsOf<{ at: string | Date | null }>(
      await database.db.execute(
        sql`select min(next_attempt_on) as at from web_hook_deliveries where status = 'Pending'`,
      ),
    );
    if (!next?.at) return;
    const at = new Date(next.at).getTime();
    if (at >= wakeAt && wakeAt > Date.now()) return;
    wakeAt = at;
    await jobs.send(wakeQueue, {}, { startAfterSeconds: Math.max(1, (at - Date.now()) / 1000) });
  }

  /** The drain: runs until nothing is new or due, at most a few minutes (then queues itself again). */
  async function drain() {
    const until = Date.now() + 5 * 60_000;
    for (;;) {
      const dispatched = await dispatch(1000);
      const rows = await due(concurrency * 8);
      await attemptAll(rows);
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
      started = true;
      // What a stopped or crashed process left: committed events not yet sent.
      await nudge();
    },
    nudge,
    /** The drain itself, for tests and the bench that run it without waiting for the queue. */
    drain,
    stop() {
      started = false;
    },
  };
}
export type WebHookDelivery = ReturnType<typeof createWebHookDelivery>;

/** Switches an endpoint off; its pending deliveries fail (resend brings one back). */
export async function disableEndpoint(
  tx: Tx | Database['db'],
  tenantId: string,
  datasetId: number,
  endpointId: string,
  reason: string,
) {
  await tx
    .update(webHookEndpoints)
    .set({ disabled: true, disabledReason: reason, updatedOn: sql`now()` })
    .where(
      and(
        eq(webHookEndpoints.tenantId, tenantId),
        eq(webHookEndpoints.datasetId, datasetId),
        eq(webHookEndpoints.id, endpointId),
      ),
    );
  await tx
    .update(webHookDeliveries)
    .set({ status: 'Failed', nextAttemptOn: null, error: 'The endpoint is disabled.' })
    .where(
      and(
        eq(webHookDeliveries.tenantId, tenantId),
        eq(webHookDeliveries.datasetId, datasetId),
        eq(webHookDeliveries.endpointId, endpointId),
        eq(webHookDeliveries.status, 'Pending'),
      ),
    );
}
