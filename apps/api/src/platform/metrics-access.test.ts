import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { loadConfig } from '../config.js';
import { buildTestApp, type TestContext } from '../../test/app.js';

/**
 * /metrics shows every route's traffic and the process's internals. It answers
 * only the machine itself unless METRICS_TOKEN or METRICS_PORT says otherwise.
 */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const metrics = (ctx: TestContext, remoteAddress: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

describe('/metrics by default', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => ctx?.close());

  it('answers a scrape from the machine itself', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const response = await metrics(ctx, address);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('http_request_duration_seconds');
    }
  });

  it('refuses every other address, and a call the local proxy forwarded', async () => {
    for (const [address, headers] of [
      ['203.0.113.9', {}],
      ['10.0.0.2', {}],
      ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }],
      ['127.0.0.1', { forwarded: 'for=203.0.113.9' }],
    ] as const) {
      const response = await metrics(ctx, address, headers);
      expect(response.statusCode, `${address} ${JSON.stringify(headers)}`).toBe(403);
      expect(response.json()).toMatchObject({
        status: 403,
        detail:
          'Metrics are served to this machine only. Set METRICS_TOKEN or METRICS_PORT to scrape them from elsewhere.',
      });
      expect(response.body).not.toContain('http_request_duration_seconds');
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let ctx: TestContext;
  const token = 'scrape-token-0123456789abcdef';
  beforeAll(async () => {
    ctx = await buildTestApp({ METRICS_TOKEN: token });
  });
  afterAll(() => ctx?.close());

  it('answers a scrape with the token from anywhere', async () => {
    const response = await metrics(ctx, '203.0.113.9', { authorization: `Bearer ${token}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_request_duration_seconds');
  });

  it('refuses a missing or wrong token, from the machine itself too', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${token}x` },
      { authorization: token },
    ]) {
      for (const address of ['203.0.113.9', '127.0.0.1']) {
        const response = await metrics(ctx, address, headers);
        expect(response.statusCode).toBe(401);
        expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(response.json()).toMatchObject({
          status: 401,
          detail: 'Authentication not correct.',
        });
      }
    }
  });

  it('refuses a token shorter than 16 characters at start', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: Too small: expected string to have >=16 characters/,
    );
  });
});

describe('/metrics with METRICS_PORT', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    ctx = await buildTestApp({ METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' });
  });
  afterAll(() => ctx?.close());

  it('serves the metrics on their own port, and not on the API port', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(await response.text()).toContain('http_request_duration_seconds');
    const elsewhere = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(elsewhere.status).toBe(404);
    const onApi = await metrics(ctx, '127.0.0.1');
    expect(onApi.statusCode).toBe(404);
  });
});
