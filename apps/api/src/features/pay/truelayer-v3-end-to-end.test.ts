import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { paymentProviderMessages, secretSentinel } from '@ledgerline/contract';
import { providerEvents } from '../../db/schema-receivables.js';
import { trueLayerPayerMessage } from '../../providers/truelayer/truelayer.checkout.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { showBetaProviders } from '../../../test/feature-gates.js';
import { startFakeTrueLayer, type FakeTrueLayer } from '../../../test/fakes/fake-truelayer.js';
import { clickThrough } from '../../../test/fixtures/checkout-input.js';
import { waitFor } from '../../../test/wait.js';
import { day, expectSettledIn, insertAccount, insertInvoice, paymentRowIn } from '../../../test/fixtures/pay.js';

/**
 * TrueLayer v3 payments (docs/decisions/132-truelayer-v3-payments-for-merchant-account.md, "TrueLayer v3 payments for merchant-account
 * configurations"): a configuration with a merchant account and a request signing key takes
 * payments into that account with a signed `POST /v3/payments`, and the payer authorises them on
 * TrueLayer's hosted payment page; one without a merchant account keeps making v1 single
 * immediate payments. Through HTTP only, against the fake in TrueLayer's wire format.
 */

let ctx: TestContext;
let trueLayer: FakeTrueLayer;
let merchant: SignedIn;
let accountId: string;

const signingKeyId = randomUUID();
const signing = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const signingPrivateKey = signing.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

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
  merchant = await signIn(ctx, { tenantName: 'Merchant Account Ltd' });
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

function configuration(
  name: string,
  settings: Record<string, unknown>,
  credentials: Record<string, unknown>,
) {
  return {
    providerName: 'TrueLayer',
    name,
    enabled: true,
    displayPriority: 0,
    settings: {
      beneficiaryName: 'Merchant Account Ltd',
      beneficiaryReference: '{accountReference}',
      remitterReference: '{companyName}',
      beneficiaryBankAccount: { accountNumber: '12345678', sortCode: '040004' },
      ...settings,
    },
    credentials: {
      clientId: trueLayer.clientId,
      clientSecret: trueLayer.clientSecret,
      useSandbox: true,
      ...credentials,
    },
  };
}

async function created(
  name: string,
  settings: Record<string, unknown>,
  credentials: Record<string, unknown>,
) {
  const answer = await call('POST', 'providers', configuration(name, settings, credentials));
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().id as string;
}

let v3Configuration: string;
const v3 = async () =>
  (v3Configuration ??= await created(
    'Merchant account',
    { merchantAccountId: trueLayer.merchantAccountId },
    { signingKeyId, signingPrivateKey },
  ));

const payer = { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@example.com' };

/** One invoice, a request for it, and the payer starting a payment with the configuration. */
async function started(configurationId: string, amount: string, who: object = payer) {
  const invoice = await insertInvoice(ctx, merchant, accountId, {
    amount,
    transactionDate: day(-1),
    dueDate: day(29),
  });
  const request = await call('POST', 'payment-requests', {
    requestType: 'Transaction',
    accountId,
    currency: 'GBP',
    captureType: 'Immediate',
    usageType: 'Single',
    description: 'Invoice',
    transactionAllocations: [{ transactionId: invoice }],
  });
  expect(request.statusCode, request.body).toBe(201);
  const requestId = request.json().id as string;
  const answer = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: { configurationId, payer: who },
  });
  return { requestId, invoices: [invoice], answer };
}

