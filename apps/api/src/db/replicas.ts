import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/**
 * Read replicas (docs/decisions/157-reads-on-standbys.md "Reads on standbys"): which server a tenant read
 * goes to, and what the standbys are doing.
 *
 * A read may go to a standby only inside a request that the route layer marked as a replica read
 * (a GET or HEAD whose caller is known: platform/read-routing.ts) and that has not written
 * anything yet. It goes to a standby that is up, lags no more than the configured bound, and has
 * replayed the caller's last write (its commit's LSN, carried by the request's ReadRoute). Anything
 * else, and every read outside a request (jobs, sign-in, the start-up), reads on the primary.
 */

/** What one request's reads may do; set by platform/read-routing.ts, consulted by db/client.ts. */
export interface ReadRoute {
  /** Reads of this request may go to a standby (a GET or HEAD with a known caller). */
  replica: boolean;
  /** The least LSN a standby must have replayed: the caller's last write. */
  minLsn: bigint;
  /** The request wrote: its later reads stay on the primary. */
  wrote: boolean;
  /** The LSN just after this request's last commit, when standbys are configured. */
  lastLsn?: bigint;
  /** Reads of this request a standby served. */
  replicaReads?: number;
}

const routes = new AsyncLocalStorage<ReadRoute>();

export function runWithReadRoute<T>(route: ReadRoute, fn: () => T): T {
  return routes.run(route, fn);
}

export function currentReadRoute(): ReadRoute | undefined {
  return routes.getStore();
}

/** PostgreSQL's text form of an LSN (`16/B374D848`) as a number; 0n for anything else. */
export function parseLsn(text: unknown): bigint {
  if (typeof text !== 'string') return 0n;
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text.trim());
  if (!match) return 0n;
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

export type ReplicaState = 'starting' | 'up' | 'lagging' | 'down';

export interface ReplicaStatus {
  /** host:port/database, never the credentials. */
  name: string;
  state: ReplicaState;
  /** Replay lag in milliseconds at the last check; null when unknown (down). */
  lagMs: number | null;
  /** What the standby had replayed at the last check. */
  replayLsn: bigint;
  /** Reads it served, and reads that failed there and were run again on the primary. */
  reads: number;
  failures: number;
}

export interface ReplicaCheck {
  /** Replay LSN (pg_last_wal_replay_lsn; a server not in recovery: its own current LSN). */
  replayLsn: bigint;
  lagMs: number;
}

/** The probe a standby answers each check: replayed LSN and replay lag. */
export const replicaProbe = `select pg_is_in_recovery() as recovery,
  case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_lsn() end::text as replay,
  case when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
    else coalesce(extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 0)
  end::float8 as lag_ms`;

export function replicaName(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'replica';
  }
}

/**
 * The standby a read goes to, or undefined for the primary: one that is up, within the lag bound
 * and has replayed `minLsn`; of those, the one with the fewest reads in flight (`load`).
 */
export function chooseReplica<R extends { status: ReplicaStatus }>(
  replicas: readonly R[],
  minLsn: bigint,
  load: (replica: R) => number = () => 0,
): R | undefined {
  let best: R | undefined;
  for (const replica of replicas) {
    if (replica.status.state !== 'up' || replica.status.replayLsn < minLsn) continue;
    if (!best || load(replica) < load(best)) best = replica;
  }
  return best;
}

/** The state a check's answer puts a standby in. */
export function stateAfterCheck(check: ReplicaCheck | null, maxLagMs: number): ReplicaState {
  if (!check) return 'down';
  return check.lagMs > maxLagMs ? 'lagging' : 'up';
}

/**
 * How far behind a standby is in time: the primary's WAL position is sampled at each check; a
 * standby that has replayed `replayLsn` is behind by the age of the oldest sample it has not
 * reached (0 when it has reached them all). Accurate to one check interval, and right when the
 * primary is idle, which `now() - pg_last_xact_replay_timestamp()` is not (it counts the time
 * since the last commit, however long ago, whenever a new record is on its way).
 */
