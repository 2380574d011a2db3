// Ledgerline's list benchmark: one company with a million payment transactions,
// a million accounting transactions and 100,000 accounts on PostgreSQL, beside other tenants so the
// isolation costs are real; then p50/p95 and throughput at 20 concurrent clients for the list calls
// and, in the same run, for a bare Fastify route that answers a constant (the baseline).
//
//   npm run bench                       # builds the data once (reused while the schema is the same)
//   npm run bench -- --rebuild          # drops and rebuilds the bench database
//   BENCH_DATABASE_URL=postgres://... npm run bench
//   BENCH_SECONDS=10 BENCH_CLIENTS=20 BENCH_WARMUP_SECONDS=2 npm run bench
//   BENCH_ONLY='default sort' BENCH_NO_FILES=1 npm run bench    # some calls only, no export/import
//   BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench   # profile the server
//   BENCH_POOL_SIZE=10 DATABASE_READ_CONNECTIONS=4 npm run bench    # the server's connections
import Fastify from 'fastify';
import pg from 'pg';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../apps/api/src/db/client.js';
import { accessKeys } from '../apps/api/src/db/schema.js';
import { generateKey } from '../apps/api/src/features/access-keys/access-keys.service.js';
import { generateReceivables } from '../apps/api/src/features/datasets/demo-data.js';
import { createTenant } from '../apps/api/src/features/tenants/tenants.service.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = process.env.BENCH_DATABASE ?? 'ledgerline_bench';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const clients = Number(process.env.BENCH_CLIENTS ?? 20);
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const rebuild = process.argv.includes('--rebuild');
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const withFiles = !process.env.BENCH_NO_FILES;
const serverFlags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);

const mainSize = {
  accounts: 100_000,
  transactions: 1_000_000,
  paymentRequests: 100_000,
  paymentTransactions: 1_000_000,
  banks: 20,
};
const neighbourSize = {
  accounts: 10_000,
  transactions: 100_000,
  paymentRequests: 10_000,
  paymentTransactions: 100_000,
  banks: 5,
};
const neighbours = 3;

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

async function prepareDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists =
    (await admin.query('select 1 from pg_database where datname = $1', [databaseName])).rowCount ===
    1;
  if (exists && rebuild) await admin.query(`drop database ${databaseName} with (force)`);
  if (!exists || rebuild) await admin.query(`create database ${databaseName}`);
  await admin.end();
  const target = new URL(serverUrl);
  target.pathname = `/${databaseName}`;
  return target.toString();
}

async function seed(url: string) {
  const database = await openPostgres({
    connectionString: url,
    poolSize: 24,
    statementTimeoutMs: 0,
  });
  await database.migrate();
  const marker = await database.raw.query(
    `select id::text as id from tenants where name = 'Bench Ltd'`,
  );
  let tenantId = marker.rows[0]?.id as string | undefined;
  if (!tenantId) {
    for (let n = 1; n <= neighbours; n++) {
      const neighbour = await createTenant(database, {
        name: `Neighbour ${n} Ltd`,
        adminEmail: `bench-neighbour-${n}@example.com`,
        adminName: 'Neighbour',
      });
      const started = performance.now();
      await database.db.transaction((tx) =>
        generateReceivables(tx, { tenantId: neighbour.tenantId, datasetId: 1 }, neighbourSize, {
          analyze: true,
        }),
      );
      log(`neighbour ${n}: ${Math.round(performance.now() - started)} ms`);
    }
    const bench = await createTenant(database, {
      name: 'Bench Ltd',
      adminEmail: 'bench@example.com',
      adminName: 'Bench',
    });
    const started = performance.now();
    await database.db.transaction((tx) =>
      generateReceivables(tx, { tenantId: bench.tenantId, datasetId: 1 }, mainSize, {
        analyze: true,
      }),
    );
    log(
      `Bench Ltd (1,000,000 payments, 1,000,000 transactions, 100,000 accounts): ${Math.round(performance.now() - started)} ms`,
    );
    // What autovacuum does to a table at rest: statistics and the visibility map (index-only scans).
    await database.raw.query('vacuum analyze');
    tenantId = bench.tenantId;
  } else {
    log('reusing the bench data (npm run bench -- --rebuild to make it again)');
    // Each run's import leaves 100,000 dead row versions, and the trigram index's pending list
    // full; this server runs without autovacuum, so do what it would have done between runs.
    const started = performance.now();
    await database.raw.query('vacuum analyze payment_transactions');
    log(
      `vacuumed the payments the last run imported into: ${Math.round(performance.now() - started)} ms`,
    );
  }
  const key = generateKey();
  await database.db.insert(accessKeys).values({
    tenantId,
    id: crypto.randomUUID(),
    kind: 'access',
    name: `bench ${new Date().toISOString()}`,
    prefix: key.prefix,
    hash: key.hash,
    validUntil: new Date(Date.now() + 3_600_000),
  });
  return { database, tenantId, key: key.value };
}