async function poll(requestId: string, paymentId: string, query = '') {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/pay/${requestId}/payments/${paymentId}${query}`,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { status: string; outcome: string; message: string | null };
}

const v3Creations = () =>
  trueLayer.requests.filter((r) => r.method === 'POST' && r.path === '/v3/payments');

describe('TrueLayer merchant account on the configuration', () => {
  it('refuses a merchant account without the whole signing key, and one that is no UUID', async () => {
    const refused = async (
      settings: Record<string, unknown>,
      credentials: Record<string, unknown>,
    ) => {
      const answer = await call(
        'POST',
        'providers',
        configuration(`Refused ${randomUUID()}`, settings, credentials),
      );
      expect(answer.statusCode, answer.body).toBe(400);
      return (answer.json() as { errors: Record<string, string[]> }).errors;
    };
    const merchantAccountId = trueLayer.merchantAccountId;
    expect(await refused({ merchantAccountId }, {})).toEqual({
      'settings.merchantAccountId': [paymentProviderMessages.merchantAccountNeedsSigningKey],
    });
    expect(await refused({ merchantAccountId }, { signingKeyId })).toEqual({
      'settings.merchantAccountId': [paymentProviderMessages.merchantAccountNeedsSigningKey],
      'credentials.signingPrivateKey': [paymentProviderMessages.signingPrivateKeyRequired],
    });
    expect(
      await refused({ merchantAccountId: 'account-1' }, { signingKeyId, signingPrivateKey }),
    ).toEqual({ 'settings.merchantAccountId': [paymentProviderMessages.merchantAccountId] });
  });

  it('is saved and read back; kept with the stored key when the form sends the sentinel', async () => {
    const id = await created(
      'Merchant account kept',
      { merchantAccountId: ` ${trueLayer.merchantAccountId.toUpperCase()} ` },
      { signingKeyId, signingPrivateKey },
    );
    const read = await call('GET', `providers/${id}`);
    expect(read.json().settings.merchantAccountId).toBe(trueLayer.merchantAccountId);
    expect(read.json().credentials.signingPrivateKey).toBe(secretSentinel);
    const saved = await call('PUT', 'providers', {
      ...configuration('Merchant account kept', read.json().settings, read.json().credentials),
      id,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.merchantAccountId).toBe(trueLayer.merchantAccountId);
  });
});

describe('TrueLayer v3 payments through the payer page', () => {
  it('a signed POST /v3/payments, the hosted payment page, Pay: the poll reads executed → Paid', async () => {
    const configurationId = await v3();
    const before = trueLayer.requests.length;
    const payment = await started(configurationId, '92.50');
    expect(payment.answer.statusCode, payment.answer.body).toBe(201);
    const { paymentId, next } = payment.answer.json() as {
      paymentId: string;
      next: { kind: string; url: string };
    };

    // What TrueLayer received: signed, keyed by our payment id, into the merchant account.
    const sent = trueLayer.requests.slice(before).filter((r) => r.path === '/v3/payments');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['idempotency-key']).toBe(paymentId);
    expect(sent[0]!.headers['tl-signature']).toMatch(/^[\w-]+\.\.[\w-]+$/);
    const header = JSON.parse(
      Buffer.from(String(sent[0]!.headers['tl-signature']).split('.')[0]!, 'base64url').toString(),
    ) as Record<string, string>;
    expect(header).toMatchObject({
      alg: 'ES512',
      kid: signingKeyId,
      tl_version: '2',
      tl_headers: 'Idempotency-Key',
    });
    const body = JSON.parse(sent[0]!.body) as Record<string, unknown>;
    expect(body).toEqual({
      amount_in_minor: 9250,
      currency: 'GBP',
      payment_method: {
        type: 'bank_transfer',
        provider_selection: { type: 'user_selected' },
        beneficiary: {
          type: 'merchant_account',
          merchant_account_id: trueLayer.merchantAccountId,
          reference: expect.stringMatching(/^.{1,18}$/),
        },
      },
      user: { name: 'Pat Payer', email: 'pat@example.com' },
      metadata: { ledgerlinePaymentId: paymentId },
    });
    // No v1 payment was made.
    expect(trueLayer.requests.slice(before).some((r) => r.path.startsWith('/single-'))).toBe(false);

    // The payer goes to the hosted payment page with the payment's id and resource token.
    const v3Payment = [...trueLayer.v3Payments.values()].find(
      (p) => p.metadata?.ledgerlinePaymentId === paymentId,
    )!;
    expect(next.kind).toBe('redirect');
    const page = new URL(next.url);
    expect(`${page.origin}${page.pathname}`).toBe(`${trueLayer.url}/payments`);
    const fragment = new URLSearchParams(page.hash.slice(1));
    expect(fragment.get('payment_id')).toBe(v3Payment.id);
    expect(fragment.get('resource_token')).toBe(v3Payment.resourceToken);
    expect(fragment.get('return_uri')).toMatch(
      new RegExp(`/pay/${payment.requestId}\\?payment=${paymentId}$`),
    );
    // The resource token authorises the payment: it is not kept in the provider event.
    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, paymentId))
      .orderBy(asc(providerEvents.createdOn));
    expect(JSON.stringify(events)).not.toContain(v3Payment.resourceToken!);

    const back = new URL(await trueLayer.payOnHostedPage(next.url, 'Pay'));
    expect(back.searchParams.get('payment')).toBe(paymentId);
    expect(back.searchParams.get('payment_id')).toBe(v3Payment.id);
    expect(await poll(payment.requestId, paymentId, back.search)).toMatchObject({
      status: 'Paid',
      outcome: 'Succeeded',
    });
    const row = await paymentRowIn(ctx, paymentId);
    expect(row.paymentProviderReference).toBe(v3Payment.id);
    await expectSettledIn(ctx, merchant, payment, paymentId);
  });

  it('the payer cancels on the hosted page: the poll reads failed → Failed with its reason', async () => {
    const payment = await started(await v3(), '40.00');
    const { paymentId, next } = payment.answer.json() as {
      paymentId: string;
      next: { url: string };
    };
    const back = new URL(await trueLayer.payOnHostedPage(next.url, 'Cancel'));
    const status = await poll(payment.requestId, paymentId, back.search);
    expect(status).toMatchObject({ status: 'Failed' });
    expect((await paymentRowIn(ctx, paymentId)).status).toBe('Failed');
    expect(JSON.stringify(status)).toContain('The bank did not make the payment (canceled).');
  });

  it('polled while the payer has not finished it stays Processing; executed then settled webhooks pay it', async () => {
    const configurationId = await v3();
    const payment = await started(configurationId, '30.00');
    const { paymentId } = payment.answer.json() as { paymentId: string };
    expect(await poll(payment.requestId, paymentId)).toMatchObject({ status: 'Processing' });

    const v3Payment = [...trueLayer.v3Payments.values()].find(
      (p) => p.metadata?.ledgerlinePaymentId === paymentId,
    )!;
    v3Payment.status = 'executed';
    const path = `/api/v0/webhooks/truelayer/${configurationId}`;
    for (const event of [
      trueLayer.paymentWebhook(v3Payment.id, 'payment_executed'),
      trueLayer.settle(v3Payment.id),
    ]) {
      const hook = trueLayer.signedWebhook(path, event);
      const delivered = await ctx.app.inject({
        method: 'POST',
        url: path,
        headers: hook.headers,
        payload: hook.body,
      });
      expect(delivered.statusCode, delivered.body).toBe(200);
    }
    await waitFor(async () => {
      const row = await paymentRowIn(ctx, paymentId);
      return row.status === 'Paid' ? row : undefined;
    });
    await expectSettledIn(ctx, merchant, payment, paymentId);
  });

  it('a payment polled fresh reads each v3 status: authorizing Processing, settled Paid, failed Failed', async () => {
    const configurationId = await v3();
    const cases = [
      { status: 'authorizing', expected: 'Processing' },
      { status: 'authorized', expected: 'Processing' },
      { status: 'settled', expected: 'Paid' },
      { status: 'failed', expected: 'Failed' },
    ] as const;
    for (const { status, expected } of cases) {
      const payment = await started(configurationId, '12.00');
      const { paymentId } = payment.answer.json() as { paymentId: string };
      const v3Payment = [...trueLayer.v3Payments.values()].find(
        (p) => p.metadata?.ledgerlinePaymentId === paymentId,
      )!;
      v3Payment.status = status;
      if (status === 'failed') {
        v3Payment.failureStage = 'authorizing';
        v3Payment.failureReason = 'provider_rejected';
      }
      const polled = await poll(payment.requestId, paymentId, `?payment_id=${v3Payment.id}`);
      expect(polled, status).toMatchObject({ status: expected });
      if (status === 'failed') expect(JSON.stringify(polled)).toContain('(provider_rejected)');
    }
  });

  it('a payment_failed webhook fails it with TrueLayer’s reason', async () => {
    const configurationId = await v3();
    const payment = await started(configurationId, '18.00');
    const { paymentId } = payment.answer.json() as { paymentId: string };
    const v3Payment = [...trueLayer.v3Payments.values()].find(
      (p) => p.metadata?.ledgerlinePaymentId === paymentId,
    )!;
    v3Payment.status = 'failed';
    v3Payment.failureReason = 'insufficient_funds';
    const path = `/api/v0/webhooks/truelayer/${configurationId}`;
    const hook = trueLayer.signedWebhook(
      path,
      trueLayer.paymentWebhook(v3Payment.id, 'payment_failed'),
    );
    const delivered = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: hook.headers,
      payload: hook.body,
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
    await waitFor(async () => {
      const found = await paymentRowIn(ctx, paymentId);
      return found.status === 'Failed' ? found : undefined;
    });
    // What the payer's page then reads.
    expect((await poll(payment.requestId, paymentId)).message).toContain('insufficient_funds');
  });

  it('TrueLayer refuses a creation signed with a key it does not know: the payer is told, the payment fails', async () => {
    const stranger = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
    const configurationId = await created(
      'Unregistered key',
      { merchantAccountId: trueLayer.merchantAccountId },
      {
        signingKeyId: randomUUID(),
        signingPrivateKey: stranger.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      },
    );
    const payment = await started(configurationId, '10.00');
    expect(payment.answer.statusCode, payment.answer.body).toBe(502);
    expect(payment.answer.json().detail).toBe(
      'TrueLayer could not start the payment: The request signature is missing or invalid.',
    );
  });

  it('a payer without a name or an email address is told before anything is sent', async () => {
    const configurationId = await v3();
    const before = v3Creations().length;
    const payment = await started(configurationId, '10.00', { firstNames: 'Pat' });
    expect(payment.answer.statusCode, payment.answer.body).toBe(502);
    expect(payment.answer.json().detail).toBe(trueLayerPayerMessage);
    expect(v3Creations()).toHaveLength(before);
  });
});

describe('a configuration given a merchant account while a v1 payment is under way', () => {
  it('still reads that payment: TrueLayer knows no such v3 payment, the v1 read answers', async () => {
    const name = `Moving to v3 ${randomUUID()}`;
    const configurationId = await created(name, {}, { signingKeyId, signingPrivateKey });
    const payment = await started(configurationId, '15.00');
    const { paymentId, next } = payment.answer.json() as {
      paymentId: string;
      next: { url: string };
    };
    const back = new URL(await clickThrough(next.url, 'Approve'));

    const read = await call('GET', `providers/${configurationId}`);
    const saved = await call('PUT', 'providers', {
      ...configuration(
        name,
        { ...read.json().settings, merchantAccountId: trueLayer.merchantAccountId },
        read.json().credentials,
      ),
      id: configurationId,
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const before = trueLayer.requests.length;
    expect(await poll(payment.requestId, paymentId, back.search)).toMatchObject({
      status: 'Paid',
    });
    const asked = trueLayer.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    const simpId = back.searchParams.get('payment_id')!;
    expect(asked).toContain(`GET /v3/payments/${simpId}`);
    expect(asked).toContain(`GET /single-immediate-payments/${simpId}`);
  });
});

describe('TrueLayer configurations without a merchant account', () => {
  it('still make v1 single immediate payments, signing key or not', async () => {
    for (const credentials of [{}, { signingKeyId, signingPrivateKey }]) {
      const configurationId = await created(`Single immediate ${randomUUID()}`, {}, credentials);
      const before = trueLayer.requests.length;
      const payment = await started(configurationId, '25.00');
      expect(payment.answer.statusCode, payment.answer.body).toBe(201);
      const { paymentId, next } = payment.answer.json() as {
        paymentId: string;
        next: { url: string };
      };
      const sent = trueLayer.requests.slice(before);
      expect(sent.some((r) => r.path.startsWith('/v3/'))).toBe(false);
      const created_ = sent.find((r) => r.path === '/single-immediate-payments')!;
      expect(JSON.parse(created_.body)).toMatchObject({
        amount: 2500,
        currency: 'GBP',
        beneficiary_sort_code: '040004',
        beneficiary_account_number: '12345678',
      });
      expect(next.url).toMatch(new RegExp(`^${trueLayer.url}/bank/`));
      const back = new URL(await clickThrough(next.url, 'Approve'));
      expect(await poll(payment.requestId, paymentId, back.search)).toMatchObject({
        status: 'Paid',
      });
    }
  });
});
