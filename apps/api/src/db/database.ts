import { is, type ExtractTablesWithRelations, type SQL } from 'drizzle-orm';
import { NodePgSession } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { Readable } from 'node:stream';
import type { ReplicaStatus } from './replicas.js';
import * as coreSchema from './schema.js';
import * as receivablesSchema from './schema-receivables.js';

export const schema = { ...coreSchema, ...receivablesSchema };

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
   * revoked a credential that something remembers: platform/short-lived-cache.ts).
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

/** Remembers the tenant a transaction is scoped to (tenantOf). */
export function rememberTenant(tx: Tx, tenantId: string): void {
  tenantOfTransaction.set(tx, tenantId);
}

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

/** Listeners called after every withTenant transaction (Database.afterWrite). */
export function createWriteListeners() {
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
