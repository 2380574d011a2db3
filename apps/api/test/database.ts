import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type Database } from '../src/db/client.js';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server of TEST_DATABASE_URL (dropped afterwards).
 */
export async function createTestDatabase(
  options: {
    poolSize?: number;
    readConnections?: number;
    /** Where the app connects on PostgreSQL, e.g. through a test's TCP proxy (test/tcp-proxy.ts). */
    route?: (url: URL) => URL;
  } = {},
): Promise<{
  database: Database;
  dispose(): Promise<void>;
}> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openPglite();
    await database.migrate();
    return { database, dispose: () => database.close() };
  }
  const name = `ledgerline_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres({
    connectionString: (options.route ? options.route(target) : target).toString(),
    poolSize: options.poolSize ?? 5,
    readConnections: options.readConnections,
  });
  await database.migrate();
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
