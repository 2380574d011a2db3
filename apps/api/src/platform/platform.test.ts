import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { connectorBodies } from './openapi-examples.js';
import { buildTestApp, signIn, type TestContext } from '../../test/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

describe('problem documents', () => {
  it('answers an unknown API route with a 404 problem', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v0/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404 });
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"accessToken":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().status).toBe(400);
    const big = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ status: 413, title: 'Content Too Large' });
  });

  it('never leaks an internal error message or stack', async () => {
    const app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      webRoot: null,
    });
    app.get('/api/v0/boom', { config: { access: 'none' } }, async () => {
      throw new Error('secret connection string postgres://user:pw@db');
    });
    const response = await app.inject({ method: 'GET', url: '/api/v0/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('at ');
    expect(response.json()).toMatchObject({ status: 500, title: 'Internal Server Error' });
    await app.close();
  });

  it('answers 409 and 422 from typed errors as problems with errorCode', async () => {
    const { ConflictError, UnprocessableError } = await import('./errors.js');
    const app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      webRoot: null,
    });
    app.get('/api/v0/conflict', { config: { access: 'none' } }, async () => {
      throw new ConflictError(
        'The tenant must keep at least one Administrator.',
        'lastAdministrator',
      );
    });
    app.get('/api/v0/unprocessable', { config: { access: 'none' } }, async () => {
      throw new UnprocessableError('Idempotency key reused with another body.');
    });
    expect((await app.inject({ url: '/api/v0/conflict' })).json()).toMatchObject({
      status: 409,
      errorCode: 'lastAdministrator',
    });
    expect((await app.inject({ url: '/api/v0/unprocessable' })).statusCode).toBe(422);
    await app.close();
  });
});

describe('operations', () => {
  it('reports health with a database check', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'Healthy', database: 'ok' });
  });

  it('exposes Prometheus metrics by route pattern', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/v0/data-sets/12/exists' });
    const response = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_request_duration_seconds_bucket');
    expect(response.body).toContain('route="/api/v0/data-sets/:id/exists"');
  });

  it('sets security headers with a strict content security policy and a request id', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    // The document viewer's blob: frame, and nothing else.
    expect(csp).toContain("frame-src 'self' blob:;");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves an OpenAPI 3.1 document of the routes and a reference page', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v0/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v0/users/me',
        '/api/v0/users/me/settings',
        '/api/v0/data-sets/{id}',
        '/api/v0/login',
      ]),
    );
    // Every $ref of the paths names a component.
    const refs = [...JSON.stringify(doc.paths).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((id) => !doc.components.schemas[id])).toEqual([]);
    // Connector authors read an example of each body they send, one the API takes.
    for (const body of connectorBodies) {
      const id = `${String(body.meta()?.id)}Input`;
      const examples = doc.components.schemas[id]?.examples as unknown[] | undefined;
      expect(examples?.length, id).toBeGreaterThan(0);
      for (const example of examples ?? [])
        expect(body.safeParse(example).error, id).toBeUndefined();
    }
    expect(connectorBodies.map((body) => body.meta()?.id)).toEqual(
      expect.arrayContaining([
        'CreateAccount',
        'UpsertAccount',
        'CreateBank',
        'UpdateBank',
        'CreatePayer',
        'CreateTransaction',
      ]),
    );
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});

describe('the site', () => {
  it('serves index.html for the site routes and keeps API 404s as problems', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(`${tmpdir()}/ledgerline-web-`);
    writeFileSync(`${root}/index.html`, '<!doctype html><title>Ledgerline</title>');
    const app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      webRoot: root,
    });
    const page = await app.inject({
      method: 'GET',
      url: '/my-settings',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Ledgerline</title>');
    const api = await app.inject({ method: 'GET', url: '/api/v0/missing' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toContain('application/problem+json');
    await app.close();
  });

  // Precompressed files, hashed assets cached for a year, index.html revalidated.
  it("serves the build's brotli and gzip files, hashed assets immutable and index.html no-cache", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } =
      await import('node:zlib');
    const root = mkdtempSync(`${tmpdir()}/ledgerline-web-`);
    const html = `<!doctype html><title>Ledgerline</title>${' '.repeat(2000)}`;
    const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    mkdirSync(`${root}/assets`);
    for (const [file, content] of [
      ['index.html', html],
      ['assets/index-Ab12Cd34.js', script],
    ] as const) {
      writeFileSync(`${root}/${file}`, content);
      writeFileSync(`${root}/${file}.br`, brotliCompressSync(content));
      writeFileSync(`${root}/${file}.gz`, gzipSync(content));
    }
    const app = await buildApp({ config: ctx.config, database: ctx.database, webRoot: root });
    const get = (url: string, acceptEncoding?: string) =>
      app.inject({
        method: 'GET',
        url,
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });

    const brotli = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toContain('javascript');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);

    const gzip = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    for (const url of ['/', '/index.html', '/payment-requests/123']) {
      const page = await get(url, 'br');
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(html);
    }
    await app.close();
  });
});

describe('audit of tenant calls', () => {
  it('does not record reads', async () => {
    const user = await signIn(ctx);
    const { auditActivities } = await import('../db/schema.js');
    const { eq } = await import('drizzle-orm');
    await ctx.app.inject({ method: 'GET', url: '/api/v0/users/me', headers: user.headers() });
    const rows = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(eq(auditActivities.userId, user.userId));
    expect(rows.map((r) => r.operation)).toEqual(['Login']);
  });
});
