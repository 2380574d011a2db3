import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { is, sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgDialect, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { to as copyTo } from 'pg-copy-streams';
import pg from 'pg';
import { migrationsFolder } from '../paths.js';
import {
  createReadConnections,
  holdUntilTurnEnds,
  scopedReadClient,
  type ScopedReadClient,
} from './scoped-read.js';
import { inlineParameters } from './copy-out.js';
import {
  chooseReplica,
  currentReadRoute,
  isConnectionFailure,
  monitorReplicas,
  parseLsn,
  replicaName,
  type ReplicaStatus,
} from './replicas.js';
import * as coreSchema from './schema.js';
import * as receivablesSchema from './schema-receivables.js';

const schema = { ...coreSchema, ...receivablesSchema };

export type Schema = typeof coreSchema & typeof receivablesSchema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

/** The non-owner role that every request runs as; row-level security applies to it (design §4). */
export const appRole = 'ledgerline_app';

export interface RawClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  /** Owner access: migrations, start-up, and the few lookups that precede knowing the tenant. */
  db: Db;
  /** Runs fn in one transaction as the application role, scoped to one tenant by RLS. */
  withTenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One write statement in a transaction of its own, as the application role scoped to one
   * tenant: its rows. On PostgreSQL BEGIN and the scope, the statement and COMMIT leave in one
   * write (one round trip where withTenant takes two); a statement that fails rolls it back.
   */
  writeAsTenant(tenantId: string, statement: SQL): Promise<Record<string, unknown>[]>;
  /**
   * The same for a read that writes nothing: on PostgreSQL without a transaction block, each
   * statement carrying its own tenant scope in read-only mode (db/scoped-read.ts); on PGlite a
   * transaction as withTenant.
   */
  readAsTenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Calls listener after every withTenant transaction, committed or not (any of them may have
   * revoked a credential that something remembers: platform/credential-cache.ts).
   */
  afterWrite(listener: () => void): void;
  /**
   * PostgreSQL only: the rows of one SELECT in COPY's text format, read-only and scoped to the
   * tenant, streamed from a connection of its own (docs/decisions/015-the-export-is-one-copy.md "The export is one COPY").
   * The statement's parameters are written in as literals. Destroying the stream ends the COPY.
   * `timeoutMs` is the COPY's statement_timeout (the export's time left).
   */
  copyOutAsTenant?(
    tenantId: string,
    statement: SQL,
    options?: { timeoutMs?: number },
  ): Promise<Readable>;
  /** Plain SQL for libraries that bring their own (pg-boss) and for health checks. */
  raw: RawClient;
  /** PostgreSQL with DATABASE_REPLICA_URL: each standby's state, lag and reads (/metrics). */
  replicas?(): ReplicaStatus[];
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const tenantOfTransaction = new WeakMap<object, string>();

/** The tenant a transaction of withTenant/readAsTenant is scoped to; undefined for the owner. */
export function tenantOf(executor: Executor): string | undefined {
  return tenantOfTransaction.get(executor);
}

/**
 * Whether statement_timeout can stop a running statement: on PostgreSQL, not on PGlite (one
 * WebAssembly thread, nothing can interrupt a statement).
 */
export function cancelsStatements(executor: Executor): boolean {
  return is((executor as unknown as { session: unknown }).session, NodePgSession);
}

/** PostgreSQL's answer to a statement that ran past statement_timeout. */
export function isQueryCanceled(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause ?? error;
  return (cause as { code?: string }).code === '57014';
}

/** A standby cancelled a read that conflicted with the WAL it replays: worth running again. */
function isConflictWithRecovery(error: unknown): boolean {
  const cause = ((error as { cause?: unknown }).cause ?? error) as { message?: string };
  return /conflict with recovery/i.test(cause.message ?? '');
}

/**
 * Runs a read under statement_timeout: its rows, or null when it ran out of time. In a read
 * (readAsTenant) the timeout travels in the statement's own scope and ends with it. In a
 * transaction it is set in a savepoint, so a slow statement is cancelled without disturbing the
 * transaction; rolling back to the savepoint restores the timeout the transaction had and loses
 * nothing (it read), and the savepoint, the statement and the rollback come back in one round
 * trip. PGlite cannot interrupt a statement, so there it simply runs.
 */
export async function readWithinBudget(
  executor: Executor,
  statement: SQL,
  budgetMs: number,
): Promise<Record<string, unknown>[] | null> {
  if (!cancelsStatements(executor)) {
    return ((await executor.execute(statement)) as unknown as { rows: Record<string, unknown>[] })
      .rows;
  }
  const { client } = (
    executor as unknown as { session: { client: pg.PoolClient | ScopedReadClient } }
  ).session;
  const { dialect } = executor as unknown as { dialect: PgDialect };
  const query = dialect.sqlToQuery(statement);
  const timeout = Math.max(1, Math.round(budgetMs));
  if ('queryWithin' in client) {
    try {
      const result = await client.queryWithin({ text: query.sql }, query.params, timeout);
      return result.rows as Record<string, unknown>[];
    } catch (error) {
      if (isQueryCanceled(error)) return null;
      throw error;
    }
  }
  // The savepoint, the statement and the rollback leave in one write.
  holdUntilTurnEnds((client as unknown as { connection: { stream: Socket } }).connection.stream);
  const [budget, read, restore] = await Promise.allSettled([
    client.query(`savepoint read_budget; set local statement_timeout = ${timeout}`),
    client.query(query.sql, query.params),
    client.query('rollback to savepoint read_budget; release savepoint read_budget'),
  ]);
  if (budget.status === 'rejected') throw budget.reason;
  if (read.status === 'rejected' && !isQueryCanceled(read.reason)) throw read.reason;
  if (restore.status === 'rejected') throw restore.reason;
  return read.status === 'fulfilled' ? (read.value.rows as Record<string, unknown>[]) : null;
}

async function scopeToTenant(tx: Tx, tenantId: string): Promise<void> {
  tenantOfTransaction.set(tx, tenantId);
  // SET LOCAL lasts until the end of this transaction only; a pooled connection never keeps it.
  await tx.execute(
    sql`select set_config('role', ${appRole}, true), set_config('app.tenant_id', ${tenantId}, true)`,
  );
}

function createWriteListeners() {
  const listeners: (() => void)[] = [];
  return {
    add(listener: () => void) {
      listeners.push(listener);
    },
    after<T>(transaction: Promise<T>): Promise<T> {
      return transaction.finally(() => {
        for (const listener of listeners) listener();
      });
    },
  };
}

export interface PgliteOptions {
  /** A folder for a persistent database; undefined for an in-memory one (tests). */
  dataDir?: string;
  /**
   * A data folder's tarball (PGlite's dumpDataDir) to start from instead of an empty cluster:
   * the tests' migrated template (test/setup/database-template.ts).
   */
  loadDataDir?: Blob;
  migrationsFolder?: string;
}

/**
 * The embedded database's memory (issue 25, decision 164). PGlite's own defaults size the buffer
 * pool for a dedicated machine (shared_buffers about 1.3 GB): its WebAssembly heap grows as the
 * pool fills and never shrinks, so the server reached 0.6 GB at start and 1 GB after a day's use.
 * The embedded default serves one company's staff: a small pool, with the files the operating
 * system caches behind it, keeps the process small.
 */
const pgliteSettings = [
  'shared_buffers = 32MB',
  'wal_buffers = 1MB',
  'temp_buffers = 4MB',
  'maintenance_work_mem = 32MB',
];

export async function openPglite(options: PgliteOptions = {}): Promise<Database> {
  const client = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
    postgresqlconf: pgliteSettings,
  });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  const writes = createWriteListeners();
  const withTenant: Database['withTenant'] = (tenantId, fn) =>
    writes.after(
      db.transaction(async (tx) => {
        await scopeToTenant(tx, tenantId);
        return fn(tx);
      }),
    );
  return {
    kind: 'pglite',
    db,
    withTenant,
    afterWrite: writes.add,
    writeAsTenant: (tenantId, statement) =>
      withTenant(
        tenantId,
        async (tx) =>
          ((await tx.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows,
      ),
    // One connection in this process: a round trip costs nothing worth saving. Read-only, as
    // on PostgreSQL.
    readAsTenant: (tenantId, fn) =>
      db.transaction(async (tx) => {
        await scopeToTenant(tx, tenantId);
        await tx.execute(sql`set transaction read only`);
        return fn(tx);
      }),
    raw: {
      async query(text, values) {
        // PGlite's extended protocol takes one statement; parameterless batches go through exec.
        if (!values || values.length === 0) {
          const results = await client.exec(text);
          return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
        }
        const result = await client.query(text, values);
        return { rows: result.rows as Record<string, unknown>[] };
      },
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client }), {
        migrationsFolder: options.migrationsFolder ?? migrationsFolder,
      });
    },
    async close() {
      if (!client.closed) {
        // A checkpoint before close leaves nothing for WAL replay at the next start.
        await client.exec('CHECKPOINT');
        await client.close();
      }
    },
  };
}

