import { uuidPattern } from '@ledgerline/contract';
import type { SQL } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { appRole, rememberTenant, type Db, type Schema, type Tx } from './database.js';
import { currentReadRoute, parseLsn } from './replicas.js';
import {
  scopedReadClient,
  type createReadConnections,
  type ScopedReadClient,
} from './scoped-read.js';

/** The LSN after a commit, asked in the COMMIT's own message (one round trip, one transaction). */
export const commitReturningLsn = 'commit; select pg_current_wal_insert_lsn()::text as lsn';

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

export function beginAsTenant(tenantId: string, mode: '' | ' read only' = ''): string {
  assertTenantId(tenantId);
  return `begin${mode}; select set_config('role', '${appRole}', true), set_config('app.tenant_id', '${tenantId}', true)`;
}

type ReadConnections = ReturnType<typeof createReadConnections>;
type TransactionOver = (client: pg.PoolClient | ScopedReadClient, tenantId: string) => Tx;
type Dialect = ConstructorParameters<typeof NodePgSession>[1];

/** Keeps the LSN just past a write's COMMIT in the request's read route (its latest). */
function keepCommitLsn(results: pg.QueryResult[], route: { lastLsn?: bigint }): void {
  const lsn = parseLsn(results.at(-1)?.rows[0]?.lsn);
  if (lsn > (route.lastLsn ?? 0n)) route.lastLsn = lsn;
}

/**
 * A write's COMMIT, and with standbys the LSN just past it, kept in the request's read route
 * (its later reads stay on the primary; the caller's next ones wait for a standby that has
 * replayed it: platform/read-routing.ts).
 */
async function commitWrite(client: pg.PoolClient, recordLsn: boolean): Promise<void> {
  const route = currentReadRoute();
  if (!recordLsn || !route) {
    await client.query('commit');
    return;
  }
  keepCommitLsn((await client.query(commitReturningLsn)) as unknown as pg.QueryResult[], route);
}

/** The request wrote: its later reads stay on the primary. */
function markWriting(): void {
  const route = currentReadRoute();
  if (route) route.wrote = true;
}

/** Rolls back after a failure; the error when the connection is unusable (the pool drops it). */
async function rollBack(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query('rollback');
    return undefined;
  } catch (rollbackError) {
    return rollbackError as Error;
  }
}

/** A drizzle transaction over a connection, scoped to the tenant. */
function transactionsOver(db: Db): { dialect: Dialect; over: TransactionOver } {
  const internals = db as unknown as {
    dialect: Dialect;
    _: { fullSchema: Schema; schema: never; tableNamesMap: Record<string, string> };
  };
  // Without the relational schema: drizzle would otherwise build a query builder for every table
  // on every transaction, and nothing here uses tx.query.
  const schemaConfig = {
    fullSchema: internals._.fullSchema,
    schema: undefined as never,
    tableNamesMap: {},
  };
  const over: TransactionOver = (client, tenantId) => {
    const session = new NodePgSession(client as pg.PoolClient, internals.dialect, schemaConfig);
    const tx = new NodePgTransaction(internals.dialect, session, schemaConfig) as unknown as Tx;
    rememberTenant(tx, tenantId);
    return tx;
  };
  return { dialect: internals.dialect, over };
}

/** fn in one transaction on a pooled connection; BEGIN and the scope in one message. */
async function runTransaction<T>(
  pool: pg.Pool,
  over: TransactionOver,
  recordLsn: boolean,
  tenantId: string,
  fn: (tx: Tx) => Promise<T>,
  access: '' | ' read only',
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
    const result = await fn(over(writesTogether(client), tenantId));
    await begun;
    if (access === '') await commitWrite(client, recordLsn);
    else await client.query('commit');
    return result;
  } catch (error) {
    broken = await rollBack(client);
    throw error;
  } finally {
    client.release(broken);
  }
}

/** BEGIN and the scope, the statement and COMMIT in one write; the statement's rows. */
async function writeOneStatement(
  pool: pg.Pool,
  dialect: Dialect,
  recordLsn: boolean,
  tenantId: string,
  statement: SQL,
): Promise<Record<string, unknown>[]> {
  const begin = beginAsTenant(tenantId);
  markWriting();
  const route = recordLsn ? currentReadRoute() : undefined;
  const query = dialect.sqlToQuery(statement);
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
    if (route)
      keepCommitLsn(
        (committed as PromiseFulfilledResult<unknown>).value as pg.QueryResult[],
        route,
      );
    return (written as PromiseFulfilledResult<pg.QueryResult>).value.rows as Record<
      string,
      unknown
    >[];
  } catch (error) {
    broken = await rollBack(client);
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Tenant transactions on node-postgres, as drizzle's db.transaction runs them (the same session
 * and transaction classes, so nested transactions and every query builder work) with fewer round
 * trips: `run` for writes (BEGIN and the scope in one message), `read` for reads (no transaction
 * block at all: db/scoped-read.ts).
 */
export function createPostgresTransactions(
  pool: pg.Pool,
  db: Db,
  reads: ReadConnections,
  mode: { pooled: boolean; recordLsn: boolean },
) {
  const { dialect, over } = transactionsOver(db);
  return {
    run: <T>(tenantId: string, fn: (tx: Tx) => Promise<T>, access: '' | ' read only' = '') =>
      runTransaction(pool, over, mode.recordLsn, tenantId, fn, access),
    writeOne: (tenantId: string, statement: SQL) =>
      writeOneStatement(pool, dialect, mode.recordLsn, tenantId, statement),
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
      connections: ReadConnections,
      tenantId: string,
      fn: (tx: Tx) => Promise<T>,
    ): Promise<T> {
      assertTenantId(tenantId);
      const connection = connections.pick();
      return fn(over(scopedReadClient(connection, { role: appRole, tenantId }), tenantId));
    },
    close: () => reads.close(),
  };
}
