import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import { migrationsFolder } from '../paths.js';
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
  /** Plain SQL for libraries that bring their own (pg-boss) and for health checks. */
  raw: RawClient;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

async function scopeToTenant(tx: Tx, tenantId: string): Promise<void> {
  // SET LOCAL lasts until the end of this transaction only; a pooled connection never keeps it.
  await tx.execute(
    sql`select set_config('role', ${appRole}, true), set_config('app.tenant_id', ${tenantId}, true)`,
  );
}

export interface PgliteOptions {
  /** A folder for a persistent database; undefined for an in-memory one (tests). */
  dataDir?: string;
  migrationsFolder?: string;
}

export async function openPglite(options: PgliteOptions = {}): Promise<Database> {
  const client = await PGlite.create({ dataDir: options.dataDir, extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    withTenant: (tenantId, fn) =>
      db.transaction(async (tx) => {
        await scopeToTenant(tx, tenantId);
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

export interface PostgresOptions {
  connectionString: string;
  poolSize?: number;
  migrationsFolder?: string;
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    withTenant: (tenantId, fn) =>
      db.transaction(async (tx) => {
        await scopeToTenant(tx, tenantId);
        return fn(tx);
      }),
    raw: {
      async query(text, values) {
        const result = await pool.query(text, values as unknown[] | undefined);
        return { rows: result.rows as Record<string, unknown>[] };
      },
    },
    async migrate() {
      // Several API processes may start together: one migrates, the others wait on the lock.
      const connection = await pool.connect();
      try {
        await connection.query(`select pg_advisory_lock(hashtext('ledgerline.migrations'))`);
        await migratePg(drizzlePg({ client: connection }), {
          migrationsFolder: options.migrationsFolder ?? migrationsFolder,
        });
      } finally {
        await connection.query(`select pg_advisory_unlock(hashtext('ledgerline.migrations'))`);
        connection.release();
      }
    },
    close: () => pool.end(),
  };
}