/** A process's resident memory (VmRSS) and its peak (VmHWM) in MB, read from /proc (Linux). */
function serverMemory(pid: number) {
  const read = (field: string) =>
    Math.round(
      Number(
        new RegExp(`${field}:\\s+(\\d+) kB`).exec(
          readFileSync(`/proc/${pid}/status`, 'utf8'),
        )?.[1] ?? 0,
      ) / 1024,
    );
  return {
    residentMb: () => read('VmRSS'),
    peakMb: () => read('VmHWM'),
    /** Starts the peak again from the present resident size (clear_refs 5). */
    resetPeak: () => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
  };
}

interface Result {
  name: string;
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  perSecond: number;
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** `clients` loops that each send the next request as soon as the last answered, until `deadline`. */
async function run(
  url: string,
  headers: Record<string, string>,
  deadline: number,
  latencies: number[],
) {
  let errors = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (response.status !== 200) errors++;
      }
    }),
  );
  return errors;
}

/** The call at `clients` concurrent clients for `seconds`, after a warm-up that is not measured. */
async function load(name: string, url: string, headers: Record<string, string>): Promise<Result> {
  // Warm up: plans cached, every pooled connection open, the server's code optimised by V8 (a
  // freshly started process is several times slower for its first thousand calls).
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer();
  await run(url, headers, performance.now() + warmUpSeconds * 1000, []);
  const latencies: number[] = [];
  const started = performance.now();
  const errors = await run(url, headers, started + seconds * 1000, latencies);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    perSecond: latencies.length / elapsed,
  };
}