/**
 * What every PostgreSQL connection starts with, in milliseconds (0: none), so that no statement
 * and no forgotten transaction holds a connection, its locks and the vacuum horizon for ever
 * (issue 20 item 5). Configuration: DATABASE_STATEMENT_TIMEOUT_MS and
 * DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS.
 */
export const defaultConnectionTimeouts = {
  statementTimeoutMs: 60_000,
  idleInTransactionTimeoutMs: 60_000,
};

export interface PostgresOptions {
  connectionString: string;
  /** statement_timeout of every connection (ms, 0: none); default 60 s. */
  statementTimeoutMs?: number;
  /** idle_in_transaction_session_timeout of every connection (ms, 0: none); default 60 s. */
  idleInTransactionTimeoutMs?: number;
  /** Connections for writes and owner queries. */
  poolSize?: number;
  /** Connections that reads share (db/scoped-read.ts); default 2. */
  readConnections?: number;
  migrationsFolder?: string;
  /** Streaming standbys that tenant reads of GET requests may go to (db/replicas.ts). */
  replicaConnectionStrings?: string[];
  /** A standby lagging more than this many milliseconds is skipped; default 5 s. */
  replicaMaxLagMs?: number;
  /** How often each standby's replay position and lag are checked (ms); default 500. */
  replicaCheckMs?: number;
  /**
   * Set when connectionString is a pooler in transaction mode (pgbouncer): the primary itself,
   * for what needs one session (migrations under a session advisory lock). Through the pooler no
   * statement is named and no read relies on a connection's session (docs/decisions/158-pgbouncer-in-transaction-mode.md
   * "pgbouncer in transaction mode").
   */
  directConnectionString?: string;
}

