import pg from 'pg';
import { isQueryCanceled } from './database.js';
import {
  settingsOf,
  survivesConnectionLoss,
  type PostgresOptions,
} from './postgres-connections.js';
import {
  chooseReplica,
  currentReadRoute,
  isConnectionFailure,
  monitorReplicas,
  parseLsn,
  replicaName,
  type ReplicaStatus,
} from './replicas.js';
import { createReadConnections } from './scoped-read.js';

/** A standby cancelled a read that conflicted with the WAL it replays: worth running again. */
function isConflictWithRecovery(error: unknown): boolean {
  const cause = ((error as { cause?: unknown }).cause ?? error) as { message?: string };
  return /conflict with recovery/i.test(cause.message ?? '');
}

/** One streaming standby: its state, its shared read connections and its COPY connections. */
function createStandby(options: PostgresOptions, connectionString: string) {
  const status: ReplicaStatus = {
    name: replicaName(connectionString),
    state: 'starting',
    lagMs: null,
    replayLsn: 0n,
    reads: 0,
    failures: 0,
  };
  // Standbys are reached directly, never through the pooler: their timeouts travel as usual.
  const settings = () =>
    settingsOf({ ...options, connectionString, directConnectionString: undefined });
  let copies: pg.Pool | undefined;
  return {
    connectionString,
    status,
    inFlight: 0,
    reads: createReadConnections(
      () => new pg.Client({ ...settings(), pipeline: true } as pg.ClientConfig),
      options.readConnections ?? 2,
    ),
    copyConnections() {
      if (!copies) {
        copies = new pg.Pool({ ...settings(), max: 4 });
        survivesConnectionLoss(copies);
      }
      return copies;
    },
    async close() {
      await this.reads.close();
      await copies?.end();
    },
  };
}

export type Standby = ReturnType<typeof createStandby>;

/**
 * The standbys of DATABASE_REPLICA_URL, watched from the start (db/replicas.ts): which one a read
 * may use, and a read on one that falls back to the primary should it fail there.
 */
export async function startStandbys(options: PostgresOptions, primary: pg.Pool) {
  const standbys = (options.replicaConnectionStrings ?? []).map((connectionString) =>
    createStandby(options, connectionString),
  );
  const monitor =
    standbys.length > 0
      ? monitorReplicas(standbys, {
          maxLagMs: options.replicaMaxLagMs ?? 5_000,
          intervalMs: options.replicaCheckMs ?? 500,
          primaryLsn: async () =>
            parseLsn(
              (await primary.query('select pg_current_wal_flush_lsn()::text as lsn')).rows[0]?.lsn,
            ),
          settings: settingsOf(options),
        })
      : undefined;
  await monitor?.start();
  return {
    any: standbys.length > 0,
    /** The standby this read may use, or undefined for the primary. */
    forRead(): Standby | undefined {
      if (standbys.length === 0) return undefined;
      const route = currentReadRoute();
      if (!route?.replica || route.wrote) return undefined;
      return chooseReplica(standbys, route.minLsn, (standby) => standby.inFlight);
    },
    /** Runs a read on the standby; should it fail there, on the primary. */
    async read<T>(
      standby: Standby,
      onReplica: () => Promise<T>,
      onPrimary: () => Promise<T>,
    ): Promise<T> {
      standby.inFlight++;
      try {
        const result = await onReplica();
        standby.status.reads++;
        const route = currentReadRoute();
        if (route) route.replicaReads = (route.replicaReads ?? 0) + 1;
        return result;
      } catch (error) {
        if (isQueryCanceled(error) && !isConflictWithRecovery(error)) throw error;
        standby.status.failures++;
        if (isConnectionFailure(error)) {
          standby.status.state = 'down';
          standby.status.lagMs = null;
        }
        return onPrimary();
      } finally {
        standby.inFlight--;
      }
    },
    statuses: (): ReplicaStatus[] => standbys.map((standby) => ({ ...standby.status })),
    async close() {
      await monitor?.stop();
      await Promise.all(standbys.map((standby) => standby.close()));
    },
  };
}

export type Standbys = Awaited<ReturnType<typeof startStandbys>>;
