import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { providerConnectionMessages as messages, secretSentinel } from '@ledgerline/contract';
import { users } from '../../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { showBetaProviders } from '../../../test/feature-gates.js';
import { startFakeOppwa, type FakeOppwa } from '../../../test/fakes/fake-oppwa.js';
import { startFakeTrueLayer, type FakeTrueLayer } from '../../../test/fakes/fake-truelayer.js';

/**
 * The connection tests of TrueLayer (a client-credentials token) and Total Processing / OPPWA
 * (a 1.00 GBP checkout, nothing charged), next to TranSafe's and Opayo's.
 */
let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let trueLayer: FakeTrueLayer;
let oppwa: FakeOppwa;

function call(who: SignedIn, url: string, payload: object) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    payload,
  });
}

async function create(who: SignedIn, body: object): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/providers',
    headers: who.headers({ 'dataset-id': '1' }),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

const trueLayerBody = (clientSecret: string) => ({
  providerName: 'TrueLayer',
  name: 'Bank transfer',
  enabled: true,
  displayPriority: 0,
  settings: {
    beneficiaryName: 'Ledgerline Ltd',
    beneficiaryReference: '{accountReference}',
    remitterReference: '{companyName}',
    beneficiaryBankAccount: { accountNumber: '12345678', sortCode: '123456' },
  },
  credentials: { clientId: trueLayer.clientId, clientSecret, useSandbox: true },
});
const oppwaBody = (accessToken: string) => ({
  providerName: 'Oppwa',
  name: 'Cards',
  enabled: true,
  displayPriority: 0,
  settings: {},
  credentials: { entityId: oppwa.entityId, accessToken, useSandbox: true },
});

beforeAll(async () => {
  [trueLayer, oppwa] = await Promise.all([startFakeTrueLayer(), startFakeOppwa()]);
  ctx = await buildTestApp({
    TRUELAYER_AUTH_SANDBOX_URL: trueLayer.url,
    TRUELAYER_PAY_SANDBOX_URL: trueLayer.url,
    // The live hosts: a closed local port (tests never reach a real provider).
    TRUELAYER_AUTH_LIVE_URL: 'http://127.0.0.1:9',
    TRUELAYER_PAY_LIVE_URL: 'http://127.0.0.1:9',
    OPPWA_TEST_URL: oppwa.url,
    OPPWA_LIVE_URL: oppwa.url,
  });
  merchant = await signIn(ctx, { tenantName: 'Connection Tests Ltd' });
  // TrueLayer is a beta kind: it needs ShowBetaPaymentProviders.
  await showBetaProviders(ctx, merchant);
  rival = await signIn(ctx, { tenantName: 'Rival Connection Tests Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Connection Tests Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([trueLayer.close(), oppwa.close()]);
});

describe('TrueLayer test connection', () => {
  it("a token is success; a wrong secret is TrueLayer's refusal; the stored secret stands in for the sentinel", async () => {
    const ok = await call(merchant, 'truelayer/admin/test-connection', {
      clientId: trueLayer.clientId,
      clientSecret: trueLayer.clientSecret,
      useSandbox: true,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: messages.connectionTested });
    const bad = await call(merchant, 'truelayer/admin/test-connection', {
      clientId: trueLayer.clientId,
      clientSecret: 'wrong',
      useSandbox: true,
    });
    expect(bad.json()).toEqual({
      success: false,
      message: 'TrueLayer refused the client credentials (invalid_client).',
    });
    const id = await create(merchant, trueLayerBody(trueLayer.clientSecret));
    const stored = await call(merchant, 'truelayer/admin/test-connection', {
      clientId: trueLayer.clientId,
      clientSecret: secretSentinel,
      useSandbox: true,
      paymentProviderId: id,
    });
    expect(stored.json()).toEqual({ success: true, message: messages.connectionTested });
    // Another tenant cannot test with this configuration's stored secret.
    const foreign = await call(rival, 'truelayer/admin/test-connection', {
      clientId: trueLayer.clientId,
      clientSecret: secretSentinel,
      useSandbox: true,
      paymentProviderId: id,
    });
    expect(foreign.statusCode).toBe(404);
    const missing = await call(merchant, 'truelayer/admin/test-connection', {
      clientId: '',
      clientSecret: 'x',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ clientId: ['Client ID is required.'] });
  });

  it('an unreachable TrueLayer is a failure the screen shows, not a 5xx', async () => {
    const live = await call(merchant, 'truelayer/admin/test-connection', {
      clientId: trueLayer.clientId,
      clientSecret: trueLayer.clientSecret,
      useSandbox: false,
    });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ success: false });
  });
});

describe('Total Processing (OPPWA) test connection', () => {
  it('000.200.100 is success; a wrong token is the provider description; the stored token stands in for the sentinel', async () => {
    const ok = await call(merchant, 'oppwa/admin/test-connection', {
      entityId: oppwa.entityId,
      accessToken: oppwa.accessToken,
      useSandbox: true,
    });
    expect(ok.json()).toEqual({ success: true, message: messages.connectionTested });
    const sent = oppwa.requests.at(-1)!;
    expect(Object.fromEntries(sent.form)).toEqual({
      entityId: oppwa.entityId,
      amount: '1.00',
      currency: 'GBP',
      paymentType: 'DB',
    });
    const bad = await call(merchant, 'oppwa/admin/test-connection', {
      entityId: oppwa.entityId,
      accessToken: 'wrong',
      useSandbox: true,
    });
    expect(bad.json()).toEqual({ success: false, message: 'invalid authentication information' });
    const id = await create(merchant, oppwaBody(oppwa.accessToken));
    const stored = await call(merchant, 'oppwa/admin/test-connection', {
      entityId: oppwa.entityId,
      accessToken: secretSentinel,
      useSandbox: true,
      paymentProviderId: id,
    });
    expect(stored.json()).toEqual({ success: true, message: messages.connectionTested });
    const foreign = await call(rival, 'oppwa/admin/test-connection', {
      entityId: oppwa.entityId,
      accessToken: secretSentinel,
      useSandbox: true,
      paymentProviderId: id,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('only staff who configure payment providers may test', async () => {
    for (const url of ['truelayer/admin/test-connection', 'oppwa/admin/test-connection']) {
      const body = url.startsWith('truelayer')
        ? { clientId: 'c', clientSecret: 's' }
        : { entityId: 'e', accessToken: 't' };
      expect((await call(viewer, url, body)).statusCode, url).toBe(403);
    }
  });
});