/** The LSN after a commit, asked in the COMMIT's own message (one round trip, one transaction). */
const commitReturningLsn = 'commit; select pg_current_wal_insert_lsn()::text as lsn';

/**
 * Through a pooler in transaction mode the next statement may run on another server connection,
 * where a statement named on this one does not exist (pgbouncer 1.18 keeps none): every query
 * of the pool goes unnamed, parsed each time.
 */
function withoutNamedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
      config: unknown,
      ...rest: unknown[]
    ) => {
      if (
        config &&
        typeof config === 'object' &&
        !('submit' in config) &&
        (config as { name?: string }).name
      ) {
        return query({ ...(config as object), name: undefined }, ...rest);
      }
      return query(config, ...rest);
    };
  });
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const connectionSettings = () => settingsOf(options);
  const pool = new pg.Pool({
    ...connectionSettings(),
    max: options.poolSize ?? 10,
    // Queries written one after another without waiting go out together (readWithinBudget's
    // savepoint, statement and rollback); code that awaits each query behaves as without it.
    pipeline: true,
  } as pg.PoolConfig);
  survivesConnectionLoss(pool);
  const pooled = options.directConnectionString !== undefined;
  if (pooled) withoutNamedStatements(pool);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const reads = createReadConnections(
    () =>
      new pg.Client({
        ...connectionSettings(),
        pipeline: true,
      } as pg.ClientConfig),
    options.readConnections ?? 2,
  );
  const standbys = (options.replicaConnectionStrings ?? []).map((connectionString) => {
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
  });
  type Standby = (typeof standbys)[number];
  const monitor =
    standbys.length > 0
      ? monitorReplicas(standbys, {
          maxLagMs: options.replicaMaxLagMs ?? 5_000,
          intervalMs: options.replicaCheckMs ?? 500,
          primaryLsn: async () =>
            parseLsn(
              (await pool.query('select pg_current_wal_flush_lsn()::text as lsn')).rows[0]?.lsn,
            ),
          settings: connectionSettings(),
        })
      : undefined;
  await monitor?.start();
  /** The standby this read may use, or undefined for the primary. */
  const standbyForRead = (): Standby | undefined => {
    if (standbys.length === 0) return undefined;
    const route = currentReadRoute();
    if (!route?.replica || route.wrote) return undefined;
    return chooseReplica(standbys, route.minLsn, (standby) => standby.inFlight);
  };
  /** Runs a read on the standby; should it fail there, on the primary. */
  const onStandby = async <T>(
    standby: Standby,
    onReplica: () => Promise<T>,
    onPrimary: () => Promise<T>,
  ): Promise<T> => {
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
  };
  const transactions = createPostgresTransactions(pool, db, reads, {
    pooled,
    recordLsn: standbys.length > 0,
  });
  const writes = createWriteListeners();
  // COPY holds its connection for the whole stream and cannot share a pipelined one: a few
  // plain connections of its own, opened when first needed.
  let copyPool: pg.Pool | undefined;
  const copyConnections = () => {
    if (!copyPool) {
      copyPool = new pg.Pool({ ...connectionSettings(), max: 4 });
      survivesConnectionLoss(copyPool);
    }
    return copyPool;
  };
  return {
    kind: 'postgres',
    db,
    withTenant: (tenantId, fn) => writes.after(transactions.run(tenantId, fn)),
    afterWrite: writes.add,
    writeAsTenant: (tenantId, statement) =>
      writes.after(transactions.writeOne(tenantId, statement)),
    readAsTenant: (tenantId, fn) => {
      const standby = standbyForRead();
      if (!standby) return transactions.read(tenantId, fn);
      return onStandby(
        standby,
        () => transactions.readOn(standby.reads, tenantId, fn),
        () => transactions.read(tenantId, fn),
      );
    },
    replicas: () => standbys.map((standby) => ({ ...standby.status })),
    raw: {
      async query(text, values) {
        const result = await pool.query(text, values as unknown[] | undefined);
        return { rows: result.rows as Record<string, unknown>[] };
      },
    },
    async migrate() {
      // Several API processes may start together: one migrates, the others wait on the lock. The
      // lock is the session's: through a pooler, on a connection of its own to the primary.
      const direct = pooled
        ? new pg.Pool({
            ...connectionSettings(),
            connectionString: options.directConnectionString,
            max: 1,
          })
        : undefined;
      if (direct) survivesConnectionLoss(direct);
      const connection = await (direct ?? pool).connect();
      try {
        // A migration may rewrite a large table, and other processes wait on the lock: no
        // timeouts for this connection until it goes back to the pool.
        await connection.query(
          `set statement_timeout = 0; set idle_in_transaction_session_timeout = 0; select pg_advisory_lock(hashtext('ledgerline.migrations'))`,
        );
        await migratePg(drizzlePg({ client: connection }), {
          migrationsFolder: options.migrationsFolder ?? migrationsFolder,
        });
      } finally {
        await connection.query(
          `select pg_advisory_unlock(hashtext('ledgerline.migrations')); reset statement_timeout; reset idle_in_transaction_session_timeout`,
        );
        connection.release();
        await direct?.end();
      }
    },
    async copyOutAsTenant(tenantId, statement, copyOptions = {}) {
      const { dialect } = db as unknown as { dialect: PgDialect };
      const query = dialect.sqlToQuery(statement);
      const text = `copy (${inlineParameters(query.sql, query.params)}) to stdout`;
      const timeout =
        copyOptions.timeoutMs === undefined
          ? ''
          : `; set local statement_timeout = ${Math.max(1, Math.round(copyOptions.timeoutMs))}`;
      const begin = async (connections: pg.Pool) => {
        const client = await connections.connect();
        try {
          await client.query(`${beginAsTenant(tenantId, ' read only')}${timeout}`);
          return client;
        } catch (error) {
          client.release(error as Error);
          throw error;
        }
      };
      // An export reads on a standby when it may; one that cannot start it there starts on the
      // primary (once its rows flow, a failure ends it as on the primary).
      const standby = standbyForRead();
      const client = standby
        ? await onStandby(
            standby,
            () => begin(standby.copyConnections()),
            () => begin(copyConnections()),
          )
        : await begin(copyConnections());
      const stream = client.query(copyTo(text));
      let settled = false;
      const settle = (outcome: 'ended' | Error) => {
        if (settled) return;
        settled = true;
        if (outcome === 'ended') {
          client.query('commit').then(
            () => client.release(),
            (error: Error) => client.release(error),
          );
        } else {
          // Mid-COPY: close the socket at once (a polite Terminate would wait behind the rows
          // the server is still sending); the server's next write fails and it ends the
          // statement. The pool then drops the connection.
          (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
          client.release(outcome);
        }
      };
      stream.on('end', () => settle('ended'));
      stream.on('error', (error) => settle(error));
      stream.on('close', () => settle(new Error('The COPY was abandoned.')));
      return stream;
    },
    async close() {
      await monitor?.stop();
      await Promise.all(standbys.map((standby) => standby.close()));
      await transactions.close();
      await copyPool?.end();
      await pool.end();
    },
  };
}

