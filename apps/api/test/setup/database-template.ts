import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../src/db/client.js';
import { migrationsFolder } from '../../src/paths.js';
import { makeFakeOidcKeys } from '../fake-oidc.js';

/**
 * Global setup of the api project: one migrated database that every test file copies instead of
 * migrating its own (docs/decisions/080-test-time-one-migrated-template-shared-worker.md "Test databases start from a migrated template"), and the
 * fake OpenID provider's keys.
 *
 * - PGlite: the data folder of a migrated in-memory database, dumped once as a tarball into
 *   node_modules/.cache/ledgerline-test/, keyed by the migrations and the PGlite version; each
 *   file's database loads it (PGlite.create({ loadDataDir })) and skips initdb and the migrations.
 * - PostgreSQL (TEST_DATABASE_URL): a migrated database `ledgerline_template_<key>` on the server;
 *   each file's database is `CREATE DATABASE … TEMPLATE` it.
 *
 * The key changes whenever a migration file changes, so a stale template is never used.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: the path of the migrated data folder's tarball; PostgreSQL: the template's name. */
    testDatabaseTemplate: { kind: 'pglite'; file: string } | { kind: 'postgres'; name: string };
    /** The fake OpenID provider's key pairs (test/fake-oidc.ts), made once per run. */
    fakeOidcKeys: Awaited<ReturnType<typeof makeFakeOidcKeys>>;
  }
}

const apiRoot = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

/** A hash of every migration file (SQL and the journal) and, for the tarball, PGlite's version. */
function migrationsKey(extra: string): string {
  const hash = createHash('sha256').update(extra);
  const files = [
    ...readdirSync(migrationsFolder)
      .filter((f) => f.endsWith('.sql'))
      .sort(),
    'meta/_journal.json',
  ];
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(migrationsFolder, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  // The package exports no package.json: walk up from its entry point to its own.
  let folder = dirname(require.resolve('@electric-sql/pglite', { paths: [apiRoot] }));
  for (;;) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version;
    }
    if (dirname(folder) === folder) throw new Error('@electric-sql/pglite has no package.json');
    folder = dirname(folder);
  }
}

async function pgliteTemplate(): Promise<string> {
  const cacheDir = join(apiRoot, '..', '..', 'node_modules', '.cache', 'ledgerline-test');
  const file = join(cacheDir, `pglite-${migrationsKey(`pglite ${pgliteVersion()}`)}.tar`);
  if (existsSync(file)) return file;
  const database = await openPglite();
  try {
    await database.migrate();
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    mkdirSync(dirname(file), { recursive: true });
    // Written aside and renamed: a run that stops half-way never leaves a partial tarball.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await database.close();
  }
  return file;
}

async function postgresTemplate(url: string): Promise<string> {
  const name = `ledgerline_template_${migrationsKey('postgres')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    // Migrated under a name of its own and renamed when complete: a run that stops half-way, or
    // another run building the same template at the same time, never leaves a half-migrated one.
    const building = `ledgerline_template_build_${randomBytes(6).toString('hex')}`;
    await admin.query(`create database ${building}`);
    try {
      const target = new URL(url);
      target.pathname = `/${building}`;
      const database = await openPostgres({ connectionString: target.toString(), poolSize: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
    } catch (error) {
      await admin.query(`drop database if exists ${building} with (force)`);
      const raced = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!raced.rowCount) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  project.provide(
    'testDatabaseTemplate',
    url
      ? { kind: 'postgres', name: await postgresTemplate(url) }
      : { kind: 'pglite', file: await pgliteTemplate() },
  );
  project.provide('fakeOidcKeys', await makeFakeOidcKeys());
}
