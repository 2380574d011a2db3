import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { secretSentinel, type PaymentProviderEvent } from '@ledgerline/contract';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { users } from '../../db/schema.js';
import { paymentProviderEvents } from '../../db/schema-providers.js';
import { signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { createTestDatabase } from '../../../test/database.js';
import { startFakeOidcProvider } from '../../../test/fake-oidc.js';
import { startFakeGoCardless, type FakeGoCardless } from '../../../test/fakes/fake-gocardless.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/fake-stripe.js';
import { startFakeTranSafe, type FakeTranSafe } from '../../../test/fakes/fake-transafe.js';

// Every line the app logs, at the most verbose level, to grep for the secrets.
let logged = '';
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged += chunk.toString();
    done();
  },
});

const opayoPassword = 'Opayo-Admin-Pw-41c9';
const opayoWrongPassword = 'Opayo-Wrong-Pw-77e0';
const tranSafePassword = 'TranSafe-Pw-2b8d';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let stripe: FakeStripe;
let goCardless: FakeGoCardless;
let opayo: FakeOpayo;
let tranSafe: FakeTranSafe;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: SignedIn, method: Method, url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    payload,
  });

const eventsOf = async (id: string, query = '') => {
  const answer = await call(merchant, 'GET', `providers/${id}/events${query}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { items: PaymentProviderEvent[]; totalItems: number };
};

/** Follows the fake's authorise page as a browser would: the link back to our return route. */
async function authorise(authoriseUrl: string, linkText: string): Promise<URL> {
  const page = await (await fetch(authoriseUrl)).text();
  const link = new RegExp(`<a href="([^"]+)">${linkText}</a>`).exec(page);
  if (!link) throw new Error(`no '${linkText}' link on ${page}`);
  return new URL(link[1]!.replace(/&amp;/g, '&'));
}

/** Every stored provider event of a configuration, as one text to grep. */
async function storedText(): Promise<string> {
  const rows = await ctx.database.db.select().from(paymentProviderEvents);
  return JSON.stringify(rows);
}

beforeAll(async () => {
  [stripe, goCardless, opayo, tranSafe] = await Promise.all([
    startFakeStripe(),
    startFakeGoCardless(),
    startFakeOpayo(),
    startFakeTranSafe(),
  ]);
  const { database, dispose } = await createTestDatabase();
  const oidc = await startFakeOidcProvider();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'trace',
    PUBLIC_URL: 'http://localhost:3000',
    OIDC_ISSUER: oidc.issuer,
    OIDC_AUDIENCE: oidc.audience,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_CONNECT_CLIENT_ID: stripe.clientId,
    STRIPE_CONNECT_URL: stripe.url,
    STRIPE_API_URL: stripe.url,
    GOCARDLESS_CLIENT_ID: goCardless.clientId,
    GOCARDLESS_CLIENT_SECRET: goCardless.clientSecret,
    GOCARDLESS_CONNECT_URL: goCardless.url,
    GOCARDLESS_API_URL: goCardless.url,
    OPAYO_TEST_URL: opayo.url,
    OPAYO_LIVE_URL: opayo.url,
    OPAYO_SERVER_IP: '81.2.69.160',
    TRANSAFE_TEST_URL: tranSafe.url,
    TRANSAFE_LIVE_URL: tranSafe.url,
  });
  const app = await buildApp({
    config,
    database,
    webRoot: null,
    loggerInstance: pino({ level: 'trace' }, capture),
  });
  await app.ready();
  ctx = {
    app,
    database,
    config,
    oidc,
    close: async () => {
      await app.close();
      await oidc.close();
      await dispose();
    },
  };
  merchant = await signIn(ctx, { tenantName: 'Provider Events Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Provider Events Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Provider Events Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  opayo.vendors.set('ledgerline', new Map([['admin', { password: opayoPassword, admin: true }]]));
  tranSafe.users.set('test_retail|public', tranSafePassword);
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([stripe.close(), goCardless.close(), opayo.close(), tranSafe.close()]);
});

