import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { to as copyTo } from 'pg-copy-streams';
import pg from 'pg';
import { migrationsFolder } from '../paths.js';
import { inlineParameters } from './copy-out.js';
import { createWriteListeners, schema, type Database, type Db } from './database.js';
import {
  settingsOf,
  survivesConnectionLoss,
  withoutNamedStatements,
  type PostgresOptions,
} from './postgres-connections.js';
import { startStandbys, type Standbys } from './postgres-standbys.js';
import { beginAsTenant, createPostgresTransactions } from './postgres-transactions.js';
import { createReadConnections } from './scoped-read.js';

/**
 * Migrates under a session advisory lock: several API processes may start together, one
 * migrates, the others wait on the lock. The lock is the session's: through a pooler, on a
 * connection of its own to the primary.
 */
async function migratePostgres(options: PostgresOptions, pool: pg.Pool): Promise<void> {
  const direct =
    options.directConnectionString !== undefined
      ? new pg.Pool({
          ...settingsOf(options),
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
}

/** Database.copyOutAsTenant on these connections (docs/decisions/015-the-export-is-one-copy.md). */
function copyOut(
  db: Db,
  standbys: Standbys,
  copyConnections: () => pg.Pool,
): NonNullable<Database['copyOutAsTenant']> {
  return async (tenantId, statement: SQL, copyOptions = {}) => {
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
    const standby = standbys.forRead();
    const client = standby
      ? await standbys.read(
          standby,
          () => begin(standby.copyConnections()),
          () => begin(copyConnections()),
        )
      : await begin(copyConnections());
    return streamCopy(client, text);
  };
}

/** The COPY's rows; its end commits and releases the connection, anything else drops it. */
function streamCopy(client: pg.PoolClient, text: string): Readable {
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
    () => new pg.Client({ ...connectionSettings(), pipeline: true } as pg.ClientConfig),
    options.readConnections ?? 2,
  );
  const standbys = await startStandbys(options, pool);
  const transactions = createPostgresTransactions(pool, db, reads, {
    pooled,
    recordLsn: standbys.any,
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
      const standby = standbys.forRead();
      if (!standby) return transactions.read(tenantId, fn);
      return standbys.read(
        standby,
        () => transactions.readOn(standby.reads, tenantId, fn),
        () => transactions.read(tenantId, fn),
      );
    },
    replicas: standbys.statuses,
    raw: {
      async query(text, values) {
        const result = await pool.query(text, values as unknown[] | undefined);
        return { rows: result.rows as Record<string, unknown>[] };
      },
    },
    migrate: () => migratePostgres(options, pool),
    copyOutAsTenant: copyOut(db, standbys, copyConnections),
    async close() {
      await standbys.close();
      await transactions.close();
      await copyPool?.end();
      await pool.end();
    },
  };
}
