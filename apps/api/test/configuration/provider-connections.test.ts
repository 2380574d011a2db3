import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { providerConnectionMessages as messages, secretSentinel } from '@ledgerline/contract';
import { users } from '../../src/db/schema.js';
import { paymentProviders } from '../../src/db/schema-providers.js';
import { createSecretBox, parseSecretsKey } from '../../src/platform/secrets.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../app.js';
import { makeDemoCompany } from '../feature-gates.js';
import { startFakeGoCardless, type FakeGoCardless } from '../fakes/fake-gocardless.js';
import { startFakeOpayo, type FakeOpayo } from '../fakes/fake-opayo.js';
import { startFakeStripe, type FakeStripe } from '../fakes/fake-stripe.js';
import { startFakeTranSafe, type FakeTranSafe } from '../fakes/fake-transafe.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let stripe: FakeStripe;
let goCardless: FakeGoCardless;
let opayo: FakeOpayo;
let tranSafe: FakeTranSafe;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(who: SignedIn, method: Method, url: string, payload?: object, datasetId = 1) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': String(datasetId) }),
    payload,
  });
}

/** Follows the fake's authorise page as a browser would: the link back to our return route. */
async function authorise(authoriseUrl: string, linkText: string): Promise<URL> {
  const page = await (await fetch(authoriseUrl)).text();
  const link = new RegExp(`<a href="([^"]+)">${linkText}</a>`).exec(page);
  if (!link) throw new Error(`no '${linkText}' link on ${page}`);
  return new URL(link[1]!.replace(/&amp;/g, '&'));
}

async function stored(tenantId: string, id: string) {
  const [row] = await ctx.database.db
    .select()
    .from(paymentProviders)
    .where(and(eq(paymentProviders.tenantId, tenantId), eq(paymentProviders.id, id)));
  return JSON.parse(
    createSecretBox(parseSecretsKey(ctx.config.SECRETS_KEY!)).open(row!.credentialsSealed),
  ) as Record<string, unknown>;
}

