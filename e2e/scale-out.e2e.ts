import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './support/browser.js';
import { startHaproxy, type RunningHaproxy } from './support/haproxy.js';
import { signInOverHttp, type HttpSession } from './support/oidc-http.js';
import { freePort, startServer, type RunningServer } from './support/server.js';
import { signInThroughBrowser } from './support/sign-in.js';

// Several processes on one PostgreSQL: two built API processes on one fresh PostgreSQL
// database behind Debian's HAProxy, round robin. Run on its own (e2e/vitest.scale.config.ts,
// .ci/run): it needs PostgreSQL (SCALE_DATABASE_URL or TEST_DATABASE_URL or the local server).

const serverUrl =
  process.env.SCALE_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `ledgerline_scale_${process.pid}`;
const loginLimit = 8;

let haproxy: RunningHaproxy;
let site: string;
const processes: Record<'a' | 'b', RunningServer> = {} as never;
let databaseUrl: string;
let browser: Browser | undefined;
let admin: HttpSession;

async function onServer<T>(fn: (client: pg.Client) => Promise<T>, url = serverUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const backendOf = (response: Response) => response.headers.get('x-ledgerline-backend');

beforeAll(async () => {
  await onServer(async (client) => {
    await client.query(`drop database if exists ${databaseName} with (force)`);
    await client.query(`create database ${databaseName}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();

  const proxyPort = await freePort();
  site = `http://127.0.0.1:${proxyPort}`;
  const env = {
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: site,
    TRUST_PROXY: '1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_LOGIN_PER_MINUTE: String(loginLimit),
  };
  // One after the other: the first migrates and makes the demo tenant, the second finds them.
  processes.a = await startServer({ env });
  processes.b = await startServer({ env });
  haproxy = await startHaproxy(proxyPort, [
    { name: 'a', port: processes.a.port },
    { name: 'b', port: processes.b.port },
  ]);
  admin = await signInOverHttp(site, processes.a.adminEmail, processes.a.adminPassword);
});

afterAll(async () => {
  await browser?.close();
  await haproxy?.stop();
  for (const server of Object.values(processes)) await server?.dispose();
  await onServer((client) => client.query(`drop database if exists ${databaseName} with (force)`));
});

describe('two API processes behind HAProxy on one PostgreSQL', () => {
  it('deals the calls to both processes in turn', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${site}/api/health`)));
    const backends = new Set(answers.map(backendOf));
    expect(backends).toEqual(new Set(['a', 'b']));
  });

  it('signs a browser in through the provider across both processes, and keeps its session on both', async () => {
    browser = await launchBrowser();
    const context = await browser.newContext();
    const page = await context.newPage();
    const seen: { path: string; backend: string | null }[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      seen.push({ path: pathname, backend: response.headers()['x-ledgerline-backend'] ?? null });
    });
    await signInThroughBrowser(page, site, processes.a.adminEmail, processes.a.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // The provider's steps (authorize, the sign-in page and its post, the token) and the site's
    // calls were answered by both processes: its interactions and sessions live in the database.
    const provider = seen.filter((r) => r.path.startsWith('/idp'));
    expect(provider.length).toBeGreaterThan(2);
    expect(new Set(provider.map((r) => r.backend))).toEqual(new Set(['a', 'b']));
    // The session works on both processes: reloads and calls land on each in turn.
    for (let i = 0; i < 3; i++) {
      await page.reload();
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    }
    const api = seen.filter((r) => r.path.startsWith('/api/v0/'));
    expect(new Set(api.map((r) => r.backend))).toEqual(new Set(['a', 'b']));
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it("runs a company's lifecycle job exactly once", async () => {
    const provisioned = () =>
      (['a', 'b'] as const).flatMap((name) =>
        processes[name]
          .output()
          .split('\n')
          .filter(
            (line) =>
              line.includes('"msg":"job done"') && line.includes('"job":"dataset.provision"'),
          )
          .map(() => name),
      );
    const before = provisioned().length;
    const created = await admin.fetch('/api/v0/data-sets', {
      method: 'POST',
      json: {
        name: 'Scale-out Demo',
        hostSystemName: 'Custom',
        hostId: 'SCALE1',
        customHostId: 'SCALE1',
        hostDemoSystem: true,
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    let status = '';
    for (let i = 0; i < 120 && status !== 'Active'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = ((await (await admin.fetch(`/api/v0/data-sets/${id}`)).json()) as { status: string })
        .status;
    }
    expect(status).toBe('Active');
    // Each process logs the jobs it runs; the provisioning of this company ran on one of them, once.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(provisioned().length - before).toBe(1);
    const accounts = await admin.fetch('/api/v0/accounts?itemsPerPage=1', {
      headers: { 'dataset-id': String(id) },
    });
    expect(((await accounts.json()) as { totalItems: number }).totalItems).toBeGreaterThan(0);
  });

  it('answers an Idempotency-Key replayed on the other process with the first answer', async () => {
    const session = await signInOverHttp(site, processes.a.adminEmail, processes.a.adminPassword);
    const probe = await session.fetch('/api/v0/users/me');
    expect(probe.status).toBe(200);
    const key = `scale-${Date.now()}`;
    const body = { accountName: 'Replayed on the other process', currency: 'GBP' };
    const first = await session.fetch('/api/v0/banks', {
      method: 'POST',
      json: body,
      headers: { 'dataset-id': '1', 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    // HAProxy deals calls in turn, so of the next two one lands on the other process.
    const replays = [];
    for (let i = 0; i < 2; i++) {
      replays.push(
        await session.fetch('/api/v0/banks', {
          method: 'POST',
          json: body,
          headers: { 'dataset-id': '1', 'idempotency-key': key },
        }),
      );
    }
    const backends = new Set([first, ...replays].map(backendOf));
    expect(backends).toEqual(new Set(['a', 'b']));
    for (const replay of replays) {
      expect(replay.status).toBe(201);
      expect(await replay.json()).toEqual(firstBody);
    }
    const stored = await onServer(
      (client) =>
        client.query(`select count(*)::int as n from banks where account_name = $1`, [
          body.accountName,
        ]),
      databaseUrl,
    );
    expect(stored.rows[0].n).toBe(1);
  });

  it('counts sign-in attempts across both processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= loginLimit; i++) {
      const name = i % 2 === 0 ? 'a' : 'b';
      const response = await fetch(`${processes[name].url}/api/v0/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({ accessToken: 'not-a-token' }),
      });
      statuses.push(response.status);
    }
    // Each process alone has seen half the attempts: only a shared count refuses the last one.
    expect(statuses).toEqual([...Array(loginLimit).fill(401), 429]);
  });

  it('loses no acknowledged write when one process is killed under load', async () => {
    const jar = await signInOverHttp(site, processes.a.adminEmail, processes.a.adminPassword);
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const response = await jar
          .fetch('/api/v0/banks', {
            method: 'POST',
            json: { accountName: `Load ${n}-${i}`, currency: 'GBP' },
            headers: { 'dataset-id': '1' },
          })
          .catch(() => null);
        const status = response?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 201) acknowledged.push(((await response!.json()) as { id: string }).id);
        else await new Promise((r) => setTimeout(r, 50));
      }
    };
    const load = Array.from({ length: 10 }, (_, n) => client(n));
    await new Promise((r) => setTimeout(r, 1_500));
    await processes.b.stop('SIGKILL');
    const killedAt = acknowledged.length;
    await new Promise((r) => setTimeout(r, 3_000));
    stop = true;
    await Promise.all(load);

    // Writes went on through the process that is left.
    expect(acknowledged.length).toBeGreaterThan(killedAt);
    for (const status of statuses.keys()) expect([201, 502, 503, 0]).toContain(status);
    const stored = await onServer(
      (client) => client.query<{ id: string }>(`select id from banks`),
      databaseUrl,
    );
    const ids = new Set(stored.rows.map((r) => r.id));
    const missing = acknowledged.filter((id) => !ids.has(id));
    console.log(
      `kill -9 of one process under 10 writers: ${acknowledged.length} writes acknowledged ` +
        `(${killedAt} before the kill), answers ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `${missing.length} acknowledged writes missing`,
    );
    expect(missing).toEqual([]);
    expect((await fetch(`${site}/api/health`)).status).toBe(200);
  });
});
