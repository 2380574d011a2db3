import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { insertAccount, insertRequest } from '../../../test/fixtures/pay.js';

// What to pay is in the payer page's first HTML (GET /pay/{id}), escaped, before any
// JavaScript runs; an expired or unknown link is the built pay.html as before.
let ctx: TestContext;
let app: FastifyInstance;
let a: SignedIn;
let b: SignedIn;
const root = mkdtempSync(`${tmpdir()}/ledgerline-web-`);
// The built page's shape: the boot script and the entry in the head, "Loading…" in the root.
const builtPage =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Pay</title>' +
  '<script>/*boot*/</script><script type="module" crossorigin src="/assets/pay-x.js"></script>' +
  '</head><body><div id="root"><p class="pay-boot">Loading…</p></div></body></html>';
const hostile = '<script>alert("x")</script>&<img src=x onerror=alert(1)>';

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  writeFileSync(`${root}/index.html`, '<!doctype html><title>Ledgerline</title>');
  writeFileSync(`${root}/pay.html`, builtPage);
  app = await buildApp({ config: ctx.config, database: ctx.database, webRoot: root });
  a = await signIn(ctx, { tenantName: 'First Screen A Ltd' });
  b = await signIn(ctx, { tenantName: 'First Screen B Ltd' });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
  rmSync(root, { recursive: true, force: true });
});

const page = (url: string) => app.inject({ method: 'GET', url });
/** The JSON data block the server wrote, as the page's script reads it. */
function firstAnswer(html: string): unknown {
  const match = /<script type="application\/json" id="pay-first-answer">([\s\S]*?)<\/script>/.exec(
    html,
  );
  return match ? JSON.parse(match[1]!) : null;
}

describe('the payer page’s first HTML', () => {
  it('carries the company, the reference and the amount to pay before any script, escaped', async () => {
    const accountId = await insertAccount(ctx, a, { name: 'Hostile Payer Ltd' });
    const id = await insertRequest(ctx, a, {
      accountId,
      amountToPay: '1234.56',
      customerReference: hostile,
      description: 'Invoices for <b>October</b>',
    });
    const api = await app.inject({ method: 'GET', url: `/api/v0/pay/${id}` });
    expect(api.statusCode).toBe(200);
    const answer = api.json();
    expect(answer.state).toBe('Open');

    const response = await page(`/pay/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    const html = response.body;
    const rootAt = html.indexOf('<div id="root">');
    const body = html.slice(rootAt);
    // What to pay, in the root, in the app's own markup.
    expect(body).toContain(`<p class="company-name">${answer.company.name}</p>`);
    expect(body).toContain(`<h1>Pay ${answer.company.name}</h1>`);
    expect(body).toContain('<h2 id="summary-heading">What you are paying</h2>');
    expect(body).toContain('<dt class="total">Total to pay</dt><dd class="total">£1,234.56</dd>');
    expect(body).not.toContain('Loading…');
    expect(html).toContain(`<title>Pay ${answer.company.name}</title>`);
    // The reference and the description are text, never markup.
    expect(body).toContain(
      '<dt>Reference</dt><dd>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&lt;img src=x onerror=alert(1)&gt;</dd>',
    );
    expect(body).toContain('<dd>Invoices for &lt;b&gt;October&lt;/b&gt;</dd>');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>October');
    // The answer the app takes instead of asking, before the first script (the boot script, which
    // then asks nothing), equal to the API's; no "<" in it can close its element.
    const dataAt = html.indexOf('id="pay-first-answer"');
    expect(dataAt).toBeGreaterThan(0);
    expect(dataAt).toBeLessThan(html.indexOf('<script>/*boot*/'));
    expect(firstAnswer(html)).toEqual(answer);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });

  it('shows each company only its own request (cross-tenant)', async () => {
    const accountA = await insertAccount(ctx, a, { name: 'Payer of A' });
    const accountB = await insertAccount(ctx, b, { name: 'Payer of B' });
    const idA = await insertRequest(ctx, a, {
      accountId: accountA,
      amountToPay: '11',
      customerReference: 'REF-A',
    });
    const idB = await insertRequest(ctx, b, {
      accountId: accountB,
      amountToPay: '22',
      customerReference: 'REF-B',
    });
    // A link's own query (a mail's ?utm=) is still the first screen.
    const htmlA = (await page(`/pay/${idA}?utm=mail`)).body;
    const htmlB = (await page(`/pay/${idB}`)).body;
    const companyA = (await app.inject({ method: 'GET', url: `/api/v0/pay/${idA}` })).json().company
      .name as string;
    const companyB = (await app.inject({ method: 'GET', url: `/api/v0/pay/${idB}` })).json().company
      .name as string;
    expect(companyA).not.toBe(companyB);
    expect(htmlA).toContain('REF-A');
    expect(htmlA).toContain('£11.00');
    expect(htmlA).toContain(`<p class="company-name">${companyA}</p>`);
    expect(htmlA).not.toContain('REF-B');
    expect(htmlA).not.toContain(companyB);
    expect(htmlB).toContain('REF-B');
    expect(htmlB).toContain('£22.00');
    expect(htmlB).not.toContain('REF-A');
    expect(htmlB).not.toContain(companyA);
  });

  it('answers an unknown, a malformed and an expired link with the built page as before', async () => {
    const accountId = await insertAccount(ctx, a, { name: 'Late Payer Ltd' });
    const expired = await insertRequest(ctx, a, {
      accountId,
      customerReference: 'REF-EXPIRED',
      validUntil: new Date(Date.now() - 86_400_000),
    });
    expect((await app.inject({ method: 'GET', url: `/api/v0/pay/${expired}` })).json()).toEqual({
      state: 'Expired',
    });
    for (const id of [randomUUID(), 'not-a-request-id', expired]) {
      const response = await page(`/pay/${id}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(builtPage);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('leaves the other loads of the page (a provider’s return, a widget) to the app', async () => {
    const accountId = await insertAccount(ctx, a, { name: 'Returning Payer Ltd' });
    const id = await insertRequest(ctx, a, { accountId, customerReference: 'REF-BACK' });
    for (const query of [
      `payment=${randomUUID()}`,
      `checkout=${randomUUID()}`,
      `frame=${randomUUID()}`,
      `opayo=${randomUUID()}&utm=mail`,
    ]) {
      const response = await page(`/pay/${id}?${query}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(builtPage);
    }
  });
});