beforeAll(async () => {
  [stripe, goCardless, opayo, tranSafe] = await Promise.all([
    startFakeStripe(),
    startFakeGoCardless(),
    startFakeOpayo(),
    startFakeTranSafe(),
  ]);
  ctx = await buildTestApp({
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
  merchant = await signIn(ctx, { tenantName: 'Connections Ltd' });
  // The Sandbox test provider belongs to demo companies (issue 20).
  await makeDemoCompany(ctx, merchant);
  rival = await signIn(ctx, { tenantName: 'Rival Connections Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Connections Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  opayo.vendors.set(
    'ledgerline',
    new Map([
      ['admin', { password: 'Opayo-Admin-1', admin: true }],
      ['clerk', { password: 'Clerk-1', admin: false }],
    ]),
  );
  tranSafe.users.set('test_retail|public', 'publ1ct3st');
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([stripe.close(), goCardless.close(), opayo.close(), tranSafe.close()]);
});

describe('Stripe Connect', () => {
  let connectedId: string;

  it('keys: test mode from the platform key, and the Connect client id', async () => {
    expect((await call(merchant, 'GET', 'stripe/keys')).json()).toEqual({
      isTestMode: true,
      connectClientId: stripe.clientId,
      authoriseUrl: `${stripe.url}/oauth/authorize`,
    });
  });

  it('add mode: the authorise page returns a code; a configuration named after the account is added (and becomes the default)', async () => {
    stripe.connectNext({ id: 'acct_1Shop000000001', displayName: 'Fake Shop Ltd' });
    const authoriseUrl = `${stripe.url}/oauth/authorize?response_type=code&client_id=${stripe.clientId}&scope=read_write&state=${encodeURIComponent('|0|test|nonce')}&redirect_uri=${encodeURIComponent('http://localhost:3000/stripe-connect/connect/oauth')}`;
    const back = await authorise(authoriseUrl, 'Connect my Stripe account');
    expect(back.pathname).toBe('/stripe-connect/connect/oauth');
    const connected = await call(
      merchant,
      'POST',
      `stripe/account/connect?code=${back.searchParams.get('code')}&state=${encodeURIComponent(back.searchParams.get('state')!)}`,
    );
    expect(connected.statusCode, connected.body).toBe(200);
    const body = connected.json() as {
      paymentProviderId: string;
      account: { id: string; displayName: string };
    };
    expect(body.account).toEqual({ id: 'acct_1Shop000000001', displayName: 'Fake Shop Ltd' });
    connectedId = body.paymentProviderId;
    const provider = (await call(merchant, 'GET', `providers/${connectedId}`)).json();
    expect(provider).toMatchObject({
      providerName: 'Stripe',
      name: 'Fake Shop Ltd',
      enabled: true,
      isTest: true,
      isDefault: true,
      settings: {
        useStripeCustomer: true,
        storePayerPaymentMethod: true,
        saveCardOptionDefault: true,
      },
      credentials: { stripeAccountId: 'acct_1Shop000000001', connectClientId: stripe.clientId },
    });
    // The code is spent: Stripe's invalid_grant comes back as the message.
    const again = await call(
      merchant,
      'POST',
      `stripe/account/connect?code=${back.searchParams.get('code')}&state=${encodeURIComponent('|0|test')}`,
    );
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toMatch(/^Authorization code does not exist/);
  });

  it('a second account of the same name gets a counter', async () => {
    stripe.connectNext({ id: 'acct_1Shop000000002', displayName: 'Fake Shop Ltd' });
    const back = await authorise(
      `${stripe.url}/oauth/authorize?response_type=code&client_id=${stripe.clientId}&scope=read_write&state=x&redirect_uri=http://localhost:3000/r`,
      'Connect my Stripe account',
    );
    const connected = await call(
      merchant,
      'POST',
      `stripe/account/connect?code=${back.searchParams.get('code')}&state=${encodeURIComponent('|0|test')}`,
    );
    const provider = (
      await call(merchant, 'GET', `providers/${connected.json().paymentProviderId}`)
    ).json();
    expect(provider.name).toBe('Fake Shop Ltd 2');
  });

  it('the state and mode rules of spec 3 §5', async () => {
    const connect = (state: string, code = 'ac_unused') =>
      call(
        merchant,
        'POST',
        `stripe/account/connect?code=${code}&state=${encodeURIComponent(state)}`,
      );
    expect((await connect('only-one')).json().detail).toBe(messages.stateTwoItems);
    expect((await connect('|0|live')).json().detail).toBe(messages.testModeMismatch);
    const sandbox = (
      await call(merchant, 'POST', 'providers', {
        providerName: 'Sandbox',
        name: 'Not Stripe',
        enabled: true,
        displayPriority: 0,
      })
    ).json();
    expect((await connect(`${sandbox.id}|1|test`)).json().detail).toBe(
      messages.invalidProviderType,
    );
    expect((await connect(`${connectedId}|1|test`, 'ac_unknown')).json().detail).toMatch(
      /Authorization code does not exist/,
    );
  });

  it('edit mode updates the account of an existing card-account-link configuration', async () => {
    stripe.connectNext({ id: 'acct_1Other0000003', displayName: 'Other Shop' });
    const back = await authorise(
      `${stripe.url}/oauth/authorize?response_type=code&client_id=${stripe.clientId}&scope=read_write&state=x&redirect_uri=http://localhost:3000/r`,
      'Connect my Stripe account',
    );
    const connected = await call(
      merchant,
      'POST',
      `stripe/account/connect?code=${back.searchParams.get('code')}&state=${encodeURIComponent(`${connectedId}|1|test`)}`,
    );
    expect(connected.json().paymentProviderId).toBe(connectedId);
    expect((await stored(merchant.tenantId, connectedId)).stripeAccountId).toBe(
      'acct_1Other0000003',
    );
  });

  it('account: the connected account, its flags, and valid false once access is revoked', async () => {
    stripe.accounts.set('acct_1Other0000003', {
      id: 'acct_1Other0000003',
      displayName: 'Other Shop',
      cardPayments: 'inactive',
      legacy: true,
      defaultCurrency: 'eur',
    });
    const account = (
      await call(merchant, 'GET', `stripe/payment-provider/${connectedId}/account`)
    ).json();
    expect(account).toEqual({
      valid: true,
      id: 'acct_1Other0000003',
      displayName: 'Other Shop',
      defaultCurrency: 'EUR',
      isLegacyAccount: true,
      isTestMode: true,
      capabilities: { cardPayments: 'inactive' },
    });
    stripe.deauthorized.add('acct_1Other0000003');
    expect(
      (await call(merchant, 'GET', `stripe/payment-provider/${connectedId}/account`)).json(),
    ).toMatchObject({ valid: false, id: 'acct_1Other0000003' });
    stripe.deauthorized.delete('acct_1Other0000003');
  });

  it('disconnect deauthorises at Stripe, then clears the account id', async () => {
    const response = await call(
      merchant,
      'POST',
      `stripe/payment-provider/${connectedId}/account/disconnect`,
    );
    expect(response.statusCode, response.body).toBe(204);
    expect(stripe.deauthorized.has('acct_1Other0000003')).toBe(true);
    const deauthorize = stripe.requests.filter((r) => r.path === '/oauth/deauthorize').at(-1)!;
    expect(Object.fromEntries(deauthorize.form)).toEqual({
      client_id: stripe.clientId,
      stripe_user_id: 'acct_1Other0000003',
    });
    expect(
      (await call(merchant, 'GET', `providers/${connectedId}`)).json().credentials.stripeAccountId,
    ).toBeNull();
    const notConnected = await call(
      merchant,
      'GET',
      `stripe/payment-provider/${connectedId}/account`,
    );
    expect(notConnected.statusCode).toBe(409);
    expect(notConnected.json()).toMatchObject({
      detail: messages.notConnected,
      errorCode: 'StripeNotConnected',
    });
  });

  it('another tenant or company gets 404; a Viewer gets 403', async () => {
    for (const [url, method] of [
      [`stripe/payment-provider/${connectedId}/account`, 'GET'],
      [`stripe/payment-provider/${connectedId}/account/disconnect`, 'POST'],
      [`gocardless/payment-provider/${connectedId}/creditor`, 'GET'],
    ] as const) {
      expect((await call(rival, method, url)).statusCode, url).toBe(404);
    }
    expect(
      (
        await call(
          rival,
          'POST',
          `stripe/account/connect?code=x&state=${encodeURIComponent(`${connectedId}|1|test`)}`,
        )
      ).statusCode,
    ).toBe(404);
    for (const [method, url, body] of [
      ['GET', 'stripe/keys', undefined],
      ['POST', 'stripe/account/connect?code=x&state=%7C0%7Ctest', undefined],
      ['GET', 'gocardless/authorise/start?state=abc', undefined],
      ['POST', 'gocardless/authorise/complete?code=x', undefined],
      ['POST', 'transafe/admin/test-connection', { userName: 'u', password: 'p' }],
      ['POST', 'opayo/admin/test-connection', { vendor: 'v', user: 'u', password: 'p' }],
      ['POST', 'opayo/admin/register-ip', { vendor: 'v', user: 'u', password: 'p' }],
    ] as const) {
      expect((await call(viewer, method, url, body)).statusCode, url).toBe(403);
    }
  });
});

describe('GoCardless', () => {
  it('start → authorise page → complete adds the configuration; the creditor is in review', async () => {
    const start = (
      await call(merchant, 'GET', 'gocardless/authorise/start?state=nonce-1')
    ).json() as { url: string };
    const url = new URL(start.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: goCardless.clientId,
      scope: 'read_write',
      redirect_uri: 'http://localhost:3000/gocardless/connect/oauth',
      state: 'nonce-1',
    });
    const back = await authorise(start.url, 'Authorise');
    expect(back.searchParams.get('state')).toBe('nonce-1');
    const complete = await call(
      merchant,
      'POST',
      `gocardless/authorise/complete?code=${back.searchParams.get('code')}`,
      undefined,
      1,
    );
    expect(complete.statusCode, complete.body).toBe(200);
    const result = complete.json() as {
      success: boolean;
      paymentProviderId: string;
      errorMessage: null;
    };
    expect(result).toMatchObject({ success: true, errorMessage: null });
    const provider = (await call(merchant, 'GET', `providers/${result.paymentProviderId}`)).json();
    expect(provider).toMatchObject({
      providerName: 'GoCardless',
      name: 'GoCardless',
      isTest: true,
      credentials: { organisationId: 'OR000FAKE0001' },
    });
    expect(JSON.stringify(provider)).not.toContain('live_');
    expect(
      provider.paymentMethodConfigurations.map(
        (m: { paymentMethodType: string }) => m.paymentMethodType,
      ),
    ).toEqual(['BankDebit', 'BankTransfer']);
    expect((await stored(merchant.tenantId, result.paymentProviderId)).accessToken).toMatch(
      /^live_/,
    );
    const creditor = (
      await call(
        merchant,
        'GET',
        `gocardless/payment-provider/${result.paymentProviderId}/creditor`,
      )
    ).json();
    expect(creditor).toEqual({
      organisationId: 'OR000FAKE0001',
      name: 'Fake Direct Debit Ltd',
      status: 'InReview',
      verifyUrl: null,
    });
    goCardless.organisation.verificationStatus = 'action_required';
    expect(
      (
        await call(
          merchant,
          'GET',
          `gocardless/payment-provider/${result.paymentProviderId}/creditor`,
        )
      ).json(),
    ).toMatchObject({
      status: 'ActionRequired',
      verifyUrl: 'https://verify-sandbox.gocardless.com',
    });
    expect(
      (await call(rival, 'GET', `gocardless/payment-provider/${result.paymentProviderId}/creditor`))
        .statusCode,
    ).toBe(404);
  });

  it('a bad code answers success false with the message', async () => {
    const complete = (
      await call(merchant, 'POST', 'gocardless/authorise/complete?code=nope')
    ).json();
    expect(complete).toEqual({
      success: false,
      paymentProviderId: null,
      errorMessage: 'The authorization code is invalid or has expired.',
    });
  });
});

describe('connection tests', () => {
  const opayoTest = (body: object, url = 'opayo/admin/test-connection') =>
    call(merchant, 'POST', url, { useTestServer: true, ...body });

  it('Opayo: 0008, 0010, 0011 and 3002 as Opayo answers them; success with the right password', async () => {
    expect(
      (await opayoTest({ vendor: 'ledgerline', user: 'nobody', password: 'x' })).json(),
    ).toMatchObject({ success: false, errorCode: '0008' });
    expect(
      (await opayoTest({ vendor: 'ledgerline', user: 'admin', password: 'wrong' })).json(),
    ).toMatchObject({ success: false, errorCode: '0010', detail: 'The signature is invalid.' });
    expect(
      (await opayoTest({ vendor: 'ledgerline', user: 'clerk', password: 'Clerk-1' })).json(),
    ).toMatchObject({ success: false, errorCode: '0011' });
    expect(
      (await opayoTest({ vendor: 'bad vendor!', user: 'admin', password: 'x' })).json(),
    ).toMatchObject({ success: false, errorCode: '3002' });
    expect(
      (await opayoTest({ vendor: 'ledgerline', user: 'admin', password: 'Opayo-Admin-1' })).json(),
    ).toEqual({ success: true, errorCode: null, detail: null });
    // The password never travels: only its signature.
    for (const request of opayo.requests) expect(request.body).not.toContain('Opayo-Admin-1');
  });

  it('Opayo: the sentinel tests the stored password of the configuration', async () => {
    const created = (
      await call(merchant, 'POST', 'providers', {
        providerName: 'Opayo',
        name: 'Opayo server',
        enabled: true,
        displayPriority: 0,
        settings: { useTestServer: true, integrationType: 'Server' },
        credentials: {
          vendorName: 'ledgerline',
          adminUser: 'admin',
          adminPassword: 'Opayo-Admin-1',
        },
      })
    ).json();
    expect(
      (
        await opayoTest({
          vendor: 'ledgerline',
          user: 'admin',
          password: secretSentinel,
          paymentProviderId: created.id,
        })
      ).json(),
    ).toMatchObject({ success: true });
    expect(
      (
        await call(rival, 'POST', 'opayo/admin/test-connection', {
          vendor: 'ledgerline',
          user: 'admin',
          password: secretSentinel,
          paymentProviderId: created.id,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('Opayo: register-ip sends the zero-padded address', async () => {
    expect(
      (
        await opayoTest(
          { vendor: 'ledgerline', user: 'admin', password: 'Opayo-Admin-1' },
          'opayo/admin/register-ip',
        )
      ).json(),
    ).toEqual({ success: true, errorCode: null, detail: null });
    expect(opayo.registeredIps.at(-1)).toEqual({
      vendor: 'ledgerline',
      address: '081.002.069.160',
      mask: '255.255.255.255',
    });
    expect(
      (
        await opayoTest(
          { vendor: 'ledgerline', user: 'admin', password: 'nope' },
          'opayo/admin/register-ip',
        )
      ).json(),
    ).toMatchObject({ success: false, errorCode: '0010' });
  });

  it('TranSafe: AUTH is success, a wrong password is the provider verbiage', async () => {
    const ok = await call(merchant, 'POST', 'transafe/admin/test-connection', {
      userName: 'test_retail:public',
      password: 'publ1ct3st',
      useTestServer: true,
    });
    expect(ok.json()).toEqual({ success: true, message: messages.connectionTested });
    const bad = await call(merchant, 'POST', 'transafe/admin/test-connection', {
      userName: 'test_retail:public',
      password: 'wrong',
      useTestServer: true,
    });
    expect(bad.json()).toEqual({ success: false, message: 'Invalid username or password' });
    const missing = await call(merchant, 'POST', 'transafe/admin/test-connection', {
      userName: '',
      password: 'x',
    });
    expect(missing.json().errors).toEqual({ userName: ['User name is required.'] });
  });
});
