import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { paymentProviderMessages, secretSentinel } from '@ledgerline/contract';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { showBetaProviders } from '../../../test/feature-gates.js';
import { startFakeTrueLayer, type FakeTrueLayer } from '../../../test/fakes/fake-truelayer.js';
import { clickThrough } from '../../../test/fixtures/checkout-input.js';
import { waitFor } from '../../../test/wait.js';
import { day, insertAccount, insertInvoice } from '../../../test/fixtures/pay.js';

/**
 * A TrueLayer configuration carries the merchant's request signing key (its id and an
 * EC P-521 private key in PEM) and its merchant account, saved through the providers routes; its
 * payments are v3 payments into that account, taken through the payer page, so that staff can
 * refund one (POST payment-transactions/{id}/refund) with a signed v3 refund request.
 */

let ctx: TestContext;
let trueLayer: FakeTrueLayer;
let merchant: SignedIn;
let accountId: string;

const signingKeyId = randomUUID();
const pemOf = (pair: ReturnType<typeof generateKeyPairSync>) =>
  pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const signing = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const signingPrivateKey = pemOf(signing);

beforeAll(async () => {
  trueLayer = await startFakeTrueLayer();
  trueLayer.registerSigningKey(
    signingKeyId,
    signing.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  );
  ctx = await buildTestApp({
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
    TRUELAYER_AUTH_SANDBOX_URL: trueLayer.url,
    TRUELAYER_PAY_SANDBOX_URL: trueLayer.url,
    TRUELAYER_API_SANDBOX_URL: trueLayer.url,
    TRUELAYER_HPP_SANDBOX_URL: trueLayer.url,
    TRUELAYER_JWKS_URL: trueLayer.jwksUrl,
  });
  merchant = await signIn(ctx, { tenantName: 'Signed Refunds Ltd' });
  // TrueLayer is a beta kind: it needs ShowBetaPaymentProviders.
  await showBetaProviders(ctx, merchant);
  accountId = await insertAccount(ctx, merchant);
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await trueLayer.close();
});

function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: merchant.headers({ 'dataset-id': '1' }),
    payload,
  });
}

const settings = {
  beneficiaryName: 'Signed Refunds Ltd',
  beneficiaryReference: '{accountReference}',
  remitterReference: '{companyName}',
  beneficiaryBankAccount: { accountNumber: '12345678', sortCode: '040004' },
};

/** A configuration; with the whole signing key it also names its merchant account (v3). */
function configuration(name: string, credentials: Record<string, unknown>) {
  const v3 = Boolean(credentials.signingKeyId && credentials.signingPrivateKey);
  return {
    providerName: 'TrueLayer',
    name,
    enabled: true,
    displayPriority: 0,
    settings: v3 ? { ...settings, merchantAccountId: trueLayer.merchantAccountId } : settings,
    credentials: {
      clientId: trueLayer.clientId,
      clientSecret: trueLayer.clientSecret,
      useSandbox: true,
      ...credentials,
    },
  };
}

async function errorsOf(credentials: Record<string, unknown>) {
  const answer = await call(
    'POST',
    'providers',
    configuration(`Refused ${randomUUID()}`, credentials),
  );
  expect(answer.statusCode, answer.body).toBe(400);
  return (answer.json() as { errors: Record<string, string[]> }).errors;
}

/**
 * A paid TrueLayer payment of one invoice: the payer pays it on TrueLayer's hosted payment page
 * (a v3 configuration) or approves it at the mock bank (v1).
 */
