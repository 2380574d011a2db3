import Fastify, { type FastifyInstance } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createTestDatabase } from '../../test/database.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';
import {
  createIdentityProvider,
  registerIdentityProvider,
  type IdentityProvider,
} from './index.js';

// The whole provider on a real port with a real (in-memory) database, driven by plain fetch the
// way a browser would: manual redirects, cookies kept by path.

const password = 'correct horse battery staple';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Server {
  config: Config;
  idp: IdentityProvider;
  app: FastifyInstance;
  close(): Promise<void>;
}

async function startServer(
  database: Database,
  port: number,
  env: Record<string, string> = {},
): Promise<Server> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    OIDC_EXTRA_ORIGINS: 'http://localhost:5173',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    ...env,
  });
  const logger = pino({ level: process.env.TEST_LOG ?? 'silent' });
  const idp = await createIdentityProvider({ config, database, logger });
  const app = Fastify({ logger: false });
  await registerIdentityProvider(app, idp, config);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    config,
    idp,
    app,
    async close() {
      await app.close();
      await idp.close();
    },
  };
}

/** A browser's cookie store, enough for oidc-provider's path-scoped cookies. */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const split = pair.indexOf('=');
      const name = pair.slice(0, split).trim();
      const value = pair.slice(split + 1).trim();
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', ...rest] = attribute.trim().split('=');
        const attributeValue = rest.join('=');
        if (key.toLowerCase() === 'path') path = attributeValue;
        if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now())
          expired = true;
        if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      }
      const id = `${name};${path}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        (c) => url.pathname === c.path || url.pathname.startsWith(c.path.replace(/\/?$/, '/')),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  names(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }
}

async function browse(
  jar: CookieJar,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const target = new URL(url);
  const headers = new Headers(init.headers);
  const cookie = jar.header(target);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(target, { ...init, headers, redirect: 'manual' });
  jar.store(response);
  return response;
}

function postForm(
  jar: CookieJar,
  url: string | URL,
  fields: Record<string, string>,
): Promise<Response> {
  return browse(jar, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

function locationOf(response: Response, base: string): URL {
  const location = response.headers.get('location');
  expect(location, `status ${response.status} without a location`).toBeTruthy();
  return new URL(location!, base);
}

function pkcePair() {
  // spec 1 §4: a 64-byte verifier and an S256 challenge.
  const verifier = randomBytes(64).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(config: Config, overrides: Record<string, string | null> = {}) {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(8).toString('hex');
  const url = new URL(`${config.oidcIssuer}/auth`);
  const params: Record<string, string | null> = {
    client_id: config.OIDC_CLIENT_ID,
    redirect_uri: `${config.publicUrl}/signin-callback`,
    response_type: 'code',
    scope: config.OIDC_SCOPE,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: config.oidcAudience,
    ...overrides,
  };
  for (const [key, value] of Object.entries(params))
    if (value !== null) url.searchParams.set(key, value);
  return { url, verifier, state };
}

/** Follows same-origin redirects until the provider sends the browser back to the site. */
async function followToSite(jar: CookieJar, config: Config, response: Response): Promise<URL> {
  let current = response;
  for (let hop = 0; hop < 10; hop++) {
    expect([302, 303]).toContain(current.status);
    const next = locationOf(current, config.publicUrl);
    if (!next.pathname.startsWith('/idp')) return next;
    current = await browse(jar, next);
  }
  throw new Error('too many redirects');
}

/** authorize → login page → password → back at /signin-callback with a code. */
async function signIn(jar: CookieJar, config: Config, email: string) {
  const { url, verifier, state } = authorizeUrl(config);
  const started = await browse(jar, url);
  const loginUrl = locationOf(started, config.publicUrl);
  expect(loginUrl.pathname).toMatch(/^\/idp-login\/[A-Za-z0-9_-]+$/);
  const page = await browse(jar, loginUrl);
  expect(page.status).toBe(200);
  const submitted = await postForm(jar, loginUrl, { email, password });
  const callback = await followToSite(jar, config, submitted);
  return { callback, verifier, state, loginUrl };
}

function exchange(
  config: Config,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) {
  return fetch(`${config.oidcIssuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: `${config.publicUrl}/signin-callback`,
      client_id: config.OIDC_CLIENT_ID,
      ...extra,
    }),
  });
}