async function main() {
  const url = await prepareDatabase();
  const { database, key } = await seed(url);

  const baseline = Fastify({ logger: false });
  baseline.get('/constant', async () => ({ items: [], totalItems: 0 }));
  await baseline.listen({ port: 0, host: '127.0.0.1' });
  const baselineAddress = baseline.server.address() as { port: number };

  // The built server in its own process, as `npm start` runs it, so its memory is its own.
  const serverEntry = fileURLToPath(new URL('../apps/api/dist/server.js', import.meta.url));
  if (!existsSync(serverEntry)) throw new Error('Build first: npm run build');
  const port = 3900 + Math.floor(Math.random() * 90);
  const server = spawn(process.execPath, [...serverFlags, serverEntry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '24',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
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
  const memory = serverMemory(server.pid!);
  const api = `http://127.0.0.1:${port}/api/v0`;
  const headers = { authorization: `Bearer ${key}`, 'dataset-id': '1' };

  const firstPage = (await (
    await fetch(`${api}/payment-transactions?itemsPerPage=1`, { headers })
  ).json()) as { items: { customerName: string }[] };
  const namePart = firstPage.items[0]!.customerName.split(' ')[0]!.slice(0, 4);
  const filter = encodeURIComponent(`status eq Paid,customerName ct ${namePart}`);
  // An account in the middle of the list, with its share of the million payments.
  const accounts = (await (
    await fetch(`${api}/accounts?page=500&itemsPerPage=1`, { headers })
  ).json()) as { items: { id: string }[] };
  const account = accounts.items[0]!;

  const scenarios: [string, string, Record<string, string>][] = [
    ['baseline: bare Fastify constant', `http://127.0.0.1:${baselineAddress.port}/constant`, {}],
    ['payment-transactions, default sort', `${api}/payment-transactions`, headers],
    [
      `payment-transactions, status eq Paid + customerName ct ${namePart}`,
      `${api}/payment-transactions?filter=${filter}`,
      headers,
    ],
    [
      'payment-transactions, customerName ct a name nobody has',
      `${api}/payment-transactions?filter=${encodeURIComponent('customerName ct Zqxjv')}`,
      headers,
    ],
    ['payment-transactions/count', `${api}/payment-transactions/count`, headers],
    [
      'payment-transactions/status/all-failures',
      `${api}/payment-transactions/status/all-failures`,
      headers,
    ],
    [
      'transactions (accounting), default sort by date',
      `${api}/transactions?expand=account`,
      headers,
    ],
    ['accounts, default sort by reference', `${api}/accounts`, headers],
    ['accounts/{id} with expand=counts', `${api}/accounts/${account.id}?expand=counts`, headers],
  ];
  log(`${clients} clients, ${seconds} s a scenario`);
  const results: Result[] = [];
  for (const [name, target, scenarioHeaders] of scenarios) {
    if (only && !only.test(name) && !name.startsWith('baseline')) continue;
    const result = await load(name, target, scenarioHeaders);
    results.push(result);
    log(`${name}: done`);
  }
  const base = results[0]!.perSecond;
  console.log('\n| call | requests | errors | p50 ms | p95 ms | req/s | of baseline |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.requests} | ${r.errors} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${Math.round(r.perSecond)} | ${((r.perSecond / base) * 100).toFixed(0)} % |`,
    );
  }

  console.log(
    `\nServer memory after the calls: ${memory.residentMb()} MB resident, peak since start ${memory.peakMb()} MB.`,
  );
  if (withFiles) await measureFiles(database, url, api, headers, memory);
  const exited = new Promise((resolve) => server.on('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  await baseline.close();
  await database.close();
}

/** The export of every payment and the import of a 100,000-row file, with the server's peak memory. */
async function measureFiles(
  database: Awaited<ReturnType<typeof seed>>['database'],
  url: string,
  api: string,
  headers: Record<string, string>,
  memory: ReturnType<typeof serverMemory>,
) {
  // Export of every payment, against psql's \copy of the same rows as CSV (at most 2x).
  const tenant = (
    await database.raw.query(`select id::text as id from tenants where name = 'Bench Ltd'`)
  ).rows[0]!.id as string;
  const copyStarted = performance.now();
  execFileSync('psql', [
    url,
    '-qc',
    `\\copy (select * from payment_transactions where tenant_id = '${tenant}' and dataset_id = 1 order by status_date_time, id) to '/dev/null' with csv header`,
  ]);
  const copyMs = performance.now() - copyStarted;
  const residentBefore = memory.residentMb();
  memory.resetPeak();
  const exportStarted = performance.now();
  const exported = await fetch(`${api}/payment-transactions/export`, { headers });
  let bytes = 0;
  const lines: string[] = [];
  let rest = '';
  for await (const chunk of exported.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (lines.length > 100_001) continue;
    const parts = (rest + Buffer.from(chunk).toString('utf8')).split('\r\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  }
  const exportMs = performance.now() - exportStarted;
  console.log(`\n| export | ms | MB | server peak RSS MB during it |`);
  console.log('| --- | ---: | ---: | ---: |');
  console.log(`| psql \\copy of the same payments | ${Math.round(copyMs)} | | |`);
  console.log(
    `| GET payment-transactions/export | ${Math.round(exportMs)} (${(exportMs / copyMs).toFixed(2)}x) | ${(bytes / 1e6).toFixed(0)} | ${memory.peakMb()} (resident before it: ${residentBefore}) |`,
  );

  // Import of a 100,000-row file (under 15 s), made from the export's first lines.
  const rows = lines
    .slice(1)
    .filter((line) => /^[0-9a-f-]{36},/.test(line))
    .slice(0, 100_000)
    // Each payment to the allocated status it does not have, so every run changes every row.
    .map(
      (line) =>
        `${line.slice(0, 36)},${line.split(',')[3] === 'ManuallyAllocated' ? 'Unallocated' : 'ManuallyAllocated'}`,
    );
  const form = new FormData();
  form.append(
    'file',
    new Blob([`PaymentTransactionId,AllocatedStatus\r\n${rows.join('\r\n')}\r\n`], {
      type: 'text/csv',
    }),
    'statuses.csv',
  );
  const importStarted = performance.now();
  const imported = await fetch(`${api}/payment-transactions/allocated-status/import`, {
    method: 'POST',
    headers,
    body: form,
  });
  const result = (await imported.json()) as { processedCount: number; importedCount: number };
  const importMs = performance.now() - importStarted;
  console.log(`\n| import | rows | imported | ms |`);
  console.log('| --- | ---: | ---: | ---: |');
  console.log(
    `| POST payment-transactions/allocated-status/import (${imported.status}) | ${result.processedCount} | ${result.importedCount} | ${Math.round(importMs)} |`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