/**
 * What every connection is opened with. A connection attempt gives up after a few seconds, so a
 * call made while the database is away fails fast (503) instead of waiting for the operating
 * system; TCP keep-alive finds a connection whose peer vanished without a word (a network drop).
 * statement_timeout and idle_in_transaction_session_timeout go in the startup message, so they
 * hold from the first statement (defaultConnectionTimeouts).
 */
function settingsOf(options: PostgresOptions) {
  const base = {
    connectionString: options.connectionString,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  // pgbouncer 1.18 refuses startup parameters it does not know, and a server connection's
  // settings are not the client's to choose: through a pooler the timeouts are the role's or the
  // database's (ALTER ROLE … SET statement_timeout, README "Production set-up").
  if (options.directConnectionString !== undefined) return base;
  return {
    ...base,
    statement_timeout: options.statementTimeoutMs ?? defaultConnectionTimeouts.statementTimeoutMs,
    idle_in_transaction_session_timeout:
      options.idleInTransactionTimeoutMs ?? defaultConnectionTimeouts.idleInTransactionTimeoutMs,
  };
}

/**
 * A connection the server ends (a restart, pg_terminate_backend, a dropped network) emits 'error';
 * an 'error' nobody hears ends the process (issue 9, defect 1). pg's pool listens only while a
 * connection is idle, and drops it; a connection lent out (a transaction, a migration, a COPY)
 * had no listener. Every connection now has one for its whole life: the query in flight fails
 * with the error (a 503, platform/problems.ts), the connection is no longer queryable and the
 * pool discards it when it comes back, and the next call opens a new one.
 */
function survivesConnectionLoss(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assertTenantId(tenantId: string): void {
  if (!uuidPattern.test(tenantId)) throw new Error('A tenant id must be a UUID.');
}

/**
 * BEGIN and the tenant scope as one simple-protocol message: one round trip where drizzle's own
 * transaction takes two. The tenant id is a UUID (checked here) and the role a constant, so the
 * text carries no client input.
 */
const writing = new WeakSet<object>();
const together = new WeakMap<object, pg.PoolClient>();

/**
 * The client of a write transaction, whose statements issued together (a Promise.all, BEGIN and
 * the first statement) leave in one write: the connection is corked until the microtasks that
 * issue them have run (process.nextTick), then written at once. Only the batching changes, never
 * the order; a statement that is awaited alone leaves as before (docs/decisions/079-the-payer-page-is-one-statement.md "The payer
 * page is one statement": a write syscall to PostgreSQL per statement was most of the
 * notifications' CPU).
 */
function writesTogether(client: pg.PoolClient): pg.PoolClient {
  const known = together.get(client);
  if (known) return known;
  const stream = (client as unknown as { connection?: { stream?: Writable } }).connection?.stream;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const wrapped = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
      return (...args: unknown[]) => {
        if (stream && !writing.has(stream)) {
          writing.add(stream);
          stream.cork();
          process.nextTick(() => {
            writing.delete(stream);
            stream.uncork();
          });
        }
        return query(...args);
      };
    },
  });
  together.set(client, wrapped);
  return wrapped;
}

