import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseReplica,
  createPrimaryHistory,
  formatLsn,
  parseLsn,
  stateAfterCheck,
  type ReplicaStatus,
} from '../db/replicas.js';
import { lsnCookieName } from './read-routing.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';

/**
 * Which server a read goes to. The pure choice (up, lagging, down, not
 * yet replayed) here; then through HTTP on PostgreSQL, with the "standby" the same test database
 * reached through a TCP proxy the test can cut (a server not in recovery reports its own current
 * LSN as replayed, so what it has "replayed" is known exactly at each check).
 */

const status = (overrides: Partial<ReplicaStatus>): { status: ReplicaStatus } => ({
  status: {
    name: 'r',
    state: 'up',
    lagMs: 0,
    replayLsn: 100n,
    reads: 0,
    failures: 0,
    ...overrides,
  },
});

describe('choosing a standby', () => {
  it('reads LSNs as PostgreSQL writes them', () => {
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(formatLsn(parseLsn('16/B374D848'))).toBe('16/B374D848');
    expect(parseLsn('not an lsn')).toBe(0n);
    expect(parseLsn(undefined)).toBe(0n);
  });

  it('takes one that is up and has replayed the caller’s last write, else the primary', () => {
    const up = status({ name: 'up' });
    expect(chooseReplica([up], 0n)).toBe(up);
    expect(chooseReplica([up], 100n)).toBe(up);
    // Not yet replayed: the primary.
    expect(chooseReplica([up], 101n)).toBeUndefined();
    const lagging = status({ name: 'lagging', state: 'lagging', replayLsn: 1000n });
    const down = status({ name: 'down', state: 'down', replayLsn: 1000n });
    const starting = status({ name: 'starting', state: 'starting', replayLsn: 1000n });
    expect(chooseReplica([lagging, down, starting], 0n)).toBeUndefined();
    expect(chooseReplica([lagging, down, up], 0n)).toBe(up);
    const ahead = status({ name: 'ahead', replayLsn: 500n });
    expect(chooseReplica([up, ahead], 200n)).toBe(ahead);
  });

  it('spreads reads to the standby with the fewest in flight', () => {
    const a = status({ name: 'a' });
    const b = status({ name: 'b' });
    const load = new Map([
      [a, 3],
      [b, 1],
    ]);
    expect(chooseReplica([a, b], 0n, (r) => load.get(r)!)).toBe(b);
  });

  it('measures lag as the age of the oldest primary position the standby has not replayed', () => {
    const history = createPrimaryHistory(60_000);
    expect(history.lagMs(0n, 0)).toBeUndefined();
    history.add(100n, 1_000);
    history.add(100n, 2_000); // the primary idle: no new sample
    history.add(300n, 3_000);
    history.add(500n, 4_000);
    expect(history.lagMs(500n, 4_100)).toBe(0);
    expect(history.lagMs(100n, 4_100)).toBe(1_100);
    expect(history.lagMs(50n, 4_100)).toBe(3_100);
    // Idle for long, then one record on its way: behind by its age, not by the idle time.
    history.add(600n, 60_000);
    expect(history.lagMs(500n, 60_050)).toBe(50);
  });

  it('skips a standby past the lag bound until it is back within it, and one that does not answer', () => {
    expect(stateAfterCheck({ replayLsn: 1n, lagMs: 4_999 }, 5_000)).toBe('up');
    expect(stateAfterCheck({ replayLsn: 1n, lagMs: 5_001 }, 5_000)).toBe('lagging');
    expect(stateAfterCheck(null, 5_000)).toBe('down');
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('reads on a standby through HTTP (PostgreSQL)', () => {
  let ctx: TestContext;
  let proxy: TcpProxy;
  let writer: SignedIn;
  let reader: SignedIn;
  const company = { 'dataset-id': '1' };

  const listBanks = (who: SignedIn, cookie?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/v0/banks?itemsPerPage=1000',
      headers: who.headers({ ...company, ...(cookie ? { cookie } : {}) }),
    });
  /**
   * Signing in writes (a session), and its answer carries that write's LSN, which the standby,
   * checked only at start, never reaches: these callers come back long after, without it.
   */
  const withoutLsn = (signedIn: SignedIn): SignedIn => {
    const cookie = signedIn.cookie
      .split('; ')
      .filter((pair) => !pair.startsWith(`${lsnCookieName}=`))
      .join('; ');
    return {
      ...signedIn,
      cookie,
      headers: (extra = {}) => ({ cookie, 'x-xsrf-token': signedIn.xsrf, ...extra }),
    };
  };
  const servedByStandby = (response: { headers: Record<string, unknown> }) =>
    response.headers['x-ledgerline-read'] === 'replica';

  beforeAll(async () => {
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    ctx = await buildTestApp(
      {},
      {
        postgres: (database) => {
          const standby = new URL(database);
          standby.hostname = '127.0.0.1';
          standby.port = String(proxy.port);
          // Checked once at start and not again during the test: whatever is written after it
          // has not been "replayed", deterministically.
          return {
            replicaConnectionStrings: [standby.toString()],
            replicaCheckMs: 600_000,
            replicaMaxLagMs: 5_000,
          };
        },
      },
    );
    writer = withoutLsn(await signIn(ctx, { tenantName: 'Replica Writer Ltd' }));
    reader = withoutLsn(await signIn(ctx, { tenantName: 'Replica Reader Ltd' }));
  });

  afterAll(async () => {
    proxy?.restore();
    await ctx?.close();
    await proxy?.close();
  });

  it('serves a list on the standby, and a write on the primary', async () => {
    const list = await listBanks(reader);
    expect(list.statusCode).toBe(200);
    expect(servedByStandby(list)).toBe(true);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/banks',
      headers: writer.headers(company),
      payload: { accountName: 'Saved just now', currency: 'GBP' },
    });
    expect(created.statusCode).toBe(201);
    expect(servedByStandby(created)).toBe(false);
    const lsn = created.cookies.find((c) => c.name === lsnCookieName);
    expect(parseLsn(lsn?.value)).toBeGreaterThan(0n);
    expect(lsn?.httpOnly).toBe(true);
  });

  it('reads the caller’s own write on the primary until a standby has replayed it', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/banks',
      headers: writer.headers(company),
      payload: { accountName: 'Read your own write', currency: 'GBP' },
    });
    expect(created.statusCode).toBe(201);
    const lsn = created.cookies.find((c) => c.name === lsnCookieName)!;
    // With the cookie (another API process would see only that) …
    const withCookie = await listBanks(writer, `${writer.cookie}; ${lsnCookieName}=${lsn.value}`);
    expect(withCookie.statusCode).toBe(200);
    expect(servedByStandby(withCookie)).toBe(false);
    expect(withCookie.json().items.map((b: { accountName: string }) => b.accountName)).toContain(
      'Read your own write',
    );
    // … and without it, on the process that remembers the caller's write.
    const remembered = await listBanks(writer);
    expect(servedByStandby(remembered)).toBe(false);
    // Someone who wrote nothing still reads on the standby.
    expect(servedByStandby(await listBanks(reader))).toBe(true);
  });

  it('makes an export on the standby', async () => {
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/payment-transactions/export',
      headers: reader.headers(company),
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(servedByStandby(exported)).toBe(true);
  });

  it('shows each standby’s state and lag in /metrics', async () => {
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(
      /ledgerline_database_replica_state\{replica="[^"]+",state="up"\} 1/,
    );
    expect(metrics.body).toMatch(/ledgerline_database_replica_lag_seconds\{replica="[^"]+"\} 0/);
    expect(metrics.body).toMatch(
      /ledgerline_database_replica_reads_total\{replica="[^"]+"\} [1-9]/,
    );
  });

  it('runs a read again on the primary when the standby goes away, and skips it after', async () => {
    proxy.refuse();
    proxy.cut();
    const during = await Promise.all([listBanks(reader), listBanks(reader), listBanks(reader)]);
    for (const response of during) {
      expect(response.statusCode, response.body).toBe(200);
      expect(servedByStandby(response)).toBe(false);
    }
    const [standby] = ctx.database.replicas!();
    expect(standby!.state).toBe('down');
    expect(standby!.failures).toBeGreaterThan(0);
    const failures = standby!.failures;
    // Down: skipped without trying it.
    const after = await listBanks(reader);
    expect(after.statusCode).toBe(200);
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/payment-transactions/export',
      headers: reader.headers(company),
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(servedByStandby(exported)).toBe(false);
    expect(ctx.database.replicas!()[0]!.failures).toBe(failures);
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /ledgerline_database_replica_state\{replica="[^"]+",state="down"\} 1/,
    );
  });
});

