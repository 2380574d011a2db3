import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildTestApp, signIn, type TestContext } from '../../test/app.js';

/** Set-Cookie lines of an answer, by cookie name. */
function setCookies(headers: Record<string, unknown>): Map<string, string> {
  const raw = headers['set-cookie'];
  const lines = Array.isArray(raw) ? raw.map(String) : raw ? [String(raw)] : [];
  return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line]));
}

async function login(ctx: TestContext) {
  const admin = await signIn(ctx, { tenantName: `Framed ${Math.random()}` });
  const token = await ctx.oidc.token({ sub: `sub-${admin.userId}`, email: admin.email });
  return ctx.app.inject({ method: 'POST', url: '/api/v0/login', payload: { accessToken: token } });
}

function directive(csp: string, name: string): string | undefined {
  return csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));
}

describe('framing refused by default', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx.close());

  it("lets only Ledgerline's own pages frame it, and no one else's frame gets a cookie", async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'self'");
    expect(directive(csp, 'frame-src')).toBe("frame-src 'self' blob:");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');

    const cookies = setCookies((await login(ctx)).headers);
    expect(cookies.get('ledgerline_session')).toMatch(/SameSite=Lax/);
    expect(cookies.get('ledgerline_session')).not.toMatch(/Partitioned|SameSite=None/);
    expect(cookies.get('XSRF-TOKEN')).toMatch(/SameSite=Lax/);
  });
});

describe('FRAME_ANCESTORS', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({
      FRAME_ANCESTORS: 'https://erp.example.com, https://portal.example.org:8443',
      COOKIE_SECURE: 'true',
      CAPITALISE_INTRODUCER_KEY: 'intro-123',
    });
  });
  afterAll(() => ctx.close());

  it('lets exactly the listed origins frame the site, pages and API alike', async () => {
    for (const url of ['/api/health', '/api/v0/info/feature-flags?target=adminPortal']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(directive(csp, 'frame-ancestors')).toBe(
        "frame-ancestors 'self' https://erp.example.com https://portal.example.org:8443",
      );
      // X-Frame-Options cannot name other origins; the CSP decides alone.
      expect(response.headers['x-frame-options']).toBeUndefined();
    }
  });

  it('frames Capitalise, that host alone, when its introducer key is set', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(directive(String(response.headers['content-security-policy']), 'frame-src')).toBe(
      "frame-src 'self' blob: https://capitalise.com",
    );
  });

  it('gives a framed session SameSite=None; Secure; Partitioned cookies, and keeps the XSRF check', async () => {
    const response = await login(ctx);
    expect(response.statusCode).toBe(204);
    const cookies = setCookies(response.headers);
    const session = cookies.get('__Host-ledgerline_session');
    expect(session).toMatch(/; Path=\/(;|$)/);
    for (const part of ['HttpOnly', 'Secure', 'SameSite=None', 'Partitioned'])
      expect(session).toContain(part);
    const xsrf = cookies.get('XSRF-TOKEN');
    for (const part of ['Secure', 'SameSite=None', 'Partitioned']) expect(xsrf).toContain(part);
    expect(xsrf).not.toContain('HttpOnly');

    const sessionId = session!.slice(session!.indexOf('=') + 1, session!.indexOf(';'));
    const xsrfToken = xsrf!.slice(xsrf!.indexOf('=') + 1, xsrf!.indexOf(';'));
    const cookie = `__Host-ledgerline_session=${sessionId}; XSRF-TOKEN=${xsrfToken}`;
    const unsafe = (headers: Record<string, string>) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/v0/company-settings/payment-request',
        headers: { cookie, 'dataset-id': '1', ...headers },
        payload: { validUntilAddition: null, defaultUsageType: 'Single' },
      });
    expect((await unsafe({})).statusCode).toBe(403);
    expect((await unsafe({ 'x-xsrf-token': 'forged' })).statusCode).toBe(403);
    expect((await unsafe({ 'x-xsrf-token': xsrfToken })).statusCode).toBe(200);

    // Signing out clears them with the same attributes, or the browser would keep them.
    const logout = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/logout',
      headers: { cookie, 'x-xsrf-token': xsrfToken },
    });
    expect(logout.statusCode).toBe(204);
    const cleared = setCookies(logout.headers).get('__Host-ledgerline_session');
    expect(cleared).toContain('Partitioned');
    expect(cleared).toContain('Secure');
  });
});

describe('FRAME_ANCESTORS configuration', () => {
  const base = { PUBLIC_URL: 'https://ledgerline.example.com' };
  it('takes origins only', () => {
    expect(
      loadConfig({ ...base, FRAME_ANCESTORS: 'https://erp.example.com/' }).frameAncestors,
    ).toEqual(['https://erp.example.com']);
    expect(() => loadConfig({ ...base, FRAME_ANCESTORS: 'https://erp.example.com/app' })).toThrow(
      /FRAME_ANCESTORS: 'https:\/\/erp.example.com\/app' is not an origin/,
    );
    expect(() => loadConfig({ ...base, FRAME_ANCESTORS: '*' })).toThrow(/is not an origin/);
  });

  it('needs Secure cookies', () => {
    expect(() =>
      loadConfig({
        PUBLIC_URL: 'http://ledgerline.example.com',
        FRAME_ANCESTORS: 'https://erp.example.com',
      }),
    ).toThrow(/FRAME_ANCESTORS needs Secure cookies/);
  });
});