function beginAsTenant(tenantId: string, mode: '' | ' read only' = ''): string {
  assertTenantId(tenantId);
  return `begin${mode}; select set_config('role', '${appRole}', true), set_config('app.tenant_id', '${tenantId}', true)`;
}

/**
 * Tenant transactions on node-postgres, as drizzle's db.transaction runs them (the same session
 * and transaction classes, so nested transactions and every query builder work) with fewer round
 * trips: `run` for writes (BEGIN and the scope in one message), `read` for reads (no transaction
 * block at all: db/scoped-read.ts).
 */
function createPostgresTransactions(
  pool: pg.Pool,
  db: Db,
  reads: ReturnType<typeof createReadConnections>,
  mode: { pooled: boolean; recordLsn: boolean },
) {
  /**
   * A write's COMMIT, and with standbys the LSN just past it, kept in the request's read route
   * (its later reads stay on the primary; the caller's next ones wait for a standby that has
   * replayed it: platform/read-routing.ts).
   */
  const commit = async (client: pg.PoolClient): Promise<void> => {
    const route = currentReadRoute();
    if (!mode.recordLsn || !route) {
      await client.query('commit');
      return;
    }
    const results = (await client.query(commitReturningLsn)) as unknown as pg.QueryResult[];
    const lsn = parseLsn(results.at(-1)?.rows[0]?.lsn);
    if (lsn > (route.lastLsn ?? 0n)) route.lastLsn = lsn;
  };
  const markWriting = () => {
    const route = currentReadRoute();
    if (route) route.wrote = true;
  };
  const internals = db as unknown as {
    dialect: ConstructorParameters<typeof NodePgSession>[1];
    _: { fullSchema: Schema; schema: never; tableNamesMap: Record<string, string> };
  };
  // Without the relational schema: drizzle would otherwise build a query builder for every table
  // on every transaction, and nothing here uses tx.query.
  const schemaConfig = {
    fullSchema: internals._.fullSchema,
    schema: undefined as never,
    tableNamesMap: {},
  };
  const transactionOver = (client: pg.PoolClient | ScopedReadClient, tenantId: string) => {
    const session = new NodePgSession(client as pg.PoolClient, internals.dialect, schemaConfig);
    const tx = new NodePgTransaction(internals.dialect, session, schemaConfig) as unknown as Tx;
    tenantOfTransaction.set(tx, tenantId);
    return tx;
  };

  return {
    async run<T>(
      tenantId: string,
      fn: (tx: Tx) => Promise<T>,
      access: '' | ' read only' = '',
    ): Promise<T> {
      const begin = beginAsTenant(tenantId, access);
      if (access === '') markWriting();
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // BEGIN is not waited for: it leaves with the transaction's first statement, in one
        // write (the pool is pipelined). Should it fail, so does every statement after it.
        const begun = writesTogether(client).query(begin);
        begun.catch(() => undefined);
        const result = await fn(transactionOver(writesTogether(client), tenantId));
        await begun;
        if (access === '') await commit(client);
        else await client.query('commit');
        return result;
      } catch (error) {
        try {
          await client.query('rollback');
        } catch (rollbackError) {
          // The connection is unusable: the pool drops it instead of lending it again.
          broken = rollbackError as Error;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },

    /** BEGIN and the scope, the statement and COMMIT in one write; the statement's rows. */
    async writeOne(tenantId: string, statement: SQL): Promise<Record<string, unknown>[]> {
      const begin = beginAsTenant(tenantId);
      markWriting();
      const route = mode.recordLsn ? currentReadRoute() : undefined;
      const query = internals.dialect.sqlToQuery(statement);
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const together = writesTogether(client);
        // A failed BEGIN or scope fails the statement (the transaction is aborted), and a COMMIT
        // of an aborted transaction rolls it back: the statement's error is the one thrown.
        const [begun, written, committed] = await Promise.allSettled([
          together.query(begin),
          together.query(query.sql, query.params),
          together.query(route ? commitReturningLsn : 'commit'),
        ]);
        for (const outcome of [begun, written, committed])
          if (outcome.status === 'rejected') throw outcome.reason;
        if (route) {
          const results = (committed as PromiseFulfilledResult<unknown>).value as pg.QueryResult[];
          const lsn = parseLsn(results.at(-1)?.rows[0]?.lsn);
          if (lsn > (route.lastLsn ?? 0n)) route.lastLsn = lsn;
        }
        return (written as PromiseFulfilledResult<pg.QueryResult>).value.rows as Record<
          string,
          unknown
        >[];
      } catch (error) {
        try {
          await client.query('rollback');
        } catch (rollbackError) {
          broken = rollbackError as Error;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },

    /**
     * Nothing to begin or end: every statement ends its own implicit transaction. Through a
     * pooler in transaction mode, a read-only transaction on the pool instead: the scoped reads
     * name their statements once per connection and pipeline statements of several
     * transactions, neither of which pgbouncer 1.18 keeps apart.
     */
    async read<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
      if (mode.pooled) return this.run(tenantId, fn, ' read only');
      return this.readOn(reads, tenantId, fn);
    },
    /** A read on these shared connections (the primary's, or a standby's). */
    async readOn<T>(
      connections: ReturnType<typeof createReadConnections>,
      tenantId: string,
      fn: (tx: Tx) => Promise<T>,
    ): Promise<T> {
      assertTenantId(tenantId);
      const connection = connections.pick();
      return fn(
        transactionOver(scopedReadClient(connection, { role: appRole, tenantId }), tenantId),
      );
    },
    close: () => reads.close(),
  };
}
