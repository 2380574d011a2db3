import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { datasets, users } from '../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';

// The dashboard's and the payment requests list's first screen in the signed-in site's HTML
// (docs/decisions/175-the-signed-in-site-s-first-screen-in-its-html.md), asked for over HTTP:
// written for the session's own company only, every text escaped; anything else is the built file.
let ctx: TestContext;
let app: FastifyInstance;
let base: string;
let a: SignedIn & { company: number };
let b: SignedIn & { company: number };
const root = mkdtempSync(`${tmpdir()}/ledgerline-web-`);
const hostile = '<script>alert("x")</script>&<img src=x onerror=alert(1)>';
// The built index.html's shape: the boot script (with its map of route files) and the frame.
const routeFiles = JSON.stringify({
  files: ['assets/dashboard-x.js', 'assets/list-deps-y.js', 'assets/list-deps-y.css'],
  routes: [
    ['/', [0]],
    ['/payment-requests', [1, 2]],
  ],
});
const builtPage =
  '<!doctype html>\n<html lang="en">\n<head><meta charset="UTF-8" /><title>Ledgerline</title>' +
  `<script>(function () {\nvar routeFiles = ${routeFiles};\n})();\n</script>` +
  '<script type="module" crossorigin src="/assets/index-x.js"></script></head>' +
  '<body><div id="root"><div class="boot-shell" data-boot-shell><div class="boot-header"></div>' +
  '<div class="boot-main"><div class="boot-bone boot-title"></div>' +
  '<p class="boot-status" role="status">Loading Ledgerline</p>' +
  '<div class="boot-bone boot-block"></div><div class="boot-bone boot-block tall"></div>' +
  '</div></div></div></body></html>';

async function companyOf(who: SignedIn): Promise<number> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/v0/data-sets/all',
    headers: { cookie: who.cookie },
  });
  return (response.json() as { items: { id: number }[] }).items[0]!.id;
}

beforeAll(async () => {
  ctx = await buildTestApp();
  writeFileSync(`${root}/index.html`, builtPage);
  app = await buildApp({ config: ctx.config, database: ctx.database, webRoot: root });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  const first = await signIn(ctx, { tenantName: 'Screen A Ltd' });
  const second = await signIn(ctx, { tenantName: 'Screen B Ltd' });
  await ctx.database.db
    .update(users)
    .set({ forename: hostile, displayName: 'Alice Only-In-A' })
    .where(eq(users.id, first.userId));
  // A second company that A has and B has not (company ids are numbered per tenant).
  await ctx.database.db.insert(datasets).values({
    tenantId: first.tenantId,
    id: 2,
    name: 'Screen A Trading',
    status: 'Active',
    hostId: '2',
    customHostId: '2',
    hostSystemName: 'Custom',
    currency: 'GBP',
  });
  a = { ...first, company: 2 };
  b = { ...second, company: await companyOf(second) };
}, 60_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
  rmSync(root, { recursive: true, force: true });
});

function load(path: string, cookie: string | null, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
}
const withCompany = (who: SignedIn, company: number) =>
  `${who.cookie}; ledgerline_company=${company}`;

function dataBlock(html: string): { company: number; answers: Record<string, { body: unknown }> } {
  const match =
    /<script type="application\/json" id="first-screen-answers">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no data block');
  return JSON.parse(match[1]!);
}

describe('the signed-in site’s first screen', () => {
  it('writes the dashboard’s heading, greeting and to-do list, escaped, with the answers', async () => {
    const response = await load('/', withCompany(a, a.company));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('vary')).toMatch(/cookie/i);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    const body = html.slice(html.indexOf('<div id="root">'));
    expect(body).toContain('data-order="1"');
    expect(body).toContain('>Dashboard</h1>');
    expect(body).toContain(
      'Welcome, &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&lt;img src=x onerror=alert(1)&gt;. Today is ',
    );
    expect(body).toContain('>To do</h4>');
    expect(body).toContain('data-testid="todo-company-details"');
    expect(body).not.toContain('Loading Ledgerline');
    // Nothing of the name is markup anywhere in the page, the data block included.
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    const block = dataBlock(html);
    expect(block.company).toBe(a.company);
    expect((block.answers['/api/v0/users/me']!.body as { forename: string }).forename).toBe(
      hostile,
    );
    expect(block.answers[`${a.company} /api/v0/dashboard/to-do`]).toBeDefined();
    // The screen's own files are asked for with the entry's.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/dashboard-x.js">');
    expect(html).toContain('data-mantine-color-scheme="light"');
    // Compressed as the built files are.
    const gzipped = await load('/', withCompany(a, a.company), { 'accept-encoding': 'gzip' });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(await gzipped.text()).toContain('>Dashboard</h1>');
  });

  it('writes the payment requests list’s heading and its first page', async () => {
    const html = await (await load('/payment-requests', withCompany(a, a.company))).text();
    expect(html).toContain('>Payment Requests</h1>');
    expect(html).toContain('Requests for money your customers pay through a link or a QR code.');
    const block = dataBlock(html);
    expect(
      block.answers[`${a.company} /api/v0/payment-requests?page=1&itemsPerPage=10&sort=-createdOn`],
    ).toBeDefined();
    expect(html).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/list-deps-y.css">',
    );
  });

  it('gives another tenant’s session nothing of this one', async () => {
    // B's session naming A's company 2: the company check fails, the built file.
    expect(b.company).toBe(1);
    const foreign = await load('/', withCompany(b, a.company));
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('cache-control')).toBe('no-cache');
    const html = await foreign.text();
    expect(html).toBe(builtPage);
    const list = await (await load('/payment-requests', withCompany(b, a.company))).text();
    expect(list).toBe(builtPage);
    // B's own company: B's screen, nothing of A's.
    const own = await (await load('/', withCompany(b, b.company))).text();
    expect(dataBlock(own).company).toBe(b.company);
    expect(own).not.toContain('Only-In-A');
    expect(own).not.toContain('&lt;script&gt;');
    expect(own).not.toContain(a.userId);
  });

  it('is the built file when signed out, without a company, in a frame or with a query', async () => {
    const cases: [string, string | null, Record<string, string>?][] = [
      ['/', null],
      ['/', `ledgerline_company=${a.company}`],
      ['/', `ledgerline_session=not-a-session; ledgerline_company=${a.company}`],
      ['/', a.cookie],
      ['/', withCompany(a, a.company), { 'sec-fetch-dest': 'iframe' }],
      ['/payment-requests?status=Open', withCompany(a, a.company)],
      ['/payment-transactions', withCompany(a, a.company)],
    ];
    for (const [path, cookie, headers] of cases) {
      const response = await load(path, cookie, headers);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      expect(await response.text(), `${path} ${cookie}`).toBe(builtPage);
    }
  });
});
