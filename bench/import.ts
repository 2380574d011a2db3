// The allocated-status import benchmark: a company with 101,000 payments on
// each database, a 100,000-row import through HTTP against the built server, and, while it runs,
// the latency of /api/health and of a small write (one payment's allocated status) in a loop.
// Targets: 100,000 rows in at most 5 s on PostgreSQL and 8 s on PGlite, and other requests on
// PGlite not held for the whole import.
//
//   npm run bench:import                              # PostgreSQL and PGlite
//   BENCH_IMPORT_DATABASES=pglite npm run bench:import  # one of them (pglite, postgres)
//   BENCH_DATABASE_URL=postgres://... npm run bench:import
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { openPglite, openPostgres, type Database } from '../apps/api/src/db/client.js';
import { accessKeys } from '../apps/api/src/db/schema.js';
import { generateKey } from '../apps/api/src/features/access-keys/access-keys.service.js';
import { generateReceivables } from '../apps/api/src/features/datasets/demo-data.js';
import { createTenant } from '../apps/api/src/features/tenants/tenants.service.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = 'ledgerline_bench_import';
const importRows = 100_000;
const size = {
  accounts: 1_000,
  transactions: 1_000,
  paymentRequests: 1_000,
  // One more thousand than the file has: the small write changes a payment the file leaves alone.
  paymentTransactions: importRows + 1_000,
  banks: 1,
};
const kinds = (process.env.BENCH_IMPORT_DATABASES ?? 'postgres,pglite').split(',');

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** A tenant with the bench company and an access key; answers the key and the file's rows. */
async function seed(database: Database) {
  await database.migrate();
  const { tenantId } = await createTenant(database, {
    name: 'Import Bench Ltd',
    adminEmail: 'import-bench@example.com',
    adminName: 'Bench',
  });
  const started = performance.now();
  await database.withTenant(tenantId, (tx) =>
    generateReceivables(tx, { tenantId, datasetId: 1 }, size, { analyze: true }),
  );
  log(
    `${size.paymentTransactions.toLocaleString('en-GB')} payments made in ${Math.round(performance.now() - started)} ms`,
  );
  const key = generateKey();
  await database.db.insert(accessKeys).values({
    tenantId,
    id: crypto.randomUUID(),
    kind: 'access',
    name: 'import bench',
    prefix: key.prefix,
    hash: key.hash,
    validUntil: new Date(Date.now() + 3_600_000),
  });
  const payments = await database.withTenant(tenantId, async (tx) => {
    const result = (await tx.execute(
      sql`select id::text as id, allocated_status as status from payment_transactions
        where tenant_id = ${tenantId} and dataset_id = 1 order by id`,
    )) as unknown as { rows: { id: string; status: string }[] };
    return result.rows;
  });
  return { key: key.value, payments };
}

