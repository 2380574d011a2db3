import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { providerConnectionMessages as messages, secretSentinel } from '@ledgerline/contract';
import { users } from '../../db/schema.js';
import { paymentProviders, providerOAuthStates } from '../../db/schema-providers.js';
import { createSecretBox, parseSecretsKey } from '../../platform/secrets.js';
import { buildTestApp, cookiesOf, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { startFakeGoCardless, type FakeGoCardless } from '../../../test/fakes/fake-gocardless.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/fake-stripe.js';
import { startFakeTranSafe, type FakeTranSafe } from '../../../test/fakes/fake-transafe.js';

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

/** The state and address a start call issued to this caller. */
async function stripeStart(who: SignedIn, paymentProviderId: string | null) {
  const response = await call(who, 'POST', 'stripe/account/connect/start', { paymentProviderId });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { url: string; state: string };
}
async function goCardlessStart(who: SignedIn) {
  const response = await call(who, 'POST', 'gocardless/authorise/start');
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { url: string; state: string };
}
const stripeConnect = (who: SignedIn, code: string, state: string) =>
  call(
    who,
    'POST',
    `stripe/account/connect?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
  );
const goCardlessComplete = (who: SignedIn, code: string, state?: string) =>
  call(
    who,
    'POST',
    `gocardless/authorise/complete?code=${encodeURIComponent(code)}${state === undefined ? '' : `&state=${encodeURIComponent(state)}`}`,
  );

/** The same user signed in a second time: another session (another browser). */
async function secondSession(who: SignedIn): Promise<SignedIn> {
  const token = await ctx.oidc.token({ sub: `sub-${who.userId}`, email: who.email });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/login',
    payload: { accessToken: token },
  });
  expect(response.statusCode, response.body).toBe(204);
  const jar = cookiesOf(response);
  const cookie = Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  const xsrf = jar['XSRF-TOKEN']!;
  return {
    ...who,
    cookie,
    xsrf,
    headers: (extra = {}) => ({ cookie, 'x-xsrf-token': xsrf, ...extra }),
  };
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
  // The Sandbox test provider belongs to demo companies.
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
    const start = await stripeStart(merchant, null);
    // spec 3 §4: configuration id (empty) | 0 add | test | the server's random part.
    expect(start.state).toMatch(/^\|0\|test\|[A-Za-z0-9_-]{32}$/);
    expect(Object.fromEntries(new URL(start.url).searchParams)).toEqual({
      response_type: 'code',
      client_id: stripe.clientId,
      scope: 'read_write',
      state: start.state,
      redirect_uri: 'http://localhost:3000/stripe-connect/connect/oauth',
    });
    expect(start.url.startsWith(`${stripe.url}/oauth/authorize?`)).toBe(true);
    const back = await authorise(start.url, 'Connect my Stripe account');
    expect(back.pathname).toBe('/stripe-connect/connect/oauth');
    expect(back.searchParams.get('state')).toBe(start.state);
    const connected = await stripeConnect(
      merchant,
      back.searchParams.get('code')!,
      back.searchParams.get('state')!,
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
    // The state is spent: the same return again is refused before Stripe is asked.
    const tokenCalls = stripe.requests.filter((r) => r.path === '/oauth/token').length;
    const reused = await stripeConnect(merchant, back.searchParams.get('code')!, start.state);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({
      detail: messages.stateSpent,
      errorCode: 'AuthorisationStateRefused',
    });
    expect(stripe.requests.filter((r) => r.path === '/oauth/token').length).toBe(tokenCalls);
    // The code is spent too: with a fresh state, Stripe's invalid_grant comes back as the message.
    const again = await stripeConnect(
      merchant,
      back.searchParams.get('code')!,
      (await stripeStart(merchant, null)).state,
    );
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toMatch(/^Authorization code does not exist/);
  });

  it('a second account of the same name gets a counter', async () => {
    stripe.connectNext({ id: 'acct_1Shop000000002', displayName: 'Fake Shop Ltd' });
    const back = await authorise(
      (await stripeStart(merchant, null)).url,
      'Connect my Stripe account',
    );
    const connected = await stripeConnect(
      merchant,
      back.searchParams.get('code')!,
      back.searchParams.get('state')!,
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
    const startSandbox = await call(merchant, 'POST', 'stripe/account/connect/start', {
      paymentProviderId: sandbox.id,
    });
    expect(startSandbox.statusCode).toBe(400);
    expect(startSandbox.json().detail).toBe(messages.invalidProviderType);
    // A state the server did not issue (the old browser-made form) is refused.
    expect((await connect(`${sandbox.id}|1|test`)).json().detail).toBe(messages.stateMismatch);
    const edit = await stripeStart(merchant, connectedId);
    expect(edit.state.startsWith(`${connectedId}|1|test|`)).toBe(true);
    expect((await connect(edit.state, 'ac_unknown')).json().detail).toMatch(
      /Authorization code does not exist/,
    );
  });

  it('edit mode updates the account of an existing card-account-link configuration', async () => {
    stripe.connectNext({ id: 'acct_1Other0000003', displayName: 'Other Shop' });
    const back = await authorise(
      (await stripeStart(merchant, connectedId)).url,
      'Connect my Stripe account',
    );
    const connected = await stripeConnect(
      merchant,
      back.searchParams.get('code')!,
      back.searchParams.get('state')!,
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
        await call(rival, 'POST', 'stripe/account/connect/start', {
          paymentProviderId: connectedId,
        })
      ).statusCode,
    ).toBe(404);
    for (const [method, url, body] of [
      ['GET', 'stripe/keys', undefined],
      ['POST', 'stripe/account/connect/start', { paymentProviderId: null }],
      ['POST', 'stripe/account/connect?code=x&state=%7C0%7Ctest', undefined],
      ['POST', 'gocardless/authorise/start', undefined],
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
    const start = await goCardlessStart(merchant);
    expect(start.state).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const url = new URL(start.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: goCardless.clientId,
      scope: 'read_write',
      redirect_uri: 'http://localhost:3000/gocardless/connect/oauth',
      state: start.state,
    });
    const back = await authorise(start.url, 'Authorise');
    expect(back.searchParams.get('state')).toBe(start.state);
    const complete = await goCardlessComplete(
      merchant,
      back.searchParams.get('code')!,
      back.searchParams.get('state')!,
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
      await goCardlessComplete(merchant, 'nope', (await goCardlessStart(merchant)).state)
    ).json();
    expect(complete).toEqual({
      success: false,
      paymentProviderId: null,
      errorMessage: 'The authorization code is invalid or has expired.',
    });
  });
});

describe('authorisation state: issued by the server, bound to the session, spent once', () => {
  const refused = (response: { statusCode: number; json(): unknown }, detail: string) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail, errorCode: 'AuthorisationStateRefused' });
  };
  const tokenCalls = () => ({
    stripe: stripe.requests.filter((r) => r.path === '/oauth/token').length,
    goCardless: goCardless.requests.filter((r) => r.path === '/oauth/access_token').length,
  });

  it('a missing or never-issued state is refused, and the provider is never asked', async () => {
    const before = tokenCalls();
    // Stripe's state rules of spec 3 §5 come first: an empty state has fewer than 2 items.
    expect((await stripeConnect(merchant, 'ac_x', '')).json().detail).toBe(messages.stateTwoItems);
    refused(await stripeConnect(merchant, 'ac_x', '|0|test|made-up'), messages.stateMismatch);
    refused(await goCardlessComplete(merchant, 'code-x'), messages.stateMismatch);
    refused(await goCardlessComplete(merchant, 'code-x', ''), messages.stateMismatch);
    refused(await goCardlessComplete(merchant, 'code-x', 'made-up'), messages.stateMismatch);
    expect(tokenCalls()).toEqual(before);
  });

  it("another session's, another tenant's or the other provider's state is refused and stays usable by its own session", async () => {
    const other = await secondSession(merchant);
    const before = tokenCalls();
    const stripeState = (await stripeStart(merchant, null)).state;
    const goCardlessState = (await goCardlessStart(merchant)).state;
    refused(await stripeConnect(other, 'ac_x', stripeState), messages.stateMismatch);
    refused(await stripeConnect(rival, 'ac_x', stripeState), messages.stateMismatch);
    refused(await goCardlessComplete(other, 'code-x', goCardlessState), messages.stateMismatch);
    refused(await goCardlessComplete(rival, 'code-x', goCardlessState), messages.stateMismatch);
    // A GoCardless state does not complete a Stripe return (nor the reverse).
    refused(await goCardlessComplete(merchant, 'code-x', stripeState), messages.stateMismatch);
    expect(tokenCalls()).toEqual(before);
    // The refusals spent nothing: the session that started the GoCardless flow completes it.
    // (The fake's code is not tied to a state: a code from another start will do.)
    const code = (
      await authorise((await goCardlessStart(merchant)).url, 'Authorise')
    ).searchParams.get('code')!;
    const completed = await goCardlessComplete(merchant, code, goCardlessState);
    expect(completed.json()).toMatchObject({ success: true });
  });

  it('a reused state is refused', async () => {
    const start = await goCardlessStart(merchant);
    const code = (await authorise(start.url, 'Authorise')).searchParams.get('code')!;
    expect((await goCardlessComplete(merchant, code, start.state)).json()).toMatchObject({
      success: true,
    });
    const before = tokenCalls();
    refused(await goCardlessComplete(merchant, code, start.state), messages.stateSpent);
    expect(tokenCalls()).toEqual(before);
  });

  it('an expired state is refused', async () => {
    const stripeState = (await stripeStart(merchant, null)).state;
    const goCardlessState = (await goCardlessStart(merchant)).state;
    await ctx.database.db
      .update(providerOAuthStates)
      .set({ expiresOn: new Date(Date.now() - 1000) })
      .where(eq(providerOAuthStates.tenantId, merchant.tenantId));
    const before = tokenCalls();
    refused(await stripeConnect(merchant, 'ac_x', stripeState), messages.stateSpent);
    refused(await goCardlessComplete(merchant, 'code-x', goCardlessState), messages.stateSpent);
    expect(tokenCalls()).toEqual(before);
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
