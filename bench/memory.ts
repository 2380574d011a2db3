// The embedded server's memory: the built server (npm run build) on PGlite, on a fresh
// DATA_DIR, as `npm start` runs it. Three figures, each the resident memory (VmRSS) and the most
// held so far (VmHWM) of the server process:
//   1. at start: the first start (it makes the database) and a later start on the same folder;
//   2. after a series of work through HTTP such as the journeys do: several demo companies made and
//      their lists read, then a large export and a large import in one company;
//   3. after that settles (BENCH_SETTLE_SECONDS of nothing).
// Between the first and the later start the bench (the server stopped) adds an access key and a
// company of BENCH_PAYMENTS payments to the demo tenant, for the export and the import.
//
//   npm run build && npx tsx bench/memory.ts
//   BENCH_PAYMENTS=20000 BENCH_COMPANIES=2 npx tsx bench/memory.ts
//   BENCH_SERVER=/elsewhere/apps/api/dist/server.js npx tsx bench/memory.ts   # another build
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { openPglite } from '../apps/api/src/db/client.js';
import { tenants, users } from '../apps/api/src/db/schema.js';
import { createSessionStore } from '../apps/api/src/platform/sessions.js';
import { generateReceivables } from '../apps/api/src/features/datasets/demo-data.js';

const payments = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const companies = Number(process.env.BENCH_COMPANIES ?? 3);
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 20);

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { resident: number; most: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Math.round(Number(/\d+/.exec(status.split(`${name}:`)[1]!)![0]) / 1024);
  return { resident: field('VmRSS'), most: field('VmHWM') };
}

