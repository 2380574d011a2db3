import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database, type PostgresOptions } from '../src/db/client.js';

/**
 * The migrated template of this run (test/setup/database-template.ts), or undefined when the
 * project's global setup did not make one: the database is then migrated from scratch.
 */
function template() {
  const provided = inject('testDatabaseTemplate');
  const url = process.env.TEST_DATABASE_URL;
  if (!provided || (provided.kind === 'postgres') !== Boolean(url)) return undefined;
  return provided;
}

let pgliteTarball: Blob | undefined;

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server of TEST_DATABASE_URL (dropped afterwards). Both start as a copy of the
 * run's migrated template.
 */
export async function createTestDatabase(
  options: {
    poolSize?: number;
    readConnections?: number;
    /** Where the app connects on PostgreSQL, e.g. through a test's TCP proxy (test/tcp-proxy.ts). */
    route?: (url: URL) => URL;
    /** More of openPostgres's options, given the test database's address (standbys, a pooler). */
    postgres?: (url: URL) => Partial<PostgresOptions>;
  } = {},
): Promise<{
  database: Database;
  dispose(): Promise<void>;
}> {
  const url = process.env.TEST_DATABASE_URL;
  const copyOf = template();
  if (!url) {
    if (copyOf?.kind === 'pglite') {
      pgliteTarball ??= new Blob([readFileSync(copyOf.file)]);
      const database = await openPglite({ loadDataDir: pgliteTarball });
      return { database, dispose: () => database.close() };
    }
    const database = await openPglite();
    await database.migrate();
    return { database, dispose: () => database.close() };
  }
  const name = `ledgerline_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    copyOf?.kind === 'postgres'
      ? `create database ${name} template ${copyOf.name}`
      : `create database ${name}`,
  );
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres({
    connectionString: (options.route ? options.route(target) : target).toString(),
    poolSize: options.poolSize ?? 5,
    readConnections: options.readConnections,
    ...options.postgres?.(target),
  });
  if (copyOf?.kind !== 'postgres') await database.migrate();
  return {
    database,
    async dispose() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
