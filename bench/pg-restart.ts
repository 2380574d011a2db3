// PostgreSQL restart under load: the built server on a database of its own,
// ten clients writing (POST banks) and reading (GET banks) through its HTTP port, and in the middle
// a real `pg_ctlcluster <version> main restart`. Reports the requests, the answers during the
// outage, how long until writes succeed again, whether the server process lived through it, and
// how many acknowledged writes are missing afterwards (must be 0).
//
//   npm run build && npx tsx bench/pg-restart.ts
//   BENCH_DATABASE_URL=postgres://... PG_CLUSTER='15 main' CLIENTS=10 npx tsx bench/pg-restart.ts
//
// It restarts the whole PostgreSQL cluster: other work on that server sees the restart too.
import pg from 'pg';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../apps/api/src/db/client.js';
import { accessKeys, tenants } from '../apps/api/src/db/schema.js';
import { generateKey } from '../apps/api/src/features/access-keys/access-keys.service.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const cluster = (process.env.PG_CLUSTER ?? '15 main').split(' ');
const clients = Number(process.env.CLIENTS ?? 10);
const loadBeforeSeconds = 5;
const loadAfterSeconds = 10;
const databaseName = 'ledgerline_pg_restart';

const log = (message: string) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 23)} ${message}\n`);

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function main() {
  const serverEntry = fileURLToPath(new URL('../apps/api/dist/server.js', import.meta.url));
  if (!existsSync(serverEntry)) throw new Error('Build first: npm run build');
  await admin(async (client) => {
    await client.query(`drop database if exists ${databaseName} with (force)`);
    await client.query(`create database ${databaseName}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;

  const port = 3990 + Math.floor(Math.random() * 9);
  const server = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: url.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_PASSWORD: 'restart-bench-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serverOutput = '';
  let exitCode: number | null | undefined;
  server.stdout!.on('data', (chunk: Buffer) => (serverOutput += chunk));
  server.stderr!.on('data', (chunk: Buffer) => (serverOutput += chunk));
  server.on('exit', (code, signal) => (exitCode = code ?? (signal ? -1 : null)));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (serverOutput.includes('Ledgerline is running')) {
        clearInterval(timer);
        resolve();
      } else if (exitCode !== undefined) {
        clearInterval(timer);
        reject(new Error(`the server stopped (${exitCode}):\n${serverOutput}`));
      }
    }, 100);
  });

  // An access key of the demo tenant the first start created.
  const database = await openPostgres({ connectionString: url.toString(), poolSize: 1 });
  const [tenant] = await database.db.select({ id: tenants.id }).from(tenants).limit(1);
  const key = generateKey();
  await database.db.insert(accessKeys).values({
    tenantId: tenant!.id,
    id: crypto.randomUUID(),
    kind: 'access',
    name: 'restart bench',
    prefix: key.prefix,
    hash: key.hash,
    validUntil: new Date(Date.now() + 3_600_000),
  });
  await database.close();

  const api = `http://127.0.0.1:${port}/api/v0`;
  const headers = {
    authorization: `Bearer ${key.value}`,
    'dataset-id': '1',
    'content-type': 'application/json',
  };
  const started = performance.now();
  const at = () => (performance.now() - started) / 1000;
  const answers: { at: number; kind: 'write' | 'read'; status: number }[] = [];
  const acknowledged: string[] = [];
  let stop = false;

  async function client(n: number) {
    for (let i = 0; !stop; i++) {
      const write = i % 2 === 0;
      let status: number;
      try {
        const response = await fetch(write ? `${api}/banks` : `${api}/banks?itemsPerPage=5`, {
          method: write ? 'POST' : 'GET',
          headers,
          body: write
            ? JSON.stringify({ accountName: `Client ${n} #${i}`, currency: 'GBP' })
            : undefined,
          signal: AbortSignal.timeout(20_000),
        });
        status = response.status;
        const body = (await response.json()) as { id?: string };
        if (write && status === 201) acknowledged.push(body.id!);
      } catch {
        status = 0; // no answer at all: the connection failed or the call timed out
      }
      answers.push({ at: at(), kind: write ? 'write' : 'read', status });
      if (status !== 200 && status !== 201) await new Promise((r) => setTimeout(r, 100));
    }
  }

  log(`load: ${clients} clients on http://127.0.0.1:${port} (PostgreSQL database ${databaseName})`);
  const load = Array.from({ length: clients }, (_, n) => client(n));
  await new Promise((r) => setTimeout(r, loadBeforeSeconds * 1000));
  const restartAt = at();
  log(`pg_ctlcluster ${cluster.join(' ')} restart`);
  // Not execFileSync: the clients run in this process and must keep calling meanwhile.
  await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', ...cluster, 'restart']);
  const restartedAt = at();
  log(`restarted in ${(restartedAt - restartAt).toFixed(2)} s`);
  await new Promise((r) => setTimeout(r, loadAfterSeconds * 1000));
  stop = true;
  await Promise.all(load);
  const health = await fetch(`http://127.0.0.1:${port}/api/health`).then(
    (r) => r.status,
    () => 0,
  );

  const failures = answers.filter((a) => a.status !== 200 && a.status !== 201);
  const lastFailure = failures.reduce((last, a) => Math.max(last, a.at), restartAt);
  const firstWriteAfter = answers
    .filter((a) => a.kind === 'write' && a.status === 201 && a.at > lastFailure)
    .reduce((first, a) => Math.min(first, a.at), Infinity);
  const byStatus: Record<string, number> = {};
  for (const a of failures) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;

  const stored = await admin(async (client) => {
    await client.query(`select 1`);
    const target = new pg.Client({ connectionString: url.toString() });
    await target.connect();
    try {
      return new Set(
        (await target.query<{ id: string }>('select id from banks')).rows.map((r) => r.id),
      );
    } finally {
      await target.end();
    }
  });
  const missing = acknowledged.filter((id) => !stored.has(id)).length;
  const alive = exitCode === undefined;

  const report = {
    clients,
    requests: answers.length,
    writesAcknowledged: acknowledged.length,
    errorsDuringOutage: failures.length,
    errorsByStatus: byStatus,
    restartSeconds: Number((restartedAt - restartAt).toFixed(2)),
    secondsToRecover: Number((firstWriteAfter - restartAt).toFixed(2)),
    serverProcessAlive: alive,
    healthAfter: health,
    acknowledgedWritesMissing: missing,
  };
  console.log(JSON.stringify(report, null, 2));

  if (alive) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  await admin((client) => client.query(`drop database if exists ${databaseName} with (force)`));
  if (!alive || missing > 0 || health !== 200) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
