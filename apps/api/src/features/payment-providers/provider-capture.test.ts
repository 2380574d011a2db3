import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { paymentTransactions, providerEvents } from '../../db/schema-receivables.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { createSecretBox, parseSecretsKey } from '../../platform/secrets.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { setFeatureFlag } from '../../../test/feature-gates.js';
import { opayoServerUnsupported } from '../../providers/opayo/opayo.adapter.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { startFakeOppwa, type FakeOppwa } from '../../../test/fakes/fake-oppwa.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/fake-stripe.js';
import { startFakeTranSafe, type FakeTranSafe } from '../../../test/fakes/fake-transafe.js';

let ctx: TestContext;
let merchant: SignedIn;
let stripe: FakeStripe;
let oppwa: FakeOppwa;
let tranSafe: FakeTranSafe;
let opayo: FakeOpayo;
const configurations: Record<'Stripe' | 'Oppwa' | 'TranSafe' | 'Opayo', string> = {
  Stripe: '',
  Oppwa: '',
  TranSafe: '',
  Opayo: '',
};
let pending: (typeof paymentTransactions.$inferSelect)[] = [];

const act = (id: string, action: 'capture' | 'cancel', payload: object = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/payment-transactions/${id}/pending/${action}`,
    headers: merchant.headers({ 'dataset-id': '1' }),
    payload,
  });

async function create(body: object) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/providers',
    headers: merchant.headers({ 'dataset-id': '1' }),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

/**
 * A pending payment of the merchant, made a payment through `provider` with `reference`. The demo
 * data gave it the Sandbox provider's authorisation event; a payment of `provider` has none yet.
 */
async function through(provider: keyof typeof configurations | 'StripeWithout', reference: string) {
  const payment = pending.shift()!;
  const name = provider === 'StripeWithout' ? 'Stripe' : provider;
  const id = provider === 'StripeWithout' ? null : configurations[provider];
  await ctx.database.withTenant(merchant.tenantId, async (tx) => {
    await tx
      .update(paymentTransactions)
      .set({
        paymentProviderName: name,
        paymentProviderId: id,
        paymentProviderReference: reference,
        currency: 'GBP',
        totalAmount: '120.0000',
      })
      .where(eq(paymentTransactions.id, payment.id));
    await tx.delete(providerEvents).where(eq(providerEvents.paymentTransactionId, payment.id));
  });
  return payment.id;
}

async function events(id: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/provider-events/records/${id}`,
    headers: merchant.headers({ 'dataset-id': '1' }),
  });
  const items = (
    response.json() as {
      items: { id: string; providerName: string; eventType: string; status: string }[];
    }
  ).items;
  const payloads = await Promise.all(
    items.map(
      async (item) =>
        (
          await ctx.app.inject({
            method: 'GET',
            url: `/api/v0/provider-events/payloads?id=${item.id}`,
            headers: merchant.headers({ 'dataset-id': '1' }),
          })
        ).body,
    ),
  );
  return { items, payloads };
}

beforeAll(async () => {
  [stripe, oppwa, tranSafe, opayo] = await Promise.all([
    startFakeStripe(),
    startFakeOppwa(),
    startFakeTranSafe(),
    startFakeOpayo(),
  ]);
  ctx = await buildTestApp({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_URL: stripe.url,
    OPPWA_TEST_URL: oppwa.url,
    OPPWA_LIVE_URL: oppwa.url,
    TRANSAFE_TEST_URL: tranSafe.url,
    TRANSAFE_LIVE_URL: tranSafe.url,
    OPAYO_TEST_URL: opayo.url,
    OPAYO_LIVE_URL: opayo.url,
    OPAYO_SERVER_IP: '81.2.69.160',
  });
  merchant = await signIn(ctx, { tenantName: 'Capture Ltd' });
  // Opayo's integrated form needs the OpayoPi flag (spec 3 §3).
  await setFeatureFlag(ctx, 'OpayoPi', true);
  await ctx.database.withTenant(merchant.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: merchant.tenantId, datasetId: 1 },
      // Pending payments come only from Reserve requests (request 2 of 2 here), paid in instalments
      // of which 1 in 12 is Pending: its 200 attempts give 17, the 14 below need.
      { accounts: 4, transactions: 6, paymentRequests: 2, paymentTransactions: 400, banks: 0 },
    ),
  );
  pending = await ctx.database.withTenant(merchant.tenantId, (tx) =>
    tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, merchant.tenantId),
          eq(paymentTransactions.status, 'Pending'),
        ),
      ),
  );
  expect(pending.length).toBeGreaterThanOrEqual(14);

  configurations.Oppwa = await create({
    providerName: 'Oppwa',
    name: 'Cards',
    enabled: true,
    displayPriority: 0,
    credentials: { entityId: oppwa.entityId, accessToken: oppwa.accessToken, useSandbox: true },
  });
  tranSafe.users.set('merchant|api', 'TranSafe-Password-1');
  configurations.TranSafe = await create({
    providerName: 'TranSafe',
    name: 'Gateway',
    enabled: true,
    displayPriority: 0,
    settings: { useTestSite: false },
    credentials: { userName: 'merchant:api', password: 'TranSafe-Password-1' },
  });
  opayo.integrations.set('pi-integration-key', 'Pi-Password-1');
  // An Opayo Server save registers the IP address with the admin credentials first (spec 3 §4).
  opayo.vendors.set('ledgerline', new Map([['admin', { password: 'Admin-1', admin: true }]]));
  configurations.Opayo = await create({
    providerName: 'Opayo',
    name: 'Opayo Pi',
    enabled: true,
    displayPriority: 0,
    settings: { useTestServer: true, integrationType: 'Pi' },
    credentials: {
      vendorName: 'ledgerline',
      adminUser: 'admin',
      adminPassword: 'x',
      integrationKey: 'pi-integration-key',
      integrationPassword: 'Pi-Password-1',
    },
  });
  configurations.Stripe = await create({
    providerName: 'Stripe',
    name: 'Stripe cards',
    enabled: true,
    displayPriority: 0,
  });
  // The account a Stripe Connect authorisation would have stored (provider-connections.test.ts).
  const box = createSecretBox(parseSecretsKey(ctx.config.SECRETS_KEY!));
  await ctx.database.db
    .update(paymentProviders)
    .set({
      credentialsSealed: box.seal(
        JSON.stringify({ stripeAccountId: 'acct_1Capture000001', connectClientId: 'ca_x' }),
      ),
    })
    .where(eq(paymentProviders.id, configurations.Stripe));
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([stripe.close(), oppwa.close(), tranSafe.close(), opayo.close()]);
});

