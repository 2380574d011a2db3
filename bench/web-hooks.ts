// Outgoing web hooks benchmark: events per second from the commit that records them to
// the receiver's 2xx, with 1, 10 and 50 endpoints of one company (embedded delivery).
//
//   npm -w @ledgerline/bench run web-hooks                        # PGlite, in memory
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm -w @ledgerline/bench run web-hooks
//   BENCH_HOOK_EVENTS=1000 BENCH_HOOK_ENDPOINTS=1,10,50 npm -w @ledgerline/bench run web-hooks
//
// The app runs in this process (buildApp) with its pg-boss delivery; one local receiver answers
// 200 on every endpoint's path. Events are committed one transaction each, as fast as the
// database takes them; the clock runs from the first commit to the last delivery's 2xx.
import pg from 'pg';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../apps/api/src/app.js';
import { loadConfig } from '../apps/api/src/config.js';
import { openPglite, openPostgres, type Database } from '../apps/api/src/db/client.js';
import { webHookEndpoints } from '../apps/api/src/db/schema-web-hooks.js';
import { createTenant } from '../apps/api/src/features/tenants/tenants.service.js';
import { recordWebhookEvent } from '../apps/api/src/features/web-hooks/web-hook-events.repository.js';
import { newSigningSecret } from '../apps/api/src/features/web-hooks/web-hooks.service.js';
import { createSecretBox } from '../apps/api/src/platform/secrets.js';

const events = Number(process.env.BENCH_HOOK_EVENTS ?? 200);
const endpointCounts = (process.env.BENCH_HOOK_ENDPOINTS ?? '1,10,50').split(',').map(Number);
const serverUrl = process.env.BENCH_DATABASE_URL;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function openDatabase(): Promise<{ database: Database; dispose(): Promise<void> }> {
  if (!serverUrl) {
    const database = await openPglite();
    await database.migrate();
    return { database, dispose: () => database.close() };
  }
  const name = `ledgerline_bench_hooks_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres({ connectionString: url.toString(), poolSize: 10 });
  await database.migrate();
  return {
    database,
    async dispose() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function run(endpointCount: number) {
  const arrived = new Map<string, number>();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const key = `${request.headers['webhook-id']} ${request.url}`;
      if (!arrived.has(key)) arrived.set(key, performance.now());
      response.writeHead(200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;

  const { database, dispose } = await openDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-hooks-'));
  const key = randomBytes(32);
  const secrets = createSecretBox(key);
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://localhost:3000',
    OIDC_ISSUER: 'http://127.0.0.1:9/',
    DATA_DIR: dataDir,
    SECRETS_KEY: key.toString('base64'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const app = await buildApp({ config, database, webRoot: null, secrets });
  await app.ready();
  try {
    const { tenantId } = await createTenant(database, {
      name: 'Hooks Bench Ltd',
      adminEmail: 'hooks-bench@example.com',
      adminName: 'Bench',
    });
    const scope = { tenantId, datasetId: 1 };
    // http:// to this computer: inserted as stored rows (the API takes https outside development).
    await database.withTenant(tenantId, (tx) =>
      tx.insert(webHookEndpoints).values(
        Array.from({ length: endpointCount }, (_, i) => ({
          ...scope,
          id: randomUUID(),
          url: `http://127.0.0.1:${port}/endpoint-${i}`,
          secret: secrets.seal(newSigningSecret()),
        })),
      ),
    );
    const committed = new Map<string, number>();
    const started = performance.now();
    for (let i = 0; i < events; i++) {
      const paymentId = randomUUID();
      const id = await database.withTenant(tenantId, (tx) =>
        recordWebhookEvent(tx, scope, {
          type: 'payment.allocated-status-changed',
          recordType: 'PaymentTransaction',
          recordId: paymentId,
          payload: {
            id: paymentId,
            allocatedStatus: 'ManuallyAllocated',
            previousAllocatedStatus: 'WaitingToBeAllocated',
          },
        }),
      );
      committed.set(id, performance.now());
    }
    const commitsDone = performance.now();
    const expected = events * endpointCount;
    const deadline = Date.now() + 10 * 60_000;
    while (arrived.size < expected && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const finished = Math.max(...arrived.values());
    const seconds = (finished - started) / 1000;
    const latencies = [...arrived.entries()].map(
      ([k, at]) => at - committed.get(k.split(' ')[0]!)!,
    );
    console.log(
      `| ${database.kind} | ${endpointCount} | ${events} | ${arrived.size}/${expected} | ${((commitsDone - started) / 1000).toFixed(2)} s | ${seconds.toFixed(2)} s | ${(events / seconds).toFixed(1)} | ${(arrived.size / seconds).toFixed(1)} | ${Math.round(percentile(latencies, 50))} ms | ${Math.round(percentile(latencies, 95))} ms | ${loadavg()[0]!.toFixed(1)} |`,
    );
  } finally {
    await app.close();
    await dispose();
    rmSync(dataDir, { recursive: true, force: true });
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

console.log(
  '| database | endpoints | events | deliveries 2xx | commits took | commit → last 2xx | events/s | deliveries/s | latency p50 | latency p95 | load (1 min) |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const count of endpointCounts) await run(count);