describe.skipIf(!url)('through a pooler in transaction mode (PostgreSQL)', () => {
  let ctx: TestContext;
  let merchant: SignedIn;
  const company = { 'dataset-id': '1' };
  const onPoolConnection = async (text: string) => (await ctx.database.raw.query(text)).rows;

  beforeAll(async () => {
    // One pooled connection, so what any call leaves on a connection is seen by the next query.
    ctx = await buildTestApp(
      {},
      {
        poolSize: 1,
        postgres: (database) => ({ directConnectionString: database.toString() }),
      },
    );
    merchant = await signIn(ctx, { tenantName: 'Pooled Ltd' });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('leaves no named statement and no session state on the connection, for every kind of call', async () => {
    const key = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/access-keys',
      headers: merchant.headers(),
      payload: { name: 'Pooled connector' },
    });
    expect(key.statusCode, key.body).toBe(201);
    const byKey = { authorization: `Bearer ${key.json().accessKey as string}`, ...company };
    const calls = await Promise.all([
      ctx.app.inject({ method: 'GET', url: '/api/v0/banks', headers: byKey }),
      ctx.app.inject({ method: 'GET', url: '/api/v0/banks?itemsPerPage=2', headers: byKey }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/v0/banks',
        headers: byKey,
        payload: { accountName: 'Pooled bank', currency: 'GBP' },
      }),
      ctx.app.inject({ method: 'GET', url: '/api/v0/banks', headers: merchant.headers(company) }),
      ctx.app.inject({
        method: 'GET',
        url: '/api/v0/company-settings',
        headers: merchant.headers(company),
      }),
    ]);
    expect(calls.map((call) => call.statusCode)).toEqual([200, 200, 201, 200, 200]);
    // drizzle's `.prepare('ledgerline_access_key…')` went unnamed; reads were transactions.
    expect(await onPoolConnection('select name from pg_prepared_statements')).toEqual([]);
    expect(
      await onPoolConnection(
        `select current_user = session_user as owner, coalesce(current_setting('app.tenant_id', true), '') as tenant`,
      ),
    ).toEqual([{ owner: true, tenant: '' }]);
  });
});