describe('capture and cancel through the providers that reserve then capture', () => {
  it('Stripe: captures part of a manual PaymentIntent on the connected account, once', async () => {
    stripe.paymentIntents.set('pi_capture_1', {
      id: 'pi_capture_1',
      account: 'acct_1Capture000001',
      amount: 12000,
      currency: 'gbp',
      status: 'requires_capture',
      amountReceived: 0,
    });
    const id = await through('Stripe', 'pi_capture_1');
    const response = await act(id, 'capture', { amountToCapture: 100.5 });
    expect(response.json()).toMatchObject({
      isError: false,
      errorMessage: null,
      paymentTransaction: { status: 'Paid', totalAmount: 100.5 },
    });
    expect(stripe.paymentIntents.get('pi_capture_1')).toMatchObject({
      status: 'succeeded',
      amountReceived: 10050,
    });
    const sent = stripe.requests.filter(
      (r) => r.path === '/v1/payment_intents/pi_capture_1/capture',
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['stripe-account']).toBe('acct_1Capture000001');
    expect(sent[0]!.headers['idempotency-key']).toBe(`${id}-capture-10050`);
    const recorded = await events(id);
    expect(recorded.items).toMatchObject([
      { providerName: 'Stripe', eventType: 'payment_intent.capture', status: 'succeeded' },
    ]);
    expect(recorded.payloads[0]).toContain('"status": 200');
    expect(recorded.payloads[0]).not.toContain(stripe.secretKey);
  });

  it('Stripe: a lost answer is retried once with the same Idempotency-Key and captured once', async () => {
    stripe.paymentIntents.set('pi_lost', {
      id: 'pi_lost',
      account: 'acct_1Capture000001',
      amount: 12000,
      currency: 'gbp',
      status: 'requires_capture',
      amountReceived: 0,
    });
    const id = await through('Stripe', 'pi_lost');
    stripe.loseNextAnswer();
    const response = await act(id, 'capture', { amountToCapture: 120 });
    expect(response.json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Paid' },
    });
    const sent = stripe.requests.filter((r) => r.path === '/v1/payment_intents/pi_lost/capture');
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`${id}-capture-12000`]),
    );
    expect(stripe.paymentIntents.get('pi_lost')).toMatchObject({
      status: 'succeeded',
      amountReceived: 12000,
    });
  });

  it("Stripe: the provider's refusal is the answer and the payment stays pending", async () => {
    stripe.paymentIntents.set('pi_done', {
      id: 'pi_done',
      account: 'acct_1Capture000001',
      amount: 12000,
      currency: 'gbp',
      status: 'succeeded',
      amountReceived: 12000,
    });
    const id = await through('Stripe', 'pi_done');
    const response = await act(id, 'cancel');
    expect(response.json()).toMatchObject({
      isError: true,
      errorMessage:
        'This PaymentIntent could not be canceled because it has a status of succeeded.',
      paymentTransaction: { status: 'Pending' },
    });
    expect((await events(id)).items).toMatchObject([
      { eventType: 'payment_intent.cancel', status: 'payment_intent_unexpected_state' },
    ]);
  });

  it('Stripe: a payment whose configuration is gone is not sent', async () => {
    const id = await through('StripeWithout', 'pi_orphan');
    const response = await act(id, 'cancel');
    expect(response.json()).toMatchObject({
      isError: true,
      errorMessage: "The payment's Stripe configuration is missing or not connected.",
      paymentTransaction: { status: 'Pending' },
    });
    expect(stripe.requests.some((r) => r.path.includes('pi_orphan'))).toBe(false);
  });

  it('OPPWA: CP captures the PA with the amount and currency; RV reverses another', async () => {
    oppwa.payments.set('8ac7a4a1PA000001', { amount: '120.00', currency: 'GBP', status: 'PA' });
    oppwa.payments.set('8ac7a4a1PA000002', { amount: '120.00', currency: 'GBP', status: 'PA' });
    const captured = await through('Oppwa', '8ac7a4a1PA000001');
    expect((await act(captured, 'capture', { amountToCapture: 92 })).json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Paid', totalAmount: 92 },
    });
    const cp = oppwa.requests.find((r) => r.path === '/v1/payments/8ac7a4a1PA000001')!;
    expect(Object.fromEntries(cp.form)).toEqual({
      entityId: oppwa.entityId,
      amount: '92.00',
      currency: 'GBP',
      paymentType: 'CP',
    });
    const reversed = await through('Oppwa', '8ac7a4a1PA000002');
    expect((await act(reversed, 'cancel')).json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Cancelled' },
    });
    expect(oppwa.payments.get('8ac7a4a1PA000002')!.status).toBe('RV');
    const recorded = await events(reversed);
    expect(recorded.items).toMatchObject([
      { providerName: 'Oppwa', eventType: 'payment.reversal', status: '000.100.110' },
    ]);
    expect(recorded.payloads[0]).not.toContain(oppwa.accessToken);
    // A PA already reversed: OPPWA's own description comes back.
    const again = await through('Oppwa', '8ac7a4a1PA000002');
    expect((await act(again, 'capture', { amountToCapture: 1 })).json()).toMatchObject({
      isError: true,
      errorMessage: 'cannot reverse or capture an already captured or reversed transaction',
    });
  });

  it('TranSafe: completes a preauth, reverses another', async () => {
    tranSafe.transactions.set('9000001', { amount: '120.00', status: 'preauth' });
    tranSafe.transactions.set('9000002', { amount: '120.00', status: 'preauth' });
    const completed = await through('TranSafe', '9000001');
    expect((await act(completed, 'capture', { amountToCapture: 60.25 })).json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Paid' },
    });
    expect(tranSafe.transactions.get('9000001')).toEqual({ amount: '60.25', status: 'complete' });
    const reversed = await through('TranSafe', '9000002');
    expect((await act(reversed, 'cancel')).json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Cancelled' },
    });
    expect(tranSafe.transactions.get('9000002')!.status).toBe('reversed');
    const recorded = await events(completed);
    expect(recorded.items).toMatchObject([
      { providerName: 'TranSafe', eventType: 'transaction.complete', status: 'AUTH' },
    ]);
    expect(recorded.payloads[0]).not.toContain('TranSafe-Password-1');
  });

  it('Opayo Pi: releases a deferred transaction with the amount in pence, aborts another', async () => {
    opayo.deferred.set('T6569400-1516-0A3F-E3FA-7F222CC79522', {
      amount: 12000,
      status: 'Deferred',
    });
    opayo.deferred.set('T6569400-1516-0A3F-E3FA-7F222CC79523', {
      amount: 12000,
      status: 'Deferred',
    });
    const released = await through('Opayo', 'T6569400-1516-0A3F-E3FA-7F222CC79522');
    const releasedAnswer = (await act(released, 'capture', { amountToCapture: 99.5 })).json();
    expect(releasedAnswer.errorMessage).toBeNull();
    expect(releasedAnswer).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Paid' },
    });
    expect(opayo.deferred.get('T6569400-1516-0A3F-E3FA-7F222CC79522')).toEqual({
      amount: 9950,
      status: 'Released',
    });
    const aborted = await through('Opayo', 'T6569400-1516-0A3F-E3FA-7F222CC79523');
    expect((await act(aborted, 'cancel')).json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Cancelled' },
    });
    const again = await through('Opayo', 'T6569400-1516-0A3F-E3FA-7F222CC79523');
    expect((await act(again, 'cancel')).json()).toMatchObject({
      isError: true,
      errorMessage: 'Instruction is invalid for the current transaction state',
    });
    const recorded = await events(released);
    expect(recorded.items).toMatchObject([
      { providerName: 'Opayo', eventType: 'instruction.release', status: 'release' },
    ]);
    expect(recorded.payloads[0]).not.toContain('Pi-Password-1');
  });

  it('Opayo Server: not sent, and said so', async () => {
    const server = await create({
      providerName: 'Opayo',
      name: 'Opayo Server',
      enabled: true,
      displayPriority: 0,
      settings: { useTestServer: true, integrationType: 'Server' },
      credentials: { vendorName: 'ledgerline', adminUser: 'admin', adminPassword: 'Admin-1' },
    });
    configurations.Opayo = server;
    const id = await through('Opayo', '{9A2C1F3B-0000-0000-0000-000000000001}');
    const before = opayo.requests.length;
    expect((await act(id, 'cancel')).json()).toMatchObject({
      isError: true,
      errorMessage: opayoServerUnsupported,
      paymentTransaction: { status: 'Pending' },
    });
    expect(opayo.requests.length).toBe(before);
  });
});