async function paidPayment(configurationId: string, amount: string) {
  const invoice = await insertInvoice(ctx, merchant, accountId, {
    amount,
    transactionDate: day(-1),
    dueDate: day(29),
  });
  const created = await call('POST', 'payment-requests', {
    requestType: 'Transaction',
    accountId,
    currency: 'GBP',
    captureType: 'Immediate',
    usageType: 'Single',
    description: 'Invoice',
    transactionAllocations: [{ transactionId: invoice }],
  });
  expect(created.statusCode, created.body).toBe(201);
  const requestId = created.json().id as string;
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: {
      configurationId,
      payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@example.com' },
    },
  });
  expect(started.statusCode, started.body).toBe(201);
  const { paymentId, next } = started.json() as { paymentId: string; next: { url: string } };
  const back = new URL(
    next.url.startsWith(`${trueLayer.url}/payments#`)
      ? await trueLayer.payOnHostedPage(next.url, 'Pay')
      : await clickThrough(next.url, 'Approve'),
  );
  const polled = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/pay/${requestId}/payments/${paymentId}${back.search}`,
  });
  expect(polled.json()).toMatchObject({ status: 'Paid' });
  return paymentId;
}

/** The payment as TrueLayer's v3 API knows it: the one the payer paid into the merchant account. */
function v3PaymentOf(paymentId: string) {
  const payment = [...trueLayer.v3Payments.values()].find(
    (p) => p.metadata?.ledgerlinePaymentId === paymentId,
  );
  if (!payment) throw new Error(`no v3 payment for ${paymentId}`);
  return payment;
}

const refund = (paymentId: string, payload: object) =>
  call('POST', `payment-transactions/${paymentId}/refund`, payload);

describe('TrueLayer request signing key on the configuration', () => {
  it('refuses a key that is not an EC P-521 private key in PEM, and one half of a key', async () => {
    const message = paymentProviderMessages.signingPrivateKey;
    expect(await errorsOf({ signingKeyId, signingPrivateKey: 'not a key' })).toEqual({
      'credentials.signingPrivateKey': [message],
    });
    // PEM, but of a P-256 key, an RSA key, or a public key.
    const p256 = pemOf(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }));
    const rsa = pemOf(generateKeyPairSync('rsa', { modulusLength: 2048 }));
    const publicKey = signing.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    for (const pem of [p256, rsa, publicKey])
      expect(await errorsOf({ signingKeyId, signingPrivateKey: pem })).toEqual({
        'credentials.signingPrivateKey': [message],
      });
    // A PEM envelope around bytes that are no key.
    const garbage = `-----BEGIN PRIVATE KEY-----\n${Buffer.from('no key here').toString('base64')}\n-----END PRIVATE KEY-----`;
    expect(await errorsOf({ signingKeyId, signingPrivateKey: garbage })).toEqual({
      'credentials.signingPrivateKey': [message],
    });
    expect(await errorsOf({ signingKeyId })).toEqual({
      'credentials.signingPrivateKey': [paymentProviderMessages.signingPrivateKeyRequired],
    });
    expect(await errorsOf({ signingPrivateKey })).toEqual({
      'credentials.signingKeyId': [paymentProviderMessages.signingKeyIdRequired],
    });
  });

  it('is saved write-only: read back as the sentinel, kept when sent back, a single-line paste accepted', async () => {
    // A password input drops the PEM's line breaks: the key still reads.
    const flattened = signingPrivateKey.replace(/\n/g, '');
    const created = await call(
      'POST',
      'providers',
      configuration('Write-only key', { signingKeyId, signingPrivateKey: flattened }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain('PRIVATE KEY');
    expect(created.json().credentials).toMatchObject({
      signingKeyId,
      signingPrivateKey: secretSentinel,
      clientSecret: secretSentinel,
    });
    const id = created.json().id as string;
    const read = await call('GET', `providers/${id}`);
    expect(read.body).not.toContain('PRIVATE KEY');
    expect(read.json().credentials.signingPrivateKey).toBe(secretSentinel);
    const saved = await call('PUT', 'providers', {
      ...configuration('Write-only key', read.json().credentials),
      id,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().credentials.signingPrivateKey).toBe(secretSentinel);

    // Kept: a refund is signed with the stored key.
    const paymentId = await paidPayment(id, '25.00');
    expect(v3PaymentOf(paymentId)).toMatchObject({ amountInMinor: 2500, status: 'executed' });
    const made = await refund(paymentId, { amount: 5 });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ isError: false, refund: { status: 'Processing' } });
  });
});

describe('TrueLayer refunds through the API', () => {
  it('a configuration with a P-521 key refunds a payment: signed v3 request, then refund_executed finishes it', async () => {
    const created = await call(
      'POST',
      'providers',
      configuration('Refunding bank transfer', { signingKeyId, signingPrivateKey }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const configurationId = created.json().id as string;
    const paymentId = await paidPayment(configurationId, '92.50');
    const v3 = v3PaymentOf(paymentId);
    const [paid] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paymentId));
    expect(paid!.paymentProviderReference).toBe(v3.id);

    const made = await refund(paymentId, { amount: 40, reason: 'Returned goods' });
    expect(made.statusCode, made.body).toBe(200);
    const answer = made.json();
    expect(answer).toMatchObject({
      isError: false,
      errorMessage: null,
      refund: { status: 'Processing', totalAmount: 40, refundOfId: paymentId },
    });
    const refundId = answer.refund.paymentProviderReference as string;
    expect(trueLayer.refunds.get(refundId)).toMatchObject({
      paymentId: v3.id,
      amountInMinor: 4000,
      status: 'pending',
      metadata: { ledgerlinePaymentId: paymentId, ledgerlineRefundId: answer.refund.id },
    });
    const sent = trueLayer.requests.filter((r) => r.path === `/v3/payments/${v3.id}/refunds`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['idempotency-key']).toBe(answer.refund.id);
    expect(sent[0]!.headers['tl-signature']).toMatch(/^[\w-]+\.\.[\w-]+$/);

    // TrueLayer's signed refund_executed: the refund is done.
    const path = `/api/v0/webhooks/truelayer/${configurationId}`;
    const hook = trueLayer.signedWebhook(path, trueLayer.refundWebhook(refundId, 'executed'));
    const delivered = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: hook.headers,
      payload: hook.body,
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
    await waitFor(async () => {
      const [row] = await ctx.database.db
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.id, answer.refund.id));
      return row?.status === 'Refunded' ? row : undefined;
    });
  });

  it('a configuration without a key (v1 payments) refuses the refund with TrueLayer’s console as the way', async () => {
    const created = await call('POST', 'providers', configuration('Unsigned bank transfer', {}));
    expect(created.statusCode, created.body).toBe(201);
    const paymentId = await paidPayment(created.json().id, '30.00');
    expect(() => v3PaymentOf(paymentId)).toThrow();
    const before = trueLayer.requests.length;
    const made = await refund(paymentId, { amount: 30 });
    expect(made.json()).toMatchObject({
      isError: true,
      errorMessage:
        "The TrueLayer configuration has no request signing key: refund this payment in TrueLayer's console.",
    });
    expect(trueLayer.requests.length).toBe(before);
  });
});