async function startServer(
  database: Record<string, string>,
): Promise<{ server: ChildProcess; api: string }> {
  const serverEntry = fileURLToPath(new URL('../apps/api/dist/server.js', import.meta.url));
  if (!existsSync(serverEntry)) throw new Error('Build first: npm run build');
  const port = 3990 + Math.floor(Math.random() * 9);
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const server = spawn(process.execPath, [serverEntry], {
    env: {
      ...inherited,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...database,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on(
      'data',
      (chunk: Buffer) => chunk.toString().includes('Ledgerline is running') && resolve(),
    );
    server.on('exit', (code) => reject(new Error(`the server stopped (${code})`)));
  });
  return { server, api: `http://127.0.0.1:${port}` };
}

async function stopServer(server: ChildProcess) {
  const exited = new Promise((resolve) => server.on('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** CPU seconds (user + system) a process has used, from /proc (Linux): a figure the machine's load does not inflate. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // the process has ended
  }
}

/** The PostgreSQL backends serving a database, for their CPU seconds (the server runs here). */
async function backendsOf(url: string | null): Promise<number[]> {
  if (!url) return [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  await client.end();
  return rows.map((row) => row.pid);
}

interface Latencies {
  samples: number[];
  errors: number;
}

/** Calls `probe` one after another, 50 ms apart, until `done` settles. */
async function sampleWhile(
  done: Promise<unknown>,
  probe: () => Promise<Response>,
): Promise<Latencies> {
  let finished = false;
  void done.finally(() => (finished = true));
  const latencies: Latencies = { samples: [], errors: 0 };
  while (!finished) {
    const started = performance.now();
    const response = await probe();
    await response.arrayBuffer();
    latencies.samples.push(performance.now() - started);
    if (!response.ok) latencies.errors++;
    await sleep(50);
  }
  return latencies;
}

const describe = ({ samples, errors }: Latencies) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
  return `${sorted.length} calls, median ${at(50).toFixed(0)} ms, p95 ${at(95).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms${errors ? `, ${errors} errors` : ''}`;
};

async function measure(
  kind: string,
  server: ChildProcess,
  databaseUrl: string | null,
  api: string,
  key: string,
  payments: { id: string; status: string }[],
) {
  const headers = { authorization: `Bearer ${key}`, 'dataset-id': '1' };
  const inFile = payments.slice(0, importRows);
  const untouched = payments[importRows]!;
  // Every row changes a status, so the statement writes 100,000 rows.
  const csv =
    'PaymentTransactionId,AllocatedStatus\r\n' +
    inFile
      .map(
        (p) => `${p.id},${p.status === 'ManuallyAllocated' ? 'Unallocated' : 'ManuallyAllocated'}`,
      )
      .join('\r\n') +
    '\r\n';
  let flip = false;
  const smallWrite = () => {
    flip = !flip;
    return fetch(`${api}/api/v0/payment-transactions/${untouched.id}/allocated-status`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ status: flip ? 'Error' : 'Unallocated' }),
    });
  };
  const health = () => fetch(`${api}/api/health`);

  // At rest, for comparison.
  const idle = sleep(2_000);
  const [healthIdle, writeIdle] = await Promise.all([
    sampleWhile(idle, health),
    sampleWhile(idle, smallWrite),
  ]);

  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'statuses.csv');
  const backends = await backendsOf(databaseUrl);
  const backendCpu = () => backends.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const [serverCpuBefore, backendCpuBefore, loadBefore] = [
    cpuSeconds(server.pid!),
    backendCpu(),
    loadavg()[0]!,
  ];
  const started = performance.now();
  const importing = fetch(`${api}/api/v0/payment-transactions/allocated-status/import`, {
    method: 'POST',
    headers,
    body: form,
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as { processedCount: number; importedCount: number },
  }));
  const [imported, healthDuring, writeDuring] = await Promise.all([
    importing.then((result) => ({ ...result, ms: performance.now() - started })),
    sampleWhile(importing, health),
    sampleWhile(importing, smallWrite),
  ]);
  const serverCpu = cpuSeconds(server.pid!) - serverCpuBefore;
  console.log(
    `\n${kind}: POST allocated-status/import of ${importRows.toLocaleString('en-GB')} rows → ${imported.status}, ` +
      `${imported.body.processedCount} processed, ${imported.body.importedCount} imported, ${(imported.ms / 1000).toFixed(2)} s ` +
      `(machine load ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores; CPU: API process ${serverCpu.toFixed(1)} s` +
      `${databaseUrl ? `, PostgreSQL backends ${(backendCpu() - backendCpuBefore).toFixed(1)} s` : ', the embedded database included'}; ` +
      'the API process also answered the health and write calls below)',
  );
  console.log(`| ${kind} | at rest | during the import |`);
  console.log('| --- | --- | --- |');
  console.log(`| GET /api/health | ${describe(healthIdle)} | ${describe(healthDuring)} |`);
  console.log(
    `| PATCH one payment's allocated status | ${describe(writeIdle)} | ${describe(writeDuring)} |`,
  );
}

async function benchPostgres() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const target = new URL(serverUrl);
  target.pathname = `/${databaseName}`;
  const database = await openPostgres({ connectionString: target.toString(), poolSize: 4 });
  const { key, payments } = await seed(database);
  await database.raw.query('vacuum analyze payment_transactions');
  await database.close();
  const { server, api } = await startServer({ DATABASE_URL: target.toString() });
  try {
    await measure('PostgreSQL', server, target.toString(), api, key, payments);
  } finally {
    await stopServer(server);
  }
}

async function benchPglite() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-import-bench-'));
  try {
    const database = await openPglite({ dataDir: join(dataDir, 'db') });
    const { key, payments } = await seed(database);
    await database.close();
    const { server, api } = await startServer({ DATA_DIR: dataDir });
    try {
      await measure('PGlite', server, null, api, key, payments);
    } finally {
      await stopServer(server);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (kinds.includes('postgres')) await benchPostgres();
  if (kinds.includes('pglite')) await benchPglite();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
