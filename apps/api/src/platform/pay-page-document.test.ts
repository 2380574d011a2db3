import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { buildTestApp, type TestContext } from '../../test/app.js';

// GET /pay/{id} answers the payer page's own document (apps/web/pay.html) with headers
// that suit a public page that takes money.
let ctx: TestContext;
let app: FastifyInstance;
const requestId = '0190d7a2-5c3e-7b4a-9e1f-2a3b4c5d6e7f';

beforeAll(async () => {
  ctx = await buildTestApp();
  const root = mkdtempSync(`${tmpdir()}/ledgerline-web-`);
  writeFileSync(`${root}/index.html`, '<!doctype html><title>Ledgerline</title>');
  writeFileSync(`${root}/pay.html`, '<!doctype html><title>Pay</title><div id="root"></div>');
  app = await buildApp({ config: ctx.config, database: ctx.database, webRoot: root });
});
afterAll(async () => {
  await app?.close();
  await ctx.close();
});

function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('the payer page document', () => {
  it('answers pay.html for an account statement with the plain page’s headers', async () => {
    const response = await app.inject({ method: 'GET', url: `/statement/${'a'.repeat(43)}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Pay</title>');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    const csp = directives(String(response.headers['content-security-policy']));
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
  });

  it('answers pay.html for any id, revalidated on every load, with a strict policy', async () => {
    for (const id of [requestId, 'not-a-request-id']) {
      const response = await app.inject({ method: 'GET', url: `/pay/${id}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<title>Pay</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
      // Nothing may frame it; the link (which carries the id) is never sent on as a Referer.
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const csp = directives(String(response.headers['content-security-policy']));
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['style-src']).toEqual(["'self'"]);
      expect(csp['connect-src']).toEqual(["'self'"]);
      expect(csp['frame-src']).toEqual(["'none'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'none'"]);
      // Opayo hosted forms are POSTed to; nothing else leaves the page by a form.
      expect(csp['form-action']).toEqual([
        "'self'",
        'https://sandbox.opayo.eu.elavon.com',
        'https://live.opayo.eu.elavon.com',
      ]);
      expect(JSON.stringify(csp)).not.toContain('oppwa');
      expect(JSON.stringify(csp)).not.toContain('transafe');
    }
  });

  it("allows the configured OPPWA hosts only on the widget's load (?checkout=)", async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/pay/${requestId}?checkout=0190d7a2-0000-7000-8000-000000000001`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Pay</title>');
    const csp = directives(String(response.headers['content-security-policy']));
    const oppwa = ['https://eu-test.oppwa.com', 'https://eu-prod.oppwa.com'];
    expect(csp['script-src']).toEqual(["'self'", ...oppwa, "'unsafe-eval'"]);
    expect(csp['style-src']).toEqual(["'self'", ...oppwa, "'unsafe-inline'"]);
    expect(csp['connect-src']).toEqual(["'self'", ...oppwa]);
    expect(csp['frame-src']).toEqual([...oppwa, 'https:']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
  });

  it("frames exactly the configured TranSafe hosts only on the PaymentFrame's load (?frame=)", async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/pay/${requestId}?frame=0190d7a2-0000-7000-8000-000000000001`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Pay</title>');
    const csp = directives(String(response.headers['content-security-policy']));
    expect(csp['frame-src']).toEqual([
      'https://test.transafe.com',
      'https://post.live.transafe.com',
    ]);
    // The frame talks to the page by postMessage: no script, style or call of TranSafe's runs here.
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['form-action']).not.toContain('https://test.transafe.com');
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(JSON.stringify(csp)).not.toContain('oppwa');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it("allows the configured Opayo hosts only on the Opayo Pi drop-in's load (?opayo=)", async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/pay/${requestId}?opayo=0190d7a2-0000-7000-8000-000000000001`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Pay</title>');
    const csp = directives(String(response.headers['content-security-policy']));
    const opayo = ['https://sandbox.opayo.eu.elavon.com', 'https://live.opayo.eu.elavon.com'];
    // Opayo.js, its card frame and its card-identifier call; no eval, no inline styles.
    expect(csp['script-src']).toEqual(["'self'", ...opayo]);
    expect(csp['style-src']).toEqual(["'self'", ...opayo]);
    expect(csp['connect-src']).toEqual(["'self'", ...opayo]);
    expect(csp['frame-src']).toEqual(opayo);
    // 3-D Secure: the page POSTs the payer to the card issuer's page, any https host.
    expect(csp['form-action']).toEqual(["'self'", ...opayo, 'https:']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(JSON.stringify(csp)).not.toContain('oppwa');
    expect(JSON.stringify(csp)).not.toContain('transafe');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('answers HEAD, and leaves the admin site and the API as they were', async () => {
    const head = await app.inject({ method: 'HEAD', url: `/pay/${requestId}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['x-frame-options']).toBe('DENY');

    const admin = await app.inject({ method: 'GET', url: '/payment-requests' });
    expect(admin.body).toContain('<title>Ledgerline</title>');
    expect(admin.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(String(admin.headers['content-security-policy'])).toContain("frame-ancestors 'self'");

    // The page's calls are API routes: never the page's HTML.
    const api = await app.inject({ method: 'GET', url: '/api/v0/pay-nothing/here' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toContain('application/problem+json');
  });

  it('falls back to the admin site when a build has no pay.html', async () => {
    const root = mkdtempSync(`${tmpdir()}/ledgerline-web-`);
    writeFileSync(`${root}/index.html`, '<!doctype html><title>Ledgerline</title>');
    const withoutPay = await buildApp({
      config: ctx.config,
      database: ctx.database,
      webRoot: root,
    });
    const response = await withoutPay.inject({ method: 'GET', url: `/pay/${requestId}` });
    expect(response.body).toContain('<title>Ledgerline</title>');
    await withoutPay.close();
  });
});
