import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sandboxCards } from '@ledgerline/contract';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createTenant } from '../features/tenants/tenants.service.js';
import {
  createIdentityProvider,
  registerIdentityProvider,
  type IdentityProvider,
} from '../idp/index.js';
import type { MailMessage } from './mail.js';
import { createLogger, redactUrl } from './logger.js';
import { CookieJar, browse, postForm } from '../../test/browser.js';
import { createTestDatabase } from '../../test/database.js';
import { makeDemoCompany } from '../../test/feature-gates.js';
import { startFakeGoCardless, type FakeGoCardless } from '../../test/fakes/fake-gocardless.js';
import { insertAccount, insertRequest } from '../../test/fixtures/pay.js';
import { waitFor } from '../../test/wait.js';

/**
 * The proof's log scan: the product's own logger at trace level, captured, while
 * the journeys' flows run over HTTP on a real port (an invitation and its set-password link, a
 * sign-in through the embedded provider, an OAuth connect callback, an access key, a payer page
 * paid with the Sandbox card). No token, code, password, key, card number or pay-link id may appear
 * in any line.
 */
const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let database: Database;
let dispose: () => Promise<void>;
let config: Config;
let idp: IdentityProvider;
let app: FastifyInstance;
let goCardless: FakeGoCardless;
const sent: MailMessage[] = [];
/** Every secret the flows handle; none may be in the log. */
const secrets = new Map<string, string>();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function keep(name: string, value: string | null | undefined): string {
  if (!value) throw new Error(`no ${name}`);
  secrets.set(name, value);
  return value;
}

function locationOf(response: Response): URL {
  const location = response.headers.get('location');
  if (!location) throw new Error(`status ${response.status} without a location`);
  return new URL(location, config.publicUrl);
}

/** The site's sign-in: authorize with PKCE, the login form, the code back, the token, POST /login. */
async function signInThroughProvider(email: string, password: string) {
  const jar = new CookieJar();
  const verifier = randomBytes(64).toString('base64url');
  const authorize = new URL(`${config.oidcIssuer}/auth`);
  for (const [key, value] of Object.entries({
    client_id: config.OIDC_CLIENT_ID,
    redirect_uri: `${config.publicUrl}/signin-callback`,
    response_type: 'code',
    scope: config.OIDC_SCOPE,
    state: keep(`state ${email}`, randomBytes(16).toString('hex')),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: config.oidcAudience,
  }))
    authorize.searchParams.set(key, value);
  const loginPage = locationOf(await browse(jar, authorize));
  keep(`interaction ${email}`, loginPage.pathname.split('/').pop());
  expect((await browse(jar, loginPage)).status).toBe(200);
  let step = await postForm(jar, loginPage, { email, password });
  let callback = locationOf(step);
  for (let hop = 0; hop < 10 && callback.pathname.startsWith('/idp'); hop++) {
    step = await browse(jar, callback);
    callback = locationOf(step);
  }
  expect(callback.pathname).toBe('/signin-callback');
  // The browser lands on the site's callback page with the code, as a real one would.
  await fetch(callback);
  const code = keep(`code ${email}`, callback.searchParams.get('code'));
  const tokens = (await (
    await fetch(`${config.oidcIssuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: keep(`verifier ${email}`, verifier),
        redirect_uri: `${config.publicUrl}/signin-callback`,
        client_id: config.OIDC_CLIENT_ID,
      }),
    })
  ).json()) as { access_token: string; id_token: string };
  keep(`id token ${email}`, tokens.id_token);
  const login = await fetch(`${config.publicUrl}/api/v0/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessToken: keep(`access token ${email}`, tokens.access_token) }),
  });
  expect(login.status, await login.clone().text()).toBe(204);
  const cookies = Object.fromEntries(
    login.headers.getSetCookie().map((c) => c.split(';')[0]!.split('=') as [string, string]),
  );
  keep(`session ${email}`, cookies.ledgerline_session);
  keep(`xsrf ${email}`, cookies['XSRF-TOKEN']);
  return {
    headers: (extra: Record<string, string> = {}) => ({
      cookie: `ledgerline_session=${cookies.ledgerline_session}; XSRF-TOKEN=${cookies['XSRF-TOKEN']}`,
      'x-xsrf-token': cookies['XSRF-TOKEN']!,
      ...extra,
    }),
  };
}