export function createPrimaryHistory(keepMs: number) {
  const samples: { at: number; lsn: bigint }[] = [];
  return {
    add(lsn: bigint, at = Date.now()) {
      const last = samples.at(-1);
      if (!last || lsn > last.lsn) samples.push({ at, lsn });
      while (samples.length > 1 && samples[0]!.at < at - keepMs) samples.shift();
    },
    lagMs(replayLsn: bigint, now = Date.now()): number | undefined {
      if (samples.length === 0) return undefined;
      const behind = samples.find((sample) => sample.lsn > replayLsn);
      return behind ? Math.max(0, now - behind.at) : 0;
    },
  };
}

/** A connection failure (the standby went away), as opposed to a statement's own error. */
export function isConnectionFailure(error: unknown): boolean {
  const cause = ((error as { cause?: unknown }).cause ?? error) as {
    code?: string;
    message?: string;
  };
  const code = cause.code ?? '';
  return (
    /^(08|57P0[123])/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code) ||
    /Connection terminated|not queryable|connection timeout|The database is closing/i.test(
      cause.message ?? '',
    )
  );
}

/** A standby's monitoring connection: quick to give up, its probe short. */
function monitorConnection(
  connectionString: string,
  options: { intervalMs: number; settings: pg.ClientConfig },
): pg.Client {
  return new pg.Client({
    ...options.settings,
    connectionString,
    connectionTimeoutMillis: Math.max(500, Math.min(2_000, options.intervalMs * 4)),
    statement_timeout: 2_000,
  } as pg.ClientConfig);
}

/**
 * Checks every standby each `intervalMs` on a connection of its own: its replayed LSN and lag.
 * A standby that does not answer is down until a check succeeds; one past `maxLagMs` is lagging
 * until it is back within the bound.
 */
export function monitorReplicas(
  replicas: { connectionString: string; status: ReplicaStatus }[],
  options: {
    maxLagMs: number;
    intervalMs: number;
    settings: pg.ClientConfig;
    /** The primary's WAL position now (pg_current_wal_flush_lsn()). */
    primaryLsn?: () => Promise<bigint>;
  },
) {
  const history = createPrimaryHistory(Math.max(options.maxLagMs * 4, 60_000));
  const monitors = new Map<ReplicaStatus, pg.Client | undefined>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function check(replica: { connectionString: string; status: ReplicaStatus }) {
    let client = monitors.get(replica.status);
    try {
      if (!client) {
        client = monitorConnection(replica.connectionString, options);
        const opened = client;
        opened.on('error', () => {
          if (monitors.get(replica.status) === opened) monitors.set(replica.status, undefined);
        });
        monitors.set(replica.status, client);
        await client.connect();
      }
      const { rows } = await client.query<{ replay: string; lag_ms: number }>(replicaProbe);
      const replayLsn = parseLsn(rows[0]?.replay);
      // Behind the primary's samples; without them (the primary unreachable), the standby's own
      // estimate.
      const answer: ReplicaCheck = {
        replayLsn,
        lagMs: history.lagMs(replayLsn) ?? Number(rows[0]?.lag_ms ?? 0),
      };
      replica.status.replayLsn = answer.replayLsn;
      replica.status.lagMs = Math.round(answer.lagMs);
      replica.status.state = stateAfterCheck(answer, options.maxLagMs);
    } catch {
      replica.status.state = 'down';
      replica.status.lagMs = null;
      if (client) {
        monitors.set(replica.status, undefined);
        client.end().catch(() => undefined);
      }
    }
  }

  async function samplePrimary() {
    if (!options.primaryLsn) return;
    try {
      history.add(await options.primaryLsn());
    } catch {
      // The primary's own trouble shows elsewhere; the standbys keep their last lag.
    }
  }

  async function round() {
    await samplePrimary();
    await Promise.all(replicas.map(check));
    if (!stopped) timer = setTimeout(() => void round(), options.intervalMs).unref();
  }

  return {
    /** The first check of every standby: waited for at start so the first reads can use them. */
    start: () => round(),
    checkNow: async () => {
      await samplePrimary();
      await Promise.all(replicas.map(check));
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all(
        [...monitors.values()].map((client) => client?.end().catch(() => undefined)),
      );
      monitors.clear();
    },
  };
}
