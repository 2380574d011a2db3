import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

/**
 * A client that does not read its export holds nothing but its own socket. The
 * export is made at the database's pace into a spool and sent from there, so no transaction (on
 * PGlite the only connection) waits on the client; a download slower than the configured
 * throughput is ended; a tenant runs a bounded number of exports at once.
 */
let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let port: number;
const sockets: Socket[] = [];
/** Payments of the merchant, each line with a long company name: three batches, ~9 MB. */
const payments = 15000;
const companyName = 'Slow Reader Holdings '.repeat(15);

beforeAll(async () => {
  ctx = await buildTestApp({
    // Short, so the test sees a stalled download ended; the defaults are minutes.
    EXPORT_THROUGHPUT_WINDOW_SECONDS: '4',
    EXPORT_MIN_BYTES_PER_SECOND: '1024',
    EXPORTS_PER_TENANT: '2',
  });
  merchant = await signIn(ctx, { tenantName: 'Slow Export Ltd' });
  rival = await signIn(ctx, { tenantName: 'Busy Neighbour Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(
        tx,
        { tenantId: who.tenantId, datasetId: 1 },
        { accounts: 5, transactions: 10, paymentRequests: 4, paymentTransactions: 20, banks: 1 },
      ),
    );
  }
  // Many more payments for the merchant, copied from its own (owner connection, no RLS).
  const { rows } = await ctx.database.raw.query(
    `select column_name from information_schema.columns
      where table_name = 'payment_transactions' and table_schema = current_schema() and column_name not in ('id', 'company_name')
      order by ordinal_position`,
  );
  const columns = rows.map((row) => `"${String(row.column_name)}"`).join(', ');
  await ctx.database.raw.query(
    `insert into payment_transactions (id, company_name, ${columns})
       select gen_random_uuid(), $2, ${columns.replace(/"status_date_time"/, `"status_date_time" + n * interval '1 second'`)}
         from (select * from payment_transactions where tenant_id = $1 limit 1) p, generate_series(1, $3::int) n`,
    [merchant.tenantId, companyName, payments],
  );
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await ctx.close();
});

interface SlowDownload {
  /** The status line and headers, once they came. */
  head: Promise<string>;
  /**
   * Reads at full speed whatever the connection still gives until it ends: the body's bytes
   * (fewer than Content-Length when the server ended the download).
   */
  drain(): Promise<{ body: number; length: number }>;
  received(): number;
}

/**
 * An export over a real socket by a client that takes one byte a second: the kernel's buffers
 * fill, and then the server can send no faster than that.
 */
function slowDownload(who: SignedIn): SlowDownload {
  const socket = connect({ port, host: '127.0.0.1' });
  sockets.push(socket);
  socket.pause();
  socket.write(
    `GET /api/v0/payment-transactions/export HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${who.cookie}\r\nDataset-Id: 1\r\n\r\n`,
  );
  let taken = Buffer.alloc(0);
  let resolveHead: (head: string) => void;
  const head = new Promise<string>((resolve) => (resolveHead = resolve));
  const tick = setInterval(() => {
    const bytes = socket.read(taken.includes('\r\n\r\n') ? 1 : 16384) as Buffer | null;
    if (bytes) taken = Buffer.concat([taken, bytes]);
    const end = taken.indexOf('\r\n\r\n');
    if (end >= 0) resolveHead(taken.subarray(0, end).toString());
  }, 1000);
  const ended = new Promise<void>((resolve) => {
    socket.on('end', resolve);
    socket.on('close', resolve);
    socket.on('error', resolve);
  });
  const drain = async () => {
    clearInterval(tick);
    socket.on('data', (bytes: Buffer) => (taken = Buffer.concat([taken, bytes])));
    socket.resume();
    await ended;
    const end = taken.indexOf('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(taken.subarray(0, end).toString())?.[1]);
    return { body: taken.length - end - 4, length };
  };
  return { head, drain, received: () => taken.length };
}

/** A call's status and time, or status 0 when it has not answered within five seconds. */
async function timed(call: () => Promise<{ statusCode: number }>) {
  const started = performance.now();
  const gaveUp = new Promise<{ statusCode: number }>((resolve) =>
    setTimeout(() => resolve({ statusCode: 0 }), 5000).unref(),
  );
  const response = await Promise.race([call(), gaveUp]);
  return { status: response.statusCode, ms: performance.now() - started };
}

/** What the database is doing for the export, when it is PostgreSQL: its busy backends. */
async function exportBackends(): Promise<number> {
  if (ctx.database.kind !== 'postgres') return 0;
  const { rows } = await ctx.database.raw.query(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and (query ilike '%copy (%' or state like 'idle in transaction%') and state <> 'idle'`,
  );
  return Number(rows[0]!.n);
}

describe('a client that reads its export one byte a second', () => {
  it('keeps /api/health and another tenant’s list answering within a second, and holds no transaction', async () => {
    const download = slowDownload(merchant);
    const head = await download.head;
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const health = await timed(() => ctx.app.inject({ method: 'GET', url: '/api/health' }));
      const list = await timed(() =>
        ctx.app.inject({
          method: 'GET',
          url: '/api/v0/payment-transactions?itemsPerPage=50',
          headers: rival.headers({ 'dataset-id': '1' }),
        }),
      );
      expect(health.status).toBe(200);
      expect(list.status).toBe(200);
      expect(health.ms).toBeLessThan(1000);
      expect(list.ms).toBeLessThan(1000);
      expect(await exportBackends()).toBe(0);
    }
    // The download is still going, at the client's pace.
    expect(download.received()).toBeLessThan(payments * companyName.length);
  }, 60_000);

  it('is ended once it falls below the minimum throughput, before the whole file is sent', async () => {
    const download = slowDownload(merchant);
    await download.head;
    // The first window goes by while the kernel's buffers fill; the next one ends it.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const { body, length } = await download.drain();
    expect(length).toBeGreaterThan(payments * companyName.length);
    expect(body).toBeLessThan(length);
  }, 60_000);

  it('lets a tenant run two exports at once: a third is refused with 429 and Retry-After; other tenants export', async () => {
    const first = slowDownload(merchant);
    const second = slowDownload(merchant);
    await Promise.all([first.head, second.head]);
    const third = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/payment-transactions/export',
      headers: merchant.headers({ 'dataset-id': '1' }),
    });
    expect(third.statusCode).toBe(429);
    expect(third.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.json().detail).toBe(
      'This organisation is running 2 exports already; try again when one has finished.',
    );
    const theirs = await timed(() =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/v0/payment-transactions/export',
        headers: rival.headers({ 'dataset-id': '1' }),
      }),
    );
    expect(theirs.status).toBe(200);
    expect(theirs.ms).toBeLessThan(3000);
    // Once the stalled downloads are ended, the tenant may export again.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    for (const download of [first, second]) {
      const { body, length } = await download.drain();
      expect(body).toBeLessThan(length);
    }
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/payment-transactions/export',
      headers: merchant.headers({ 'dataset-id': '1' }),
    });
    expect(again.statusCode).toBe(200);
    expect(again.body.split('\r\n').filter(Boolean).length).toBeGreaterThan(payments);
  }, 60_000);
});
