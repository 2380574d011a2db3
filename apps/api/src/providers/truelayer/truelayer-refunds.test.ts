import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProviderAdapter } from '../adapter.js';
import type { CheckoutConfiguration } from '../checkout.js';
import { createTrueLayerAdapter } from './truelayer.adapter.js';
import { createTrueLayerCheckout } from './truelayer.checkout.js';
import { startFakeTrueLayer, type FakeTrueLayer } from '../../../test/fakes/fake-truelayer.js';
import { recorded } from '../../../test/fixtures/checkout-input.js';
import { refundCall } from '../../../test/fixtures/refund-input.js';

let trueLayer: FakeTrueLayer;
let adapter: PaymentProviderAdapter;
let checkout: ReturnType<typeof createTrueLayerCheckout>;
let configuration: CheckoutConfiguration;
let hookPath: string;
const signingKeyId = randomUUID();
const signing = generateKeyPairSync('ec', { namedCurve: 'P-521' });
const signingPrivateKey = signing.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

const notification = (hook: { body: string; headers: Record<string, string> }) => ({
  headers: hook.headers,
  rawBody: Buffer.from(hook.body),
  configuration,
  url: `https://ledgerline.example${hookPath}`,
});

async function eventOf(body: object) {
  const verified = await checkout.verifyNotification!(
    notification(trueLayer.signedWebhook(hookPath, body)),
  );
  if (!verified.ok) throw new Error(`refused: ${verified.body}`);
  expect(verified.events).toHaveLength(1);
  return verified.events[0]!;
}

const credentials = () => ({
  clientId: trueLayer.clientId,
  clientSecret: trueLayer.clientSecret,
  useSandbox: true,
  signingKeyId,
  signingPrivateKey,
});

beforeAll(async () => {
  trueLayer = await startFakeTrueLayer();
  trueLayer.registerSigningKey(
    signingKeyId,
    signing.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  );
  const hosts = {
    authSandboxUrl: trueLayer.url,
    authLiveUrl: 'http://127.0.0.1:9',
    paySandboxUrl: trueLayer.url,
    payLiveUrl: 'http://127.0.0.1:9',
    apiSandboxUrl: trueLayer.url,
    apiLiveUrl: 'http://127.0.0.1:9',
    hppSandboxUrl: trueLayer.url,
    hppLiveUrl: 'http://127.0.0.1:9',
    jwksUrls: [trueLayer.jwksUrl],
    timeoutMs: 5000,
  };
  adapter = createTrueLayerAdapter(hosts);
  checkout = createTrueLayerCheckout(hosts);
  configuration = { id: randomUUID(), isTest: true, credentials: credentials(), settings: {} };
  hookPath = `/api/v0/webhooks/truelayer/${configuration.id}`;
});
afterAll(() => trueLayer.close());

