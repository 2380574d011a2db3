import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../paths.js';
import {
  appRole,
  createWriteListeners,
  rememberTenant,
  schema,
  type Database,
  type Db,
  type Tx,
} from './database.js';

async function scopeToTenant(tx: Tx, tenantId: string): Promise<void> {
  rememberTenant(tx, tenantId);
  // SET LOCAL lasts until the end of this transaction only; a pooled connection never keeps it.
  await tx.execute(
    sql`select set_config('role', ${appRole}, true), set_config('app.tenant_id', ${tenantId}, true)`,
  );
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
 * The embedded database's memory (docs/decisions/164-the-embedded-database-s-small-buffer-pool.md). PGlite's own defaults size the buffer
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