beforeAll(async () => {
  ({ database, dispose } = await createTestDatabase());
  goCardless = await startFakeGoCardless();
  const port = await freePort();
  config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'trace',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    RATE_LIMIT_PAY_PER_MINUTE: '1000',
    GOCARDLESS_CLIENT_ID: goCardless.clientId,
    GOCARDLESS_CLIENT_SECRET: goCardless.clientSecret,
    GOCARDLESS_CONNECT_URL: goCardless.url,
    GOCARDLESS_API_URL: goCardless.url,
  });
  const logger = createLogger(config.LOG_LEVEL, capture);
  idp = await createIdentityProvider({ config, database, logger });
  app = await buildApp({
    config,
    database,
    loggerInstance: logger,
    webRoot: null,
    mailer: { send: async (message) => void sent.push(message) },
    identityProvider: {
      publicJwks: () => idp.publicJwks(),
      register: (fastify) => registerIdentityProvider(fastify, idp, config),
      invitationLink: (input) => idp.invitationLink(input),
    },
  });
  await app.listen({ port, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await idp?.close();
  await goCardless?.close();
  await dispose?.();
});

describe('the log', () => {
  it('keeps no token, code, password, key, card number or pay-link id of the flows', async () => {
    // The first administrator, as the first start makes them.
    const adminEmail = 'owner@logscan.example';
    const adminPassword = keep('admin password', `Owner-${randomBytes(9).toString('base64url')}`);
    const { tenantId, userId } = await createTenant(database, {
      name: 'Log Scan Ltd',
      adminEmail,
      adminName: 'Owner',
    });
    await idp.accounts.createAccount({ email: adminEmail, name: 'Owner', password: adminPassword });
    const admin = await signInThroughProvider(adminEmail, adminPassword);
    const api = (method: string, path: string, body?: object) =>
      fetch(`${config.publicUrl}/api/v0/${path}`, {
        method,
        headers: admin.headers({
          'dataset-id': '1',
          ...(body ? { 'content-type': 'application/json' } : {}),
        }),
        ...(body ? { body: JSON.stringify(body) } : {}),
      });

    // An invitation: the mail's set-password link, opened and used.
    const invited = await api('POST', 'users', {
      name: 'Ivy Invited',
      email: 'ivy@logscan.example',
      role: 'Standard',
      redirectUri: `${config.publicUrl}/`,
    });
    expect(invited.status, await invited.clone().text()).toBe(201);
    const mail = await waitFor(async () => sent.find((m) => m.to === 'ivy@logscan.example'));
    const link = new URL(/https?:\/\/\S+set-password\S+/.exec(mail.text)![0]);
    keep('set-password token', link.searchParams.get('token'));
    const jar = new CookieJar();
    expect((await browse(jar, link)).status).toBe(200);
    const ivyPassword = keep('invited password', `Ivy-${randomBytes(9).toString('base64url')}`);
    const set = await postForm(jar, `${config.publicUrl}/idp-login/set-password`, {
      token: link.searchParams.get('token')!,
      redirect: link.searchParams.get('redirect')!,
      password: ivyPassword,
      confirm: ivyPassword,
    });
    expect(set.status).toBe(303);
    // A wrong password at the form too, which the provider logs as a refusal.
    const wrong = keep('wrong password', `Wrong-${randomBytes(9).toString('base64url')}`);
    const failing = new CookieJar();
    const started = await browse(
      failing,
      `${config.oidcIssuer}/auth?client_id=${config.OIDC_CLIENT_ID}&redirect_uri=${encodeURIComponent(`${config.publicUrl}/signin-callback`)}&response_type=code&scope=openid&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
    );
    await postForm(failing, locationOf(started), { email: 'ivy@logscan.example', password: wrong });
    await signInThroughProvider('ivy@logscan.example', ivyPassword);

    // An OAuth connect: GoCardless's authorise page sends the code back to the return route.
    // The server issues the state: a secret of the flow like the code.
    const start = (await (await api('POST', 'gocardless/authorise/start')).json()) as {
      url: string;
      state: string;
    };
    const state = keep('OAuth state', start.state);
    const authorisePage = await (await fetch(start.url)).text();
    const back = new URL(
      /<a href="([^"]+)">Authorise<\/a>/.exec(authorisePage)![1]!.replace(/&amp;/g, '&'),
    );
    const goCardlessCode = keep('GoCardless code', back.searchParams.get('code'));
    await fetch(back); // the browser opens the return route
    const complete = await api(
      'POST',
      `gocardless/authorise/complete?code=${goCardlessCode}&state=${encodeURIComponent(state)}`,
    );
    expect(complete.status, await complete.clone().text()).toBe(200);
    // A code and state used twice: refused, and the refusal is logged.
    await api(
      'POST',
      `gocardless/authorise/complete?code=${goCardlessCode}&state=${encodeURIComponent(state)}`,
    );

    // An access key, shown once, used by a connector.
    const created = (await (
      await api('POST', 'access-keys', {
        name: 'Log scan ERP',
        validUntil: new Date(Date.now() + 86_400_000).toISOString(),
      })
    ).json()) as { accessKey: string };
    const accessKey = keep('access key', created.accessKey);
    const machine = await fetch(`${config.publicUrl}/api/v0/data-sets/all`, {
      headers: { authorization: `Bearer ${accessKey}` },
    });
    expect(machine.status).toBe(200);

    // A pay link, opened and paid with the Sandbox card (a demo company's test provider).
    await makeDemoCompany({ database } as Parameters<typeof makeDemoCompany>[0], { tenantId });
    const sandbox = await api('POST', 'providers', {
      providerName: 'Sandbox',
      name: 'Card (test)',
      enabled: true,
      displayPriority: 1,
      isTest: true,
    });
    expect(sandbox.status, await sandbox.clone().text()).toBe(201);
    const who = { tenantId, userId } as Parameters<typeof insertAccount>[1];
    const ctx = { database } as Parameters<typeof insertAccount>[0];
    const accountId = await insertAccount(ctx, who, { name: 'Log Scan Customer' });
    const requestId = keep('pay-link id', await insertRequest(ctx, who, { accountId }));
    await fetch(`${config.publicUrl}/pay/${requestId}?utm=mail`);
    expect((await fetch(`${config.publicUrl}/api/v0/pay/${requestId}`)).status).toBe(200);
    const payment = await fetch(`${config.publicUrl}/api/v0/pay/${requestId}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ configurationId: ((await sandbox.json()) as { id: string }).id }),
    });
    expect(payment.status, await payment.clone().text()).toBe(201);
    const { paymentId } = (await payment.json()) as { paymentId: string };
    const paid = await fetch(
      `${config.publicUrl}/api/v0/pay/${requestId}/payments/${paymentId}/sandbox`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          cardholderName: 'Pat Payer',
          cardNumber: keep('card number', sandboxCards.succeeds),
          expiry: '12/30',
          cvc: '737',
        }),
      },
    );
    expect(paid.status, await paid.clone().text()).toBe(200);
    await fetch(`${config.publicUrl}/api/v0/pay/${requestId}/payments/${paymentId}`);

    // The log saw all of it: requests at trace level, with their addresses, redacted.
    expect(lines.length).toBeGreaterThan(50);
    const log = lines.join('\n');
    for (const [name, value] of secrets) {
      expect(log.includes(value), `the log shows the ${name}`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `the log shows the ${name}, encoded`).toBe(
        false,
      );
    }
    expect(lines.some((line) => line.includes('"url":"/api/v0/pay/[redacted]/payments"'))).toBe(
      true,
    );
    expect(
      lines.some((line) =>
        line.includes('"url":"/idp-login/set-password?token=[redacted]&redirect=[redacted]"'),
      ),
    ).toBe(true);
  }, 120_000);
});

describe('redactUrl', () => {
  it.each([
    ['/api/v0/users?page=2', '/api/v0/users?page=[redacted]'],
    [
      '/idp-login/set-password?token=abc&redirect=%2F',
      '/idp-login/set-password?token=[redacted]&redirect=[redacted]',
    ],
    [
      '/signin-callback?code=c0de&state=s&iss=http%3A%2F%2Fx',
      '/signin-callback?code=[redacted]&state=[redacted]&iss=[redacted]',
    ],
    ['/pay/0190c5b2-aaaa-7bbb-8ccc-123456789abc', '/pay/[redacted]'],
    ['/api/v0/pay/0190c5b2/payments/p1/sandbox', '/api/v0/pay/[redacted]/payments/p1/sandbox'],
    ['/idp-login/Xy12_ab', '/idp-login/[redacted]'],
    ['/idp-login/assets/login.css', '/idp-login/assets/login.css'],
    ['/idp/auth/Xy12_ab', '/idp/auth/[redacted]'],
    ['/api/v0/payment-requests/1', '/api/v0/payment-requests/1'],
    ['/stripe-connect/connect/oauth?code=ac_1#x', '/stripe-connect/connect/oauth?code=[redacted]'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
