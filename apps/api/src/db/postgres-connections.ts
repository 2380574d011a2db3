import type pg from 'pg';

/**
 * What every PostgreSQL connection starts with, in milliseconds (0: none), so that no statement
 * and no forgotten transaction holds a connection, its locks and the vacuum horizon for ever
 * Configuration: DATABASE_STATEMENT_TIMEOUT_MS and
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

/**
 * Through a pooler in transaction mode the next statement may run on another server connection,
 * where a statement named on this one does not exist (pgbouncer 1.18 keeps none): every query
 * of the pool goes unnamed, parsed each time.
 */
export function withoutNamedStatements(pool: pg.Pool): void {
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

/**
 * What every connection is opened with. A connection attempt gives up after a few seconds, so a
 * call made while the database is away fails fast (503) instead of waiting for the operating
 * system; TCP keep-alive finds a connection whose peer vanished without a word (a network drop).
 * statement_timeout and idle_in_transaction_session_timeout go in the startup message, so they
 * hold from the first statement (defaultConnectionTimeouts).
 */
export function settingsOf(options: PostgresOptions) {
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
 * an 'error' nobody hears ends the process. pg's pool listens only while a
 * connection is idle, and drops it; a connection lent out (a transaction, a migration, a COPY)
 * had no listener. Every connection now has one for its whole life: the query in flight fails
 * with the error (a 503, platform/problems.ts), the connection is no longer queryable and the
 * pool discards it when it comes back, and the next call opens a new one.
 */
export function survivesConnectionLoss(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
}
