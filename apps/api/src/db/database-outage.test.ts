import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { banks } from './schema-receivables.js';
import { isDatabaseUnavailable } from './unavailable.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';

/**
 * The database going away — a network drop, a refused connection, an
 * administrator's pg_terminate_backend — answers the calls it meets with a retryable 503, never
 * ends the process, and the next calls succeed once the database is back. PostgreSQL only (PGlite
 * lives in the process); the app reaches PostgreSQL through a TCP proxy the test controls, so the
 * shared server is never restarted.
 */
const url = process.env.TEST_DATABASE_URL;

let ctx: TestContext;
let proxy: TcpProxy;
let merchant: SignedIn;
let databaseName: string;
const acknowledged: string[] = [];

const company = { 'dataset-id': '1' };

function listBanks() {
  return ctx.app.inject({
    method: 'GET',
    url: '/api/v0/banks?itemsPerPage=1000',
    headers: merchant.headers(company),
  });
}

async function createBank(name: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/banks',
    headers: merchant.headers(company),
    payload: { accountName: name, currency: 'GBP' },
  });
  if (response.statusCode === 201) acknowledged.push(response.json().id as string);
  return response;
}

const exportPayments = () =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/v0/payment-transactions/export',
    headers: merchant.headers(company),
  });

const health = () => ctx.app.inject({ method: 'GET', url: '/api/health' });

function expectUnavailable(response: Awaited<ReturnType<typeof health>>, label: string) {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(503);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers['retry-after']).toBe('5');
}

/** Every backend of the app's database, ended as an administrator would. */
async function terminateBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = $1 and pid <> pg_backend_pid()`,
      [databaseName],
    );
    return rows.filter((r) => r.ended).length;
  } finally {
    await admin.end();
  }
}

async function eventually(check: () => Promise<boolean>, seconds = 15): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Not recovered within ${seconds} s.`);
}

describe.skipIf(!url)('the database going away (PostgreSQL)', () => {
  beforeAll(async () => {
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    ctx = await buildTestApp(
      {},
      {
        route: (database) => {
          databaseName = database.pathname.slice(1);
          const routed = new URL(database);
          routed.hostname = '127.0.0.1';
          routed.port = String(proxy.port);
          return routed;
        },
      },
    );
    merchant = await signIn(ctx, { tenantName: 'Outage Ltd' });
    for (let i = 0; i < 5; i++) expect((await createBank(`Before ${i}`)).statusCode).toBe(201);
  });

  afterAll(async () => {
    proxy.restore();
    await ctx?.close();
    await proxy?.close();
  });

  it('answers 503 with Retry-After while no connection can be made, and 200 once it can', async () => {
    proxy.refuse();
    proxy.cut();
    expectUnavailable(await health(), 'health');
    expectUnavailable(await listBanks(), 'GET banks');
    expectUnavailable(await createBank('During the outage'), 'POST banks');
    expect((await createBank('During the outage')).json()).toMatchObject({
      status: 503,
      detail: 'The database is not reachable at the moment. Please try again shortly.',
    });

    proxy.restore();
    await eventually(async () => (await health()).statusCode === 200);
    expect((await listBanks()).statusCode).toBe(200);
    expect((await createBank('After the outage')).statusCode).toBe(201);
  });

  it('answers 503 to the calls in flight when the network drops under them', async () => {
    proxy.stall();
    const inFlight = [listBanks(), createBank('In flight'), health(), listBanks()];
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.refuse();
    proxy.cut();
    const answers = await Promise.all(inFlight);
    for (const answer of answers) expectUnavailable(answer, answer.body);

    proxy.restore();
    await eventually(async () => (await listBanks()).statusCode === 200);
    expect((await createBank('After the drop')).statusCode).toBe(201);
  });

  it('opens new connections when an administrator ends every backend', async () => {
    expect((await listBanks()).statusCode).toBe(200);
    // The export's COPY connections too: one is open and idle after this.
    expect((await exportPayments()).statusCode).toBe(200);
    expect(await terminateBackends()).toBeGreaterThan(0);
    // The pool and the read connections hear of it as their backends go; no call is refused
    // for long, and none with anything but a 503.
    await eventually(async () => {
      const [read, write] = await Promise.all([listBanks(), createBank('After terminate')]);
      for (const answer of [read, write]) expect([200, 201, 503]).toContain(answer.statusCode);
      return read.statusCode === 200 && write.statusCode === 201;
    });
    expect((await health()).statusCode).toBe(200);
    await eventually(async () => (await exportPayments()).statusCode === 200);
  });

  it('survives a transaction whose backend is ended while it holds the connection', async () => {
    // A client lent out for a transaction had no 'error' listener: 57P01 ended the process.
    const attempt = ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.execute(sql`select 1`);
      await terminateBackends();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.execute(sql`select 1`);
    });
    const failure = await attempt.then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    await eventually(
      async () => (await createBank('After the lent connection')).statusCode === 201,
    );
  });

  it('keeps answering under load while connections are cut, and loses no acknowledged write', async () => {
    const statuses = new Map<number, number>();
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const answer = i % 2 === 0 ? await createBank(`Load ${n}-${i}`) : await listBanks();
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      }
    };
    const clients = Array.from({ length: 10 }, (_, n) => client(n));
    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.refuse();
    proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.restore();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await terminateBackends();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stop = true;
    await Promise.all(clients);

    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 201]));
    for (const status of statuses.keys()) expect([200, 201, 503]).toContain(status);
    const stored = await ctx.database.db
      .select({ id: banks.id })
      .from(banks)
      .where(eq(banks.tenantId, merchant.tenantId));
    const listed = new Set(stored.map((bank) => bank.id));
    const missing = acknowledged.filter((id) => !listed.has(id));
    expect(missing).toEqual([]);
  });
});
