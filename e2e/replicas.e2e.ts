import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { signInOverHttp, type HttpSession } from './support/oidc-http.js';
import {
  startPgbouncer,
  startReplicatedPostgres,
  type ReplicatedPostgres,
  type RunningPgbouncer,
} from './support/postgres-cluster.js';
import { freePort, startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

// Past one database machine. A primary and a real streaming standby (initdb,
// pg_basebackup -R, pg_ctl: e2e/support/postgres-cluster.ts), one API process reading on the
// standby; then the API through Debian's pgbouncer in transaction pooling mode. Its own step of
// .ci/run (e2e/vitest.scale.config.ts).

const database = 'ledgerline';
/** pgbouncer's run has a database of its own: a fresh installation, its own administrator. */
const pooledDatabase = 'ledgerline_pooled';
const company = { 'dataset-id': '1' };

let cluster: ReplicatedPostgres;

/**
 * Tenant reads the standby ran: each carries its scope statement (set_config of the tenant), counted
 * by pg_stat_statements as it runs (pg_stat_database's counters reach the view only when a
 * busy connection next goes idle).
 */
async function standbyReads(): Promise<number> {
  const [row] = await cluster.query<{ n: string | null }>(
    `select sum(calls)::text as n from pg_stat_statements where query like '%app.tenant_id%'`,
    'standby',
    database,
  );
  return Number(row?.n ?? 0);
}

async function metricsOf(server: RunningServer): Promise<string> {
  return (await fetch(`${server.url}/metrics`)).text();
}

beforeAll(async () => {
  cluster = await startReplicatedPostgres({ primary: await freePort(), standby: await freePort() });
  await cluster.query(`create database ${database}`);
  await cluster.query(`create database ${pooledDatabase}`);
  // The standby loads pg_stat_statements (postgres-cluster.ts): every statement it runs counts.
  await cluster.query('create extension pg_stat_statements', 'primary', database);
  await cluster.caughtUp();
});

afterAll(() => {
  cluster?.stop();
});

describe('reads on a streaming standby', () => {
  let server: RunningServer;
  let admin: HttpSession;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startServer({
      env: {
        DATABASE_URL: cluster.primaryUrl(database),
        DATABASE_REPLICA_URL: cluster.standbyUrl(database),
        DATABASE_REPLICA_CHECK_MS: '200',
        // Short, so the paused standby is seen lagging within the journey.
        DATABASE_REPLICA_MAX_LAG_MS: '2000',
      },
    });
    admin = await signInOverHttp(server.url, server.adminEmail, server.adminPassword);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('serves lists and reports on the standby: its own statistics move', async () => {
    await cluster.caughtUp(database);
    // The sign-in wrote; a caller a moment later is past it.
    await new Promise((r) => setTimeout(r, 500));
    const before = await standbyReads();
    const paths = [
      '/api/v0/banks',
      '/api/v0/accounts?itemsPerPage=5',
      '/api/v0/payment-transactions?itemsPerPage=5',
      '/api/v0/company-settings',
    ];
    const reads = 20;
    for (let i = 0; i < reads; i++) {
      const response = await admin.fetch(paths[i % paths.length]!, { headers: company });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(response.headers.get('x-ledgerline-read')).toBe('replica');
    }
    const after = await standbyReads();
    console.log(`tenant statements run on the standby: ${before} → ${after} after ${reads} calls`);
    expect(after - before).toBeGreaterThanOrEqual(reads);
    const metrics = await metricsOf(server);
    expect(metrics).toMatch(/ledgerline_database_replica_state\{replica="[^"]+",state="up"\} 1/);
    expect(metrics).toMatch(/ledgerline_database_replica_lag_seconds\{replica="[^"]+"\} /);
  });

  it('shows a save made in the browser at once, while the standby has not replayed it, and skips it once it lags', async () => {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page: Page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await cluster.caughtUp(database);

    // The standby stops replaying (it is still up and within the lag bound for a few seconds):
    // a read there would show the old details.
    await cluster.query('select pg_wal_replay_pause()', 'standby', database);
    try {
      await page.goto(`${server.url}/settings/details`);
      await page.getByRole('heading', { name: 'Company Details' }).waitFor();
      const name = `Replica Traders ${Date.now()}`;
      await page.getByRole('textbox', { name: 'Company name' }).fill(name);
      await page.getByRole('textbox', { name: 'Website' }).fill('https://replica.example');
      await page.getByRole('textbox', { name: 'First names' }).fill('Nancy');
      await page.getByRole('textbox', { name: 'Surname' }).fill('Davolio');
      await page.getByRole('textbox', { name: 'E-mail' }).fill('nancy@replica.example');
      await page.getByRole('textbox', { name: 'Address line 1' }).fill('12 Harbour Road');
      await page.getByRole('textbox', { name: 'City' }).fill('Bristol');
      await page.getByRole('textbox', { name: 'Post code' }).fill('BS1 4RN');
      await page.getByRole('textbox', { name: 'State' }).fill('England');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Company details successfully updated').waitFor();

      // Reloaded: the page reads the details again and finds the save.
      await page.reload();
      await page.getByRole('heading', { name: 'Company Details' }).waitFor();
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Company name' }).inputValue())
        .toBe(name);
      const fromBrowser = await callApi(context, server.url, '/api/v0/company-settings', {
        headers: company,
      });
      expect(
        ((await fromBrowser.json()) as { companyDetails: { name: string } }).companyDetails.name,
      ).toBe(name);
      // The primary answered the browser; the paused standby still has the old name.
      expect(fromBrowser.headers()['x-ledgerline-read']).toBeUndefined();
      const [primary] = await cluster.query<{ lsn: string }>(
        'select pg_current_wal_insert_lsn()::text as lsn',
        'primary',
        database,
      );
      const [standby] = await cluster.query<{ behind: boolean }>(
        `select pg_last_wal_replay_lsn() < '${primary!.lsn}'::pg_lsn as behind`,
        'standby',
        database,
      );
      expect(standby!.behind).toBe(true);

      // Still paused: past the lag bound it is skipped for everyone, and /metrics says so.
      const lagging = async () =>
        /ledgerline_database_replica_state\{replica="[^"]+",state="lagging"\} 1/.test(
          await metricsOf(server),
        );
      await expect.poll(lagging, { timeout: 15_000, interval: 250 }).toBe(true);
      const skipped = await admin.fetch('/api/v0/banks', { headers: company });
      expect(skipped.status).toBe(200);
      expect(skipped.headers.get('x-ledgerline-read')).toBeNull();
      expect(await metricsOf(server)).toMatch(
        /ledgerline_database_replica_lag_seconds\{replica="[^"]+"\} ([2-9]|[1-9]\d)/,
      );
    } finally {
      await cluster.query('select pg_wal_replay_resume()', 'standby', database);
    }
    // Caught up: back in use.
    await expect
      .poll(
        async () =>
          /ledgerline_database_replica_state\{replica="[^"]+",state="up"\} 1/.test(
            await metricsOf(server),
          ),
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);
    await context.close();
  });

  it('loses no request when the standby stops mid-run, and reads on the primary', async () => {
    await cluster.caughtUp(database);
    await new Promise((r) => setTimeout(r, 500));
    const statuses = new Map<number, number>();
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const write = i % 5 === 4;
        const response = await admin
          .fetch(write ? '/api/v0/banks' : '/api/v0/banks?itemsPerPage=20', {
            method: write ? 'POST' : 'GET',
            json: write ? { accountName: `Standby ${n}-${i}`, currency: 'GBP' } : undefined,
            headers: company,
          })
          .catch(() => null);
        const status = response?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const load = Array.from({ length: 6 }, (_, n) => client(n));
    await new Promise((r) => setTimeout(r, 1_000));
    cluster.stopStandby();
    await new Promise((r) => setTimeout(r, 2_500));
    stop = true;
    await Promise.all(load);
    console.log(
      `standby stopped under 6 clients: answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect([...statuses.keys()].sort()).toEqual([200, 201]);
    expect(await metricsOf(server)).toMatch(
      /ledgerline_database_replica_state\{replica="[^"]+",state="down"\} 1/,
    );
    const list = await admin.fetch('/api/v0/banks', { headers: company });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-ledgerline-read')).toBeNull();
    // Back: reads return to it once it has caught up.
    cluster.startStandby();
    let back = false;
    for (let i = 0; i < 50 && !back; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const response = await admin.fetch('/api/v0/banks', { headers: company });
      expect(response.status).toBe(200);
      back = response.headers.get('x-ledgerline-read') === 'replica';
    }
    expect(back).toBe(true);
  });
});

describe('through pgbouncer in transaction pooling mode', () => {
  let pgbouncer: RunningPgbouncer;
  let server: RunningServer;

  beforeAll(async () => {
    pgbouncer = await startPgbouncer(await freePort(), cluster.primaryPort, 6);
    server = await startServer({
      env: {
        DATABASE_URL: pgbouncer.url(pooledDatabase),
        DATABASE_DIRECT_URL: cluster.primaryUrl(pooledDatabase),
      },
    });
  });

  afterAll(async () => {
    await server?.dispose();
    await pgbouncer?.stop();
  });

  it('signs in, lists, saves and runs a background job with nothing but transactions', async () => {
    const session = await signInOverHttp(server.url, server.adminEmail, server.adminPassword);
    // Many reads and writes at once, over more API connections than pgbouncer has for them.
    const calls = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 4 === 0
          ? session.fetch('/api/v0/banks', {
              method: 'POST',
              json: { accountName: `Pooled ${i}`, currency: 'GBP' },
              headers: company,
            })
          : session.fetch(`/api/v0/banks?itemsPerPage=50&sort=accountName`, { headers: company }),
      ),
    );
    for (const call of calls) expect([200, 201], await call.clone().text()).toContain(call.status);
    const listed = await session.fetch('/api/v0/banks?itemsPerPage=100', { headers: company });
    const names = ((await listed.json()) as { items: { accountName: string; id: string }[] }).items;
    expect(names.filter((b) => b.accountName.startsWith('Pooled '))).toHaveLength(10);
    const updated = await session.fetch('/api/v0/banks', {
      method: 'PUT',
      json: { id: names[0]!.id, accountName: 'Pooled and renamed', currency: 'GBP' },
      headers: company,
    });
    expect(updated.status, await updated.clone().text()).toBe(200);

    // An access key: its look-up is a statement drizzle prepares by name, which goes unnamed
    // through the pooler; many calls at once land on every server connection.
    const key = await session.fetch('/api/v0/access-keys', {
      method: 'POST',
      json: { name: 'Pooled connector' },
    });
    expect(key.status, await key.clone().text()).toBe(201);
    const { accessKey } = (await key.json()) as { accessKey: string };
    const byKey = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${server.url}/api/v0/banks${i % 2 ? '?itemsPerPage=3' : ''}`, {
          headers: { authorization: `Bearer ${accessKey}`, ...company },
        }),
      ),
    );
    for (const call of byKey) expect(call.status, await call.clone().text()).toBe(200);

    // A demo company: its provisioning is a pg-boss job (polling, no LISTEN) that imports
    // its data through the pooler.
    const created = await session.fetch('/api/v0/data-sets', {
      method: 'POST',
      json: {
        name: 'Pooled Demo',
        hostSystemName: 'Custom',
        hostId: 'POOL1',
        customHostId: 'POOL1',
        hostDemoSystem: true,
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    let status = '';
    for (let i = 0; i < 120 && status !== 'Active' && status !== 'Error'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = (
        (await (await session.fetch(`/api/v0/data-sets/${id}`)).json()) as { status: string }
      ).status;
    }
    expect(status).toBe('Active');
    const accounts = await session.fetch('/api/v0/accounts?itemsPerPage=1', {
      headers: { 'dataset-id': String(id) },
    });
    expect(((await accounts.json()) as { totalItems: number }).totalItems).toBeGreaterThan(0);

    // Nothing failed on the way: no error in the API's log, no named statement lost.
    expect(server.output()).not.toMatch(/prepared statement|"level":50/);
    const pools = await pgbouncer.admin<{ database: string; sv_active: string; sv_idle: string }>(
      'SHOW POOLS',
    );
    const pool = pools.find((p) => p.database === pooledDatabase);
    expect(pool).toBeDefined();
    console.log(`pgbouncer pool after the run: ${JSON.stringify(pool)}`);
  });
});
