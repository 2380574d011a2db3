import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openPglite } from './client.js';

/**
 * The embedded database is made (PGlite's initdb and every migration) in a process of its own,
 * the server's entry script started again with this variable naming the folder. PGlite's
 * WebAssembly heap never shrinks and the memory that initdb and the migrations used is not handed
 * back to the system, so a server that made its database itself held about 150 MB more for the
 * rest of its life than one started on a made folder (docs/decisions/164-the-embedded-database-s-small-buffer-pool.md).
 */
const makeVariable = 'LEDGERLINE_MAKE_DATABASE';

/** Whether the folder already holds a database (PostgreSQL writes PG_VERSION first). */
export function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/** Makes and migrates the database in dataDir in a child process; throws if it failed. */
export async function makeDatabaseApart(dataDir: string): Promise<void> {
  const entry = process.argv[1];
  if (!entry) throw new Error('No entry script to make the database with.');
  const child = fork(entry, [], {
    env: { ...process.env, [makeVariable]: dataDir },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    errors = (errors + text).slice(-4_000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`Making the embedded database failed: ${errors.trim()}`);
}

/**
 * In a process started by makeDatabaseApart: makes the database and returns true (the entry
 * script then ends); elsewhere false at once.
 */
export async function makeDatabaseIfAsked(): Promise<boolean> {
  const dataDir = process.env[makeVariable];
  if (!dataDir) return false;
  const database = await openPglite({ dataDir });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  return true;
}
