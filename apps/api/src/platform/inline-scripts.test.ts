import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { buildTestApp, type TestContext } from '../../test/app.js';

// The build writes the boot script into index.html and pay.html; the policy
// allows that script by its hash, and no other inline script.
let ctx: TestContext;
let app: FastifyInstance;
const adminBoot = '(function () { window.__ledgerlineEarly = {}; })();';
const payBoot = '(function () { window.__ledgerlineEarly = { pay: true }; })();';
const source = (script: string) =>
  `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

function scriptSources(csp: string): string[] {
  const directive = csp.split(';').find((part) => part.trim().startsWith('script-src '));
  return directive!.trim().split(/\s+/).slice(1);
}

beforeAll(async () => {
  ctx = await buildTestApp();
  const root = mkdtempSync(`${tmpdir()}/ledgerline-web-`);
  writeFileSync(
    `${root}/index.html`,
    `<!doctype html><title>Ledgerline</title><script>${adminBoot}</script>` +
      '<script type="module" crossorigin src="/assets/index.js"></script>',
  );
  writeFileSync(
    `${root}/pay.html`,
    `<!doctype html><title>Pay</title><script>${payBoot}</script><div id="root"></div>`,
  );
  app = await buildApp({ config: ctx.config, database: ctx.database, webRoot: root });
});
afterAll(async () => {
  await app?.close();
  await ctx.close();
});

describe('inline boot scripts', () => {
  it("allows the admin page's own boot script by its hash, and files from 'self'", async () => {
    const response = await app.inject({ method: 'GET', url: '/payment-requests' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(adminBoot);
    expect(scriptSources(String(response.headers['content-security-policy']))).toEqual([
      "'self'",
      source(adminBoot),
    ]);
  });

  it("allows the payer page's own boot script by its hash, not the admin page's", async () => {
    const response = await app.inject({ method: 'GET', url: '/pay/some-request' });
    expect(response.statusCode).toBe(200);
    const sources = scriptSources(String(response.headers['content-security-policy']));
    expect(sources).toEqual(["'self'", source(payBoot)]);
    expect(sources).not.toContain(source(adminBoot));
  });
});