describe('TrueLayer refunds (v3, signed requests)', () => {
  it('refunds part then the rest, signed with the merchant key, keyed by our refund id, pending', async () => {
    const paymentTransactionId = randomUUID();
    const payment = trueLayer.settledPayment(9250);
    const part = refundCall(credentials(), {
      paymentTransactionId,
      providerReference: payment.id,
      amount: '40.00',
      ledgerlineReference: 'LL-000123',
    });
    const first = await adapter.refund!(part);
    expect(first).toMatchObject({ ok: true, pending: true });
    const made = trueLayer.refunds.get(first.refundReference!)!;
    expect(made).toMatchObject({
      paymentId: payment.id,
      amountInMinor: 4000,
      reference: 'LL-000123',
      metadata: {
        ledgerlinePaymentId: paymentTransactionId,
        ledgerlineRefundId: part.refundTransactionId,
      },
      status: 'pending',
    });
    const sent = trueLayer.requests.filter((r) => r.path.endsWith('/refunds')).at(-1)!;
    expect(sent.path).toBe(`/v3/payments/${payment.id}/refunds`);
    expect(sent.headers['idempotency-key']).toBe(part.refundTransactionId);
    expect(sent.headers['tl-signature']).toMatch(/^[\w-]+\.\.[\w-]+$/);
    expect(sent.headers.authorization).toMatch(/^Bearer /);
    expect(first.exchange).toMatchObject({
      eventType: 'refund.create',
      recordType: 'refund',
      recordId: made.id,
      status: 'pending',
    });
    expect(recorded(first.exchange)).not.toContain(trueLayer.clientSecret);
    expect(recorded(first.exchange)).not.toContain('PRIVATE KEY');

    // Asked again with the same key and body: the first refund, not a second.
    const again = await adapter.refund!(part);
    expect(again.refundReference).toBe(first.refundReference);
    expect([...trueLayer.refunds.values()].filter((r) => r.paymentId === payment.id)).toHaveLength(
      1,
    );

    const rest = await adapter.refund!(
      refundCall(credentials(), { providerReference: payment.id, amount: '52.50' }),
    );
    expect(rest).toMatchObject({ ok: true, pending: true });
  });

  it('refuses more than is left in TrueLayer’s words; a v1 payment is not found; a bad key is refused', async () => {
    const payment = trueLayer.settledPayment(5000);
    const tooMuch = await adapter.refund!(
      refundCall(credentials(), { providerReference: payment.id, amount: '50.01' }),
    );
    expect(tooMuch).toMatchObject({
      ok: false,
      errorMessage:
        'TrueLayer refused the refund: The refund amount exceeds the amount that can still be refunded on this payment. (amount_in_minor: Must be at most 5000.)',
      exchange: { status: 'Invalid Parameters' },
    });
    const v1 = await adapter.refund!(
      refundCall(credentials(), { providerReference: randomUUID(), amount: '1.00' }),
    );
    expect(v1).toMatchObject({
      ok: false,
      errorMessage: 'TrueLayer refused the refund: The payment was not found.',
    });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-521' });
    const forged = await adapter.refund!(
      refundCall(
        {
          ...credentials(),
          signingPrivateKey: other.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        },
        { providerReference: payment.id },
      ),
    );
    expect(forged).toMatchObject({
      ok: false,
      errorMessage: 'TrueLayer refused the refund: The request signature is missing or invalid.',
    });
    // No signing key, no client: nothing is sent.
    const before = trueLayer.requests.length;
    const { signingPrivateKey: _omitted, ...unsigned } = credentials();
    expect(
      await adapter.refund!(refundCall(unsigned, { providerReference: payment.id })),
    ).toMatchObject({
      ok: false,
      errorMessage:
        "The TrueLayer configuration has no request signing key: refund this payment in TrueLayer's console.",
      exchange: { status: 'not_sent' },
    });
    expect(await adapter.refund!(refundCall({}, { providerReference: payment.id }))).toMatchObject({
      ok: false,
      exchange: { status: 'not_sent' },
    });
    expect(trueLayer.requests.length).toBe(before);
    // Credentials TrueLayer refuses: its answer, and no refund call.
    const refundCalls = trueLayer.requests.filter((r) => r.path.endsWith('/refunds')).length;
    const refused = await adapter.refund!(
      refundCall({ ...credentials(), clientSecret: 'wrong' }, { providerReference: payment.id }),
    );
    expect(refused).toMatchObject({
      ok: false,
      errorMessage: 'TrueLayer refused the client credentials (invalid_client).',
      exchange: { eventType: 'token', status: 'refused' },
    });
    expect(trueLayer.requests.filter((r) => r.path.endsWith('/refunds'))).toHaveLength(refundCalls);
  });
});

