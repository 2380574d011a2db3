import { join } from 'node:path';
import type { Config } from '../config.js';
import { openPglite, openPostgres, type Database } from './client.js';
import { lockDataFolder } from './lock.js';
import { holdsDatabase, makeDatabaseApart } from './make-database.js';

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else embedded) and migrates
 * it. With `makeApart`, an embedded database that does not exist yet is made in a child process
 * (db/make-database.ts): the entry script must call makeDatabaseIfAsked first.
 */
export async function openDatabase(
  config: Config,
  options: { makeApart?: boolean } = {},
): Promise<{ database: Database; release(): void }> {
  if (config.DATABASE_URL) {
    const database = await openPostgres({
      connectionString: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      readConnections: config.DATABASE_READ_CONNECTIONS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      replicaConnectionStrings: (config.DATABASE_REPLICA_URL ?? '')
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
      replicaMaxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS,
      replicaCheckMs: config.DATABASE_REPLICA_CHECK_MS,
      directConnectionString: config.DATABASE_DIRECT_URL,
    });
    await database.migrate();
    return { database, release: () => undefined };
  }
  const lock = lockDataFolder(config.DATA_DIR);
  try {
    const dataDir = join(config.DATA_DIR, 'db');
    if (options.makeApart && !holdsDatabase(dataDir)) await makeDatabaseApart(dataDir);
    const database = await openPglite({ dataDir });
    await database.migrate();
    return { database, release: lock.release };
  } catch (error) {
    lock.release();
    throw error;
  }
}