interface TokenResponse {
  access_token: string;
  id_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

const inlineScript = /<script(?![^>]*\bsrc=)[^>]*>/i;
const inlineHandler = /\son[a-z]+\s*=/i;

describe('embedded identity provider over HTTP', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let server: Server;
  let config: Config;
  const email = 'Ada.Lovelace@Example.com';

  beforeAll(async () => {
    ({ database, dispose } = await createTestDatabase());
    server = await startServer(database, await freePort());
    config = server.config;
    await server.idp.accounts.createAccount({ email, name: 'Ada Lovelace', password });
  });

  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });

  it('publishes discovery and the public keys for its issuer', async () => {
    const discovery = (await (
      await fetch(`${config.oidcIssuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    expect(discovery.issuer).toBe(config.oidcIssuer);
    expect(discovery.authorization_endpoint).toBe(`${config.oidcIssuer}/auth`);
    expect(discovery.token_endpoint).toBe(`${config.oidcIssuer}/token`);
    expect(discovery.end_session_endpoint).toBe(`${config.oidcIssuer}/session/end`);
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await (await fetch(discovery.jwks_uri as string)).json()) as {
      keys: Record<string, unknown>[];
    };
    const own = await server.idp.publicJwks();
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual(own.keys.map((k) => k.kid).sort());
    expect(own.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of [...jwks.keys, ...own.keys]) expect(key).not.toHaveProperty('d');
  });

  it('signs in with PKCE S256 and issues a JWT access token for the API', async () => {
    const jar = new CookieJar();
    const { url, verifier, state } = authorizeUrl(config);
    const started = await browse(jar, url);
    expect(started.status).toBe(303);
    const loginUrl = locationOf(started, config.publicUrl);
    expect(loginUrl.pathname).toMatch(/^\/idp-login\//);

    const page = await browse(jar, loginUrl);
    const pageHtml = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    for (const text of [
      'Ledgerline',
      'Email',
      'Password',
      'Sign in',
      '/idp-login/assets/login.css',
    ]) {
      expect(pageHtml).toContain(text);
    }
    expect(pageHtml).not.toMatch(inlineScript);
    expect(pageHtml).not.toMatch(inlineHandler);

    const wrong = await postForm(jar, loginUrl, {
      email: 'ada.lovelace@example.com',
      password: 'not the password',
    });
    const wrongHtml = await wrong.text();
    expect(wrong.status).toBe(401);
    expect(wrongHtml).toContain('Invalid email or password.');
    expect(wrongHtml).toContain('value="ada.lovelace@example.com"');

    const hostile = await postForm(jar, loginUrl, {
      email: '"><script>alert(1)</script>',
      password: 'x',
    });
    const hostileHtml = await hostile.text();
    expect(hostileHtml).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(hostileHtml).not.toContain('<script>alert(1)');

    // E-mails compare trimmed and case-insensitively.
    const submitted = await postForm(jar, loginUrl, {
      email: '  ADA.lovelace@example.com ',
      password,
    });
    expect(submitted.status).toBe(303);
    const callback = await followToSite(jar, config, submitted);
    expect(callback.origin + callback.pathname).toBe(`${config.publicUrl}/signin-callback`);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(config.oidcIssuer);
    const code = callback.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const response = await exchange(config, code, verifier);
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as TokenResponse;
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBeGreaterThan(3500);
    expect(tokens.id_token).toBeTruthy();

    const keys = createLocalJWKSet(await server.idp.publicJwks());
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, keys, {
      issuer: config.oidcIssuer,
      audience: config.oidcAudience,
    });
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload.email).toBe(email);
    expect(payload.name).toBe('Ada Lovelace');
    const account = await server.idp.accounts.findByEmail(email);
    expect(payload.sub).toBe(account!.id);
    expect(payload.client_id).toBe(config.OIDC_CLIENT_ID);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);

    // A code is good once: the second exchange fails.
    const reused = await exchange(config, code, verifier);
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('signs in again without the password while the provider session lasts', async () => {
    const jar = new CookieJar();
    await signIn(jar, config, email);
    const { url, state } = authorizeUrl(config);
    const again = await browse(jar, url);
    const callback = await followToSite(jar, config, again);
    expect(callback.pathname).toBe('/signin-callback');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('refuses a wrong code_verifier', async () => {
    const { callback } = await signIn(new CookieJar(), config, email);
    const response = await exchange(
      config,
      callback.searchParams.get('code')!,
      pkcePair().verifier,
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('refuses plain and missing PKCE challenges', async () => {
    for (const overrides of [
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
      { code_challenge: null, code_challenge_method: null },
    ]) {
      const { url } = authorizeUrl(config, overrides);
      const response = await browse(new CookieJar(), url);
      const back = locationOf(response, config.publicUrl);
      expect(back.pathname).toBe('/signin-callback');
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    }
  });

  it('accepts the extra origins and nothing else as redirect addresses', async () => {
    const extra = await browse(
      new CookieJar(),
      authorizeUrl(config, { redirect_uri: 'http://localhost:5173/signin-callback' }).url,
    );
    expect(locationOf(extra, config.publicUrl).pathname).toMatch(/^\/idp-login\//);

    const foreign = await browse(
      new CookieJar(),
      authorizeUrl(config, { redirect_uri: 'https://evil.example/signin-callback' }).url,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    const html = await foreign.text();
    expect(html).toContain('Sign-in problem');
    expect(html).not.toMatch(inlineScript);
  });

  it('answers an unknown or expired sign-in page with a way back to the site', async () => {
    const response = await browse(
      new CookieJar(),
      `${config.publicUrl}/idp-login/unknownInteraction1`,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('This sign-in page has expired');
    expect(html).toContain(`href="${config.publicUrl}/"`);
  });

  it('serves its style sheet and sign-out script from its own origin', async () => {
    const css = await fetch(`${config.publicUrl}/idp-login/assets/login.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('#228be6');
    const script = await fetch(`${config.publicUrl}/idp-login/assets/logout.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('signs out through end_session and sends the browser back to the site', async () => {
    const jar = new CookieJar();
    const { callback, verifier } = await signIn(jar, config, email);
    const tokens = (await (
      await exchange(config, callback.searchParams.get('code')!, verifier)
    ).json()) as TokenResponse;

    const end = new URL(`${config.oidcIssuer}/session/end`);
    end.searchParams.set('id_token_hint', tokens.id_token);
    end.searchParams.set('post_logout_redirect_uri', `${config.publicUrl}/`);
    end.searchParams.set('client_id', config.OIDC_CLIENT_ID);
    const page = await browse(jar, end);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The site proved who signs out: the page submits itself through our own script.
    expect(html).toContain('data-auto-submit');
    expect(html).toContain('<script src="/idp-login/assets/logout.js" defer></script>');
    expect(html).not.toMatch(inlineScript);
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    expect(action).toBe(`${config.oidcIssuer}/session/end/confirm`);

    const confirmed = await postForm(jar, action!, { xsrf: xsrf!, logout: 'yes' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${config.publicUrl}/`);

    // The provider session is gone: the next sign-in asks for the password again.
    const next = await browse(jar, authorizeUrl(config).url);
    expect(locationOf(next, config.publicUrl).pathname).toMatch(/^\/idp-login\//);
  });

  it('asks for one click when the sign-out request does not name the signed-in user', async () => {
    const jar = new CookieJar();
    await signIn(jar, config, email);
    const end = new URL(`${config.oidcIssuer}/session/end`);
    end.searchParams.set('client_id', config.OIDC_CLIENT_ID);
    end.searchParams.set('post_logout_redirect_uri', 'http://localhost:5173/');
    const page = await browse(jar, end);
    const html = await page.text();
    expect(html).toContain('Sign out');
    expect(html).not.toContain('data-auto-submit');
    expect(html).not.toContain('<script');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    const confirmed = await postForm(jar, `${config.oidcIssuer}/session/end/confirm`, {
      xsrf: xsrf!,
      logout: 'yes',
    });
    expect(confirmed.headers.get('location')).toBe('http://localhost:5173/');
  });

  it('sets a password through a single-use link and sends the user to the site only', async () => {
    const invited = await server.idp.accounts.createAccount({
      email: 'grace@example.com',
      name: 'Grace Hopper',
    });
    const token = await server.idp.accounts.createSetPasswordToken(invited.id, 72);
    const pageUrl = new URL(`${config.publicUrl}/idp-login/set-password`);
    pageUrl.searchParams.set('token', token);
    pageUrl.searchParams.set('redirect', 'http://localhost:5173/datasets');
    const page = await fetch(pageUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(html).toContain('grace@example.com');
    expect(html).toContain('value="http://localhost:5173/datasets"');

    const form = (fields: Record<string, string>) =>
      postForm(new CookieJar(), `${config.publicUrl}/idp-login/set-password`, {
        token,
        redirect: 'https://evil.example/steal',
        ...fields,
      });
    const mismatch = await form({ password: 'a long password', confirm: 'another password' });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain('The passwords do not match.');
    const short = await form({ password: 'short', confirm: 'short' });
    expect(await short.text()).toContain('at least 8 characters');

    const done = await form({ password: 'a long password', confirm: 'a long password' });
    expect(done.status).toBe(303);
    // A foreign redirect falls back to the site.
    expect(done.headers.get('location')).toBe(`${config.publicUrl}/`);
    expect(
      await server.idp.accounts.verifyPassword('grace@example.com', 'a long password'),
    ).toMatchObject({
      id: invited.id,
    });

    const reused = await form({ password: 'yet another one', confirm: 'yet another one' });
    expect(reused.status).toBe(410);
    expect(await reused.text()).toContain('This link has expired or has already been used.');
    expect((await fetch(pageUrl)).status).toBe(410);
  });

  it('makes invitation links that create the account and lead to the set-password page', async () => {
    const link = new URL(
      await server.idp.invitationLink({
        email: 'Invitee@Example.com',
        name: 'New Colleague',
        redirectUri: `${config.publicUrl}/dashboard`,
      }),
    );
    expect(link.origin + link.pathname).toBe(`${config.publicUrl}/idp-login/set-password`);
    expect(link.searchParams.get('redirect')).toBe(`${config.publicUrl}/dashboard`);
    const account = await server.idp.accounts.findByEmail('invitee@example.com');
    expect(account).toMatchObject({ email: 'Invitee@Example.com', name: 'New Colleague' });

    const done = await postForm(new CookieJar(), link, {
      token: link.searchParams.get('token')!,
      redirect: link.searchParams.get('redirect')!,
      password: 'welcome aboard',
      confirm: 'welcome aboard',
    });
    expect(done.headers.get('location')).toBe(`${config.publicUrl}/dashboard`);
    // A second invitation of the same address reuses the account.
    await server.idp.invitationLink({
      email: 'invitee@example.com',
      name: 'New Colleague',
      redirectUri: 'https://evil.example/',
    });
    expect((await server.idp.accounts.findByEmail('INVITEE@example.com'))?.id).toBe(account!.id);
  });
});

describe('embedded identity provider across a restart', () => {
  it('keeps its keys, codes and sessions in the database', async () => {
    const { database, dispose } = await createTestDatabase();
    const port = await freePort();
    const first = await startServer(database, port);
    const email = 'restart@example.com';
    await first.idp.accounts.createAccount({ email, name: 'Restart', password });
    const jar = new CookieJar();
    const { callback, verifier } = await signIn(jar, first.config, email);
    const jwksBefore = await first.idp.publicJwks();
    await first.close();
    // Let fetch's keep-alive pool notice the closed sockets before the same port is reused.
    await new Promise((resolve) => setTimeout(resolve, 100));

    const second = await startServer(database, port);
    try {
      expect(await second.idp.publicJwks()).toEqual(jwksBefore);
      // The code made before the restart is exchanged after it.
      const response = await exchange(second.config, callback.searchParams.get('code')!, verifier);
      expect(response.status).toBe(200);
      const tokens = (await response.json()) as TokenResponse;
      const { payload } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwksBefore), {
        issuer: second.config.oidcIssuer,
        audience: second.config.oidcAudience,
      });
      expect(payload.email).toBe(email);
      expect(decodeJwt(tokens.id_token).sub).toBe(payload.sub);

      // The provider session (and its signed cookie) also outlived the process.
      const again = await browse(jar, authorizeUrl(second.config).url);
      expect((await followToSite(jar, second.config, again)).pathname).toBe('/signin-callback');
    } finally {
      await second.close();
      await dispose();
    }
  });
});

describe('embedded identity provider rate limits', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let server: Server;

  beforeAll(async () => {
    ({ database, dispose } = await createTestDatabase());
    server = await startServer(database, await freePort(), { RATE_LIMIT_LOGIN_PER_MINUTE: '3' });
  });

  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });

  it('answers 429 after N sign-in attempts from one address', async () => {
    const jar = new CookieJar();
    const started = await browse(jar, authorizeUrl(server.config).url);
    const loginUrl = locationOf(started, server.config.publicUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await postForm(jar, loginUrl, {
        email: 'nobody@example.com',
        password: 'wrong password',
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await response.text()).toContain('Too many attempts');
      }
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('answers 429 with a JSON error after N token requests from one address', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await exchange(server.config, 'no-such-code', pkcePair().verifier);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(last!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await last!.json()).toMatchObject({ error: 'too_many_requests' });
  });
});