describe('TrueLayer refund and dispute notifications', () => {
  it('refund_executed and refund_failed carry the refund and our payment id', async () => {
    const paymentTransactionId = randomUUID();
    const payment = trueLayer.settledPayment(9250);
    const made = await adapter.refund!(
      refundCall(credentials(), { paymentTransactionId, providerReference: payment.id }),
    );
    expect(await eventOf(trueLayer.refundWebhook(made.refundReference!, 'executed'))).toMatchObject(
      {
        eventType: 'refund_executed',
        paymentTransactionId,
        providerReference: payment.id,
        status: null,
        refund: {
          refundReference: made.refundReference,
          amount: null,
          status: 'Succeeded',
          reason: null,
        },
      },
    );
    // An executed refund the payer's bank returned fails later.
    expect(
      await eventOf(trueLayer.refundWebhook(made.refundReference!, 'failed', 'returned')),
    ).toMatchObject({
      eventType: 'refund_failed',
      status: null,
      refund: { refundReference: made.refundReference, status: 'Failed', reason: 'returned' },
    });
  });

  it('payment_disputed opens a dispute on the payment', async () => {
    const payment = trueLayer.settledPayment(9250);
    expect(
      await eventOf(trueLayer.disputedWebhook(payment.id, 'advance_notice_disputed')),
    ).toMatchObject({
      eventType: 'payment_disputed',
      providerReference: payment.id,
      status: null,
      dispute: {
        disputeReference: payment.id,
        stage: 'Opened',
        amount: null,
        reason: 'advance_notice_disputed',
        respondBy: null,
      },
    });
  });

  it('the status answer carries the amount and currency of the payment', async () => {
    const started = await checkout.start({
      paymentTransactionId: randomUUID(),
      ledgerlineReference: 'LL-000124',
      amount: '92.50',
      currency: 'GBP',
      captureType: 'Immediate',
      description: 'Invoice',
      payer: {},
      returnUrl: 'https://ledgerline.example/pay/x?payment=y',
      cancelUrl: 'https://ledgerline.example/pay/x?payment=y&cancelled=1',
      notificationUrl: `https://ledgerline.example${hookPath}`,
      configuration: {
        ...configuration,
        settings: {
          beneficiaryName: 'Acme Supplies Ltd',
          beneficiaryReference: '{accountReference}',
          remitterReference: '{companyName}',
          beneficiaryBankAccount: {
            accountNumber: '12345678',
            sortCode: '040004',
            currency: 'GBP',
          },
        },
      },
    });
    trueLayer.payments.get(started.providerReference!)!.status = 'executed';
    expect(
      await checkout.status({
        paymentTransactionId: randomUUID(),
        providerReference: started.providerReference,
        returnQuery: {},
        configuration,
      }),
    ).toMatchObject({ status: 'Paid', amount: '92.50', currency: 'GBP' });
  });
});

describe('TrueLayer notification freshness', () => {
  const body = () => trueLayer.statusChanged(randomUUID(), 'executed');

  it('refuses a notification signed more than five minutes ago, or ahead of our clock', async () => {
    const old = new Date(Date.now() - 301_000).toISOString();
    expect(
      await checkout.verifyNotification!(
        notification(trueLayer.signedWebhook(hookPath, body(), { timestamp: old })),
      ),
    ).toEqual({
      ok: false,
      statusCode: 401,
      body: 'X-TL-Webhook-Timestamp is outside the tolerance zone.',
    });
    const ahead = new Date(Date.now() + 301_000).toISOString();
    expect(
      await checkout.verifyNotification!(
        notification(trueLayer.signedWebhook(hookPath, body(), { timestamp: ahead })),
      ),
    ).toMatchObject({ ok: false, statusCode: 401 });
    // Four minutes old is still fresh.
    const recent = new Date(Date.now() - 240_000).toISOString();
    expect(
      await checkout.verifyNotification!(
        notification(trueLayer.signedWebhook(hookPath, body(), { timestamp: recent })),
      ),
    ).toMatchObject({ ok: true });
  });

  it('refuses a notification without a timestamp, or whose signature does not cover it', async () => {
    const hook = trueLayer.signedWebhook(hookPath, body());
    const { 'x-tl-webhook-timestamp': _dropped, ...headers } = hook.headers;
    expect(await checkout.verifyNotification!(notification({ ...hook, headers }))).toEqual({
      ok: false,
      statusCode: 401,
      body: 'Missing X-TL-Webhook-Timestamp header.',
    });
    // A fresh timestamp on a captured notification whose signature never covered it.
    const unsigned = trueLayer.signedWebhook(hookPath, body(), { unsignedTimestamp: true });
    expect(await checkout.verifyNotification!(notification(unsigned))).toEqual({
      ok: false,
      statusCode: 401,
      body: 'Tl-Signature does not cover X-Tl-Webhook-Timestamp.',
    });
  });
});