const figures: [string, { resident: number; most: number }, number][] = [];
function record(what: string, server: ChildProcess) {
  const memory = memoryOf(server.pid!);
  figures.push([what, memory, loadavg()[0]!]);
  log(`${what}: ${memory.resident} MB resident, ${memory.most} MB most held`);
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  // BENCH_SERVER: another build's server.js, for a before/after in one sitting.
  const entry =
    process.env.BENCH_SERVER ??
    fileURLToPath(new URL('../apps/api/dist/server.js', import.meta.url));
  if (!existsSync(entry)) throw new Error('Build first: npm run build');
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const server = spawn(process.execPath, [entry], {
    env: {
      ...inherited,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_PASSWORD: 'memory-bench-password',
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
  // What a start leaves once its last promise settled, not the moment it printed its address.
  await sleep(3_000);
  return server;
}

async function stopServer(server: ChildProcess) {
  const exited = new Promise((resolve) => server.on('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** With the server stopped: an access key and a large company in the demo tenant. */
async function seed(
  dataDir: string,
): Promise<{ key: Key; datasetId: number; made: { id: string; status: string }[] }> {
  const database = await openPglite({ dataDir: join(dataDir, 'db') });
  try {
    const [tenant] = await database.db.select({ id: tenants.id }).from(tenants);
    if (!tenant) throw new Error('The first start made no tenant.');
    const tenantId = tenant.id;
    const datasetId = 1;
    await database.withTenant(tenantId, async (tx) => {
      const { rows } = (await tx.execute(
        sql`select count(*)::int as n from payment_transactions where dataset_id = ${datasetId}`,
      )) as unknown as { rows: { n: number }[] };
      if ((rows[0]?.n ?? 0) > 0) throw new Error('Company 1 is not empty.');
      await generateReceivables(
        tx,
        { tenantId, datasetId },
        {
          accounts: 100,
          transactions: 100,
          paymentRequests: 100,
          paymentTransactions: 500,
          banks: 1,
        },
        { analyze: false },
      );
    });
    // Generating payments one by one is slow on PGlite: the 500 are copied (new ids) until there
    // are enough, which is what an export and an import of them need.
    const { rows: columns } = (await database.db.execute(
      sql`select column_name as name from information_schema.columns
        where table_name = 'payment_transactions' and is_generated = 'NEVER' and column_name <> 'id'
        order by ordinal_position`,
    )) as unknown as { rows: { name: string }[] };
    const list = sql.raw(columns.map((column) => `"${column.name}"`).join(', '));
    for (let count = 500; count < payments; count *= 2)
      await database.db.execute(
        sql`insert into payment_transactions (id, ${list}) select gen_random_uuid(), ${list}
          from payment_transactions where tenant_id = ${tenantId} and dataset_id = ${datasetId}
          limit ${payments - count}`,
      );
    await database.db.execute(sql`analyze payment_transactions`);
    // The administrator's session, as the journeys sign in (a Standard access key may not make
    // companies); its id is the session cookie.
    const [admin] = await database.db.select({ id: users.id }).from(users);
    if (!admin) throw new Error('The first start made no administrator.');
    const session = await createSessionStore(database, {
      idleMinutes: 600,
      absoluteHours: 10,
    }).create({ tenantId, userId: admin.id, ip: '127.0.0.1' });
    const key = { value: `ledgerline_session=${session.id}`, xsrf: session.xsrfToken };
    const made = await database.withTenant(tenantId, async (tx) => {
      const result = (await tx.execute(
        sql`select id::text as id, allocated_status as status from payment_transactions
          where dataset_id = ${datasetId} order by id`,
      )) as unknown as { rows: { id: string; status: string }[] };
      return result.rows;
    });
    return { key, datasetId, made };
  } finally {
    await database.close();
  }
}

interface Key {
  value: string;
  xsrf: string;
}

async function call(api: string, key: Key, path: string, init: RequestInit = {}, dataset = 1) {
  const response = await fetch(`${api}${path}`, {
    ...init,
    headers: {
      cookie: key.value,
      'x-xsrf-token': key.xsrf,
      'dataset-id': String(dataset),
      ...init.headers,
    },
  });
  const body = await response.arrayBuffer();
  if (!response.ok)
    throw new Error(`${path}: ${response.status} ${Buffer.from(body).toString().slice(0, 300)}`);
  return Buffer.from(body);
}

/** A demo company made through the API as the journeys make it, Active, its lists read. */
async function demoCompany(api: string, key: Key, index: number): Promise<void> {
  const hostId = `MEM${index}${Date.now() % 100_000}`;
  const created = await call(api, key, '/api/v0/data-sets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Memory Demo ${index}`,
      hostSystemName: 'Sage200Pro',
      hostId,
      customHostId: hostId,
      hostDemoSystem: true,
    }),
  });
  const { id } = JSON.parse(created.toString()) as { id: number };
  for (let waited = 0; ; waited += 250) {
    const all = JSON.parse((await call(api, key, '/api/v0/data-sets/all')).toString()) as {
      items: { id: number; status: string }[];
    };
    if (all.items.find((dataset) => dataset.id === id)?.status === 'Active') break;
    if (waited > 120_000) throw new Error(`company ${id} did not become Active`);
    await sleep(250);
  }
  for (const path of [
    '/api/v0/payment-transactions?itemsPerPage=100',
    '/api/v0/payment-requests?itemsPerPage=100',
    '/api/v0/accounts?itemsPerPage=100',
    '/api/v0/transactions?itemsPerPage=100',
  ])
    await call(api, key, path, {}, id);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-memory-'));
  const port = Number(process.env.BENCH_PORT ?? 3980 + Math.floor(Math.random() * 9));
  const api = `http://127.0.0.1:${port}`;
  log(`data folder ${dataDir}, load ${loadavg()[0]!.toFixed(1)}`);
  try {
    let server = await startServer(dataDir, port);
    record('first start (makes the database)', server);
    await stopServer(server);
    log(`adding ${payments.toLocaleString('en-GB')} payments to company 1 (server stopped)`);
    const { key, datasetId, made } = await seed(dataDir);
    log(`company ${datasetId}: ${payments.toLocaleString('en-GB')} payments`);
    server = await startServer(dataDir, port);
    record('later start', server);

    for (let index = 1; index <= companies; index++) await demoCompany(api, key, index);
    record(`${companies} demo companies made, their lists read`, server);

    const exported = await call(api, key, '/api/v0/payment-transactions/export', {}, datasetId);
    record(
      `export of ${made.length.toLocaleString('en-GB')} payments (${Math.round(exported.length / 1_048_576)} MB)`,
      server,
    );

    // Every row changes a status, so the import writes every payment.
    const rows = made.map(
      (payment) =>
        `${payment.id},${payment.status === 'ManuallyAllocated' ? 'Unallocated' : 'ManuallyAllocated'}`,
    );
    const form = new FormData();
    form.append(
      'file',
      new Blob([`PaymentTransactionId,AllocatedStatus\r\n${rows.join('\r\n')}\r\n`], {
        type: 'text/csv',
      }),
      'statuses.csv',
    );
    await call(
      api,
      key,
      '/api/v0/payment-transactions/allocated-status/import',
      { method: 'POST', body: form },
      datasetId,
    );
    record(`import of ${rows.length.toLocaleString('en-GB')} statuses`, server);

    await sleep(settleSeconds * 1_000);
    record(`${settleSeconds} s later`, server);
    await stopServer(server);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\n| moment | resident | most held | load |\n| --- | --- | --- | --- |');
  for (const [what, memory, load] of figures)
    console.log(`| ${what} | ${memory.resident} MB | ${memory.most} MB | ${load.toFixed(1)} |`);
}

await main();