describe('embedded identity provider per-account delay', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let server: Server;
  const email = 'grace.hopper@example.com';

  beforeAll(async () => {
    ({ database, dispose } = await createTestDatabase());
    server = await startServer(database, await freePort());
    await server.idp.accounts.createAccount({ email, name: 'Grace Hopper', password });
  });

  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });

  async function loginPage(jar: CookieJar) {
    const started = await browse(jar, authorizeUrl(server.config).url);
    return locationOf(started, server.config.publicUrl);
  }

  it('slows wrong passwords for one account with a growing delay, then lets the right one in', async () => {
    const jar = new CookieJar();
    const loginUrl = await loginPage(jar);
    const wrong = () => postForm(jar, loginUrl, { email: email.toUpperCase(), password: 'wrong' });
    // Five attempts are free, whatever address they come from (the per-address limit is 1000).
    for (let i = 0; i < 5; i++) expect((await wrong()).status).toBe(401);
    const delayed = await wrong();
    expect(delayed.status).toBe(429);
    expect(delayed.headers.get('retry-after')).toBe('1');
    expect(await delayed.text()).toContain(
      'Too many failed sign-in attempts for this account. Try again in 1 seconds.',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await wrong()).status).toBe(401);
    const longer = await wrong();
    expect(longer.status).toBe(429);
    expect(longer.headers.get('retry-after')).toBe('2');
    // The right password, once the delay has passed: never a lockout. Another account is not
    // slowed at all.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const right = await postForm(jar, loginUrl, { email, password });
    expect(right.status).toBe(303);
    const otherJar = new CookieJar();
    const other = await postForm(otherJar, await loginPage(otherJar), {
      email: 'someone.else@example.com',
      password: 'wrong',
    });
    expect(other.status).toBe(401);
  });

  it('counts code exchanges for the account the code belongs to at the token endpoint', async () => {
    const jar = new CookieJar();
    const loginUrl = await loginPage(jar);
    const submitted = await postForm(jar, loginUrl, { email, password });
    const callback = await followToSite(jar, server.config, submitted);
    const code = callback.searchParams.get('code')!;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await exchange(server.config, code, pkcePair().verifier);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(last!.headers.get('retry-after')).toBe('1');
    expect(await last!.json()).toEqual({
      error: 'too_many_requests',
      error_description:
        'Too many failed sign-in attempts for this account. Try again in 1 seconds.',
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'embedded identity provider while the database is away',
  () => {
    let database: Database;
    let dispose: () => Promise<void>;
    let server: Server;
    let proxy: TcpProxy;

    beforeAll(async () => {
      const target = new URL(process.env.TEST_DATABASE_URL!);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      ({ database, dispose } = await createTestDatabase({
        route: (url) => {
          const routed = new URL(url);
          routed.hostname = '127.0.0.1';
          routed.port = String(proxy.port);
          return routed;
        },
      }));
      server = await startServer(database, await freePort());
    });

    afterAll(async () => {
      proxy?.restore();
      await server?.close();
      await dispose?.();
      await proxy?.close();
    });

    it('answers 503 with Retry-After instead of 500, and works again once it is back', async () => {
      proxy.refuse();
      proxy.cut();
      const authorize = await browse(new CookieJar(), authorizeUrl(server.config).url);
      expect(authorize.status).toBe(503);
      expect(authorize.headers.get('retry-after')).toBe('5');
      expect(await authorize.text()).toContain(
        'The database is not reachable at the moment. Please try again shortly.',
      );
      const token = await exchange(server.config, 'some-code', pkcePair().verifier);
      expect(token.status).toBe(503);
      expect(token.headers.get('retry-after')).toBe('5');
      expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });

      proxy.restore();
      const again = await browse(new CookieJar(), authorizeUrl(server.config).url);
      expect(again.status).toBe(303);
    });
  },
);