describe('a configuration keeps its provider exchanges as provider events', () => {
  let stripeId: string;

  it('Stripe: connect keeps the code exchange and the account read with the new configuration; a read and the disconnection add theirs', async () => {
    stripe.connectNext({ id: 'acct_1Events0000001', displayName: 'Events Shop Ltd' });
    const start = await call(merchant, 'POST', 'stripe/account/connect/start', {
      paymentProviderId: null,
    });
    const back = await authorise(start.json().url, 'Connect my Stripe account');
    const code = back.searchParams.get('code')!;
    const connected = await call(
      merchant,
      'POST',
      `stripe/account/connect?code=${code}&state=${encodeURIComponent(back.searchParams.get('state')!)}`,
    );
    expect(connected.statusCode, connected.body).toBe(200);
    stripeId = (connected.json() as { paymentProviderId: string }).paymentProviderId;

    const afterConnect = await eventsOf(stripeId);
    // Newest first: the account read followed the code exchange.
    expect(afterConnect.totalItems).toBe(2);
    expect(afterConnect.items.map((e) => [e.eventType, e.status])).toEqual([
      ['account.read', 'read'],
      ['oauth.token', 'connected'],
    ]);
    expect(afterConnect.items[0]).toMatchObject({
      paymentProviderId: stripeId,
      providerName: 'Stripe',
      recordType: 'account',
      recordId: 'acct_1Events0000001',
    });
    const token = JSON.parse(afterConnect.items[1]!.payload) as {
      request: { method: string; url: string; body: Record<string, string> };
      response: { status: number; body: string };
    };
    expect(token.request).toEqual({
      method: 'POST',
      url: `${stripe.url}/oauth/token`,
      body: { grant_type: 'authorization_code', code: '[kept sealed]' },
    });
    expect(token.response.status).toBe(200);
    expect(JSON.parse(token.response.body)).toMatchObject({
      stripe_user_id: 'acct_1Events0000001',
      access_token: '[kept sealed]',
      refresh_token: '[kept sealed]',
    });

    expect(
      (await call(merchant, 'GET', `stripe/payment-provider/${stripeId}/account`)).statusCode,
    ).toBe(200);
    const disconnected = await call(
      merchant,
      'POST',
      `stripe/payment-provider/${stripeId}/account/disconnect`,
    );
    expect(disconnected.statusCode, disconnected.body).toBe(204);
    const all = await eventsOf(stripeId);
    expect(all.items.map((e) => e.eventType)).toEqual([
      'oauth.deauthorize',
      'account.read',
      'account.read',
      'oauth.token',
    ]);
    expect(all.items[0]!.status).toBe('disconnected');

    // Paged like the other lists.
    const second = await eventsOf(stripeId, '?page=2&itemsPerPage=3');
    expect(second).toMatchObject({ totalItems: 4, items: [{ eventType: 'oauth.token' }] });
  });

  it('Stripe: a refused code of an existing configuration (edit mode) keeps the refusal alone', async () => {
    const { state } = (
      await call(merchant, 'POST', 'stripe/account/connect/start', { paymentProviderId: stripeId })
    ).json() as { state: string };
    const refused = await call(
      merchant,
      'POST',
      `stripe/account/connect?code=ac_refused&state=${encodeURIComponent(state)}`,
    );
    expect(refused.statusCode).toBe(400);
    const { items, totalItems } = await eventsOf(stripeId);
    expect(totalItems).toBe(5);
    expect(items[0]).toMatchObject({ eventType: 'oauth.token', status: 'http_400' });
    expect(JSON.parse(items[0]!.payload)).toMatchObject({
      request: { body: { code: '[kept sealed]' } },
      response: { status: 400 },
    });
  });

  it('GoCardless: the code exchange is kept with the configuration it added, and a creditor read', async () => {
    const start = (await call(merchant, 'POST', 'gocardless/authorise/start')).json() as {
      url: string;
    };
    const back = await authorise(start.url, 'Authorise');
    const complete = await call(
      merchant,
      'POST',
      `gocardless/authorise/complete?code=${back.searchParams.get('code')}&state=${back.searchParams.get('state')}`,
    );
    const { paymentProviderId } = complete.json() as { paymentProviderId: string };
    await call(merchant, 'GET', `gocardless/payment-provider/${paymentProviderId}/creditor`);
    const { items } = await eventsOf(paymentProviderId);
    expect(items.map((e) => [e.providerName, e.eventType])).toEqual([
      ['GoCardless', 'creditors.read'],
      ['GoCardless', 'oauth.token'],
    ]);
    const exchange = JSON.parse(items[1]!.payload) as {
      request: { body: Record<string, string> };
      response: { body: string };
    };
    expect(exchange.request.body).toMatchObject({
      client_id: goCardless.clientId,
      client_secret: '[kept sealed]',
    });
    expect(JSON.parse(exchange.response.body)).toMatchObject({
      access_token: '[kept sealed]',
      organisation_id: 'OR000FAKE0001',
    });
  });

  it('Opayo: test connections and the IP registration of a configuration, failing then passing, with the signature kept out', async () => {
    const created = await call(merchant, 'POST', 'providers', {
      providerName: 'Opayo',
      name: 'Opayo events',
      enabled: true,
      displayPriority: 0,
      settings: { useTestServer: true, integrationType: 'Server' },
      credentials: { vendorName: 'ledgerline', adminUser: 'admin', adminPassword: opayoPassword },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const test = (password: string, url = 'opayo/admin/test-connection') =>
      call(merchant, 'POST', url, {
        vendor: 'ledgerline',
        user: 'admin',
        password,
        useTestServer: true,
        paymentProviderId: id,
      });
    expect((await test(opayoWrongPassword)).json()).toMatchObject({ errorCode: '0010' });
    expect((await test(secretSentinel)).json()).toMatchObject({ success: true });
    expect((await test(opayoPassword, 'opayo/admin/register-ip')).json()).toMatchObject({
      success: true,
    });
    const { items } = await eventsOf(id);
    expect(items.map((e) => [e.eventType, e.status, e.recordId])).toEqual([
      ['addValidIPs', '0000', 'ledgerline'],
      ['version', '0000', 'ledgerline'],
      ['version', '0010', 'ledgerline'],
    ]);
    const sent = JSON.parse(items[2]!.payload) as {
      request: { body: { XML: string } };
      response: { body: string };
    };
    expect(sent.request.body.XML).toBe(
      '<vspaccess><command>version</command><vendor>ledgerline</vendor><user>admin</user><signature>[kept sealed]</signature></vspaccess>',
    );
    expect(sent.response.body).toContain('<errorcode>0010</errorcode>');
    // A test of a form not saved yet (no id) has no configuration to keep its exchange with.
    await call(merchant, 'POST', 'opayo/admin/test-connection', {
      vendor: 'ledgerline',
      user: 'admin',
      password: opayoPassword,
      useTestServer: true,
    });
    expect((await eventsOf(id)).totalItems).toBe(3);
  });

  it('TranSafe: a test connection of a configuration keeps its exchange; the password only travels in the header', async () => {
    const created = await call(merchant, 'POST', 'providers', {
      providerName: 'TranSafe',
      name: 'TranSafe events',
      enabled: true,
      displayPriority: 0,
      settings: { useTestSite: false },
      credentials: { userName: 'test_retail:public', password: tranSafePassword },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const tested = await call(merchant, 'POST', 'transafe/admin/test-connection', {
      userName: 'test_retail:public',
      password: secretSentinel,
      useTestServer: false,
      paymentProviderId: id,
    });
    expect(tested.json()).toMatchObject({ success: true });
    const { items } = await eventsOf(id);
    expect(items).toMatchObject([{ eventType: 'user.permissions', status: 'auth' }]);
  });

  it('no secret is in a stored event or a log line', async () => {
    expect(logged).toContain('stripe/account/connect');
    const stored = await storedText();
    const secrets = [
      stripe.secretKey,
      goCardless.clientSecret,
      opayoPassword,
      opayoWrongPassword,
      tranSafePassword,
      // The Opayo signature's input ends with the password element.
      `<password>${opayoPassword}</password>`,
      Buffer.from(`test_retail|public:${tranSafePassword}`).toString('base64'),
    ];
    for (const secret of secrets) {
      expect(stored, secret).not.toContain(secret);
      expect(logged, secret).not.toContain(secret);
    }
    // The tokens the providers issued (Stripe's connected-account keys, GoCardless's token).
    for (const pattern of [/sk_test_connected_/, /"rt_[0-9a-f]/, /live_[0-9a-f]{32}/]) {
      expect(stored).not.toMatch(pattern);
      expect(logged).not.toMatch(pattern);
    }
    const count = await ctx.database.db.execute(
      sql`select count(*)::int as n from payment_provider_events`,
    );
    expect((count as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeGreaterThan(8);
  });

  it('the list is in the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v0/openapi.json' })).json();
    expect(document.paths['/api/v0/providers/{id}/events']?.get).toBeDefined();
  });

  it('another tenant gets 404 for the list, a Viewer 403', async () => {
    const other = await call(rival, 'GET', `providers/${stripeId}/events`);
    expect(other.statusCode).toBe(404);
    expect((await call(viewer, 'GET', `providers/${stripeId}/events`)).statusCode).toBe(403);
  });
});
