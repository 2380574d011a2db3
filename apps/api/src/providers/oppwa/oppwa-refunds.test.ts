import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { providerNotifications } from '../../db/schema-pay.js';
import type { RefundCall } from '../adapter.js';
import type { CheckoutConfiguration, NotificationInput } from '../checkout.js';
import { createOppwaAdapter } from './oppwa.adapter.js';
import { createOppwaCheckout } from './oppwa.checkout.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { startFakeOppwa, type FakeOppwa } from '../../../test/fakes/fake-oppwa.js';
import { recorded, startInput } from '../../../test/fixtures/checkout-input.js';

/**
 * OPPWA (Total Processing) refunds and chargebacks against the fake over real HTTP: RF
 * against the payment with our refund's id as merchantTransactionId, OPPWA's result-code classes,
 * and its AES-256-GCM notifications: RF a refund, CB a chargeback (Lost), CR its reversal (Won).
 */

let oppwa: FakeOppwa;
let checkout: ReturnType<typeof createOppwaCheckout>;
let adapter: ReturnType<typeof createOppwaAdapter>;
let configuration: CheckoutConfiguration;

beforeAll(async () => {
  oppwa = await startFakeOppwa();
  const urls = { testUrl: oppwa.url, liveUrl: 'http://127.0.0.1:9', timeoutMs: 5000 };
  checkout = createOppwaCheckout(urls);
  adapter = createOppwaAdapter(urls);
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: {
      entityId: oppwa.entityId,
      accessToken: oppwa.accessToken,
      useSandbox: true,
      webhookSecret: oppwa.webhookSecret,
    },
    settings: { brands: ['VISA'], storePayerPaymentMethod: false },
  };
});
afterAll(() => oppwa.close());

/** A payment paid (DB) or reserved and captured (PA → CP) through the widget: its payment id. */
async function paidPayment(amount = '92.50', reserve = false) {
  const input = startInput(configuration, {
    amount,
    captureType: reserve ? 'Reserve' : 'Immediate',
  });
  const started = await checkout.start(input);
  oppwa.pay(started.providerReference!, 'success');
  const status = await checkout.status({
    paymentTransactionId: input.paymentTransactionId,
    providerReference: started.providerReference,
    returnQuery: {},
    configuration,
  });
  // What OPPWA says it took or reserved.
  expect(status).toMatchObject({
    status: reserve ? 'Pending' : 'Paid',
    amount: Number(amount).toFixed(2),
    currency: 'GBP',
  });
  if (reserve) {
    const captured = await adapter.capture({ ...call(status.providerReference!, amount) });
    expect(captured.ok).toBe(true);
  }
  return status.providerReference!;
}

const call = (
  providerReference: string,
  amount: string,
  overrides: Partial<RefundCall> = {},
): RefundCall => ({
  paymentTransactionId: randomUUID(),
  refundTransactionId: randomUUID(),
  providerReference,
  currency: 'GBP',
  amount,
  paymentAmount: '92.50',
  note: null,
  reason: null,
  configuration: { isTest: true, credentials: configuration.credentials },
  ...overrides,
});

const notification = (body: {
  body: string;
  headers: Record<string, string>;
}): NotificationInput => ({
  headers: body.headers,
  rawBody: Buffer.from(body.body),
  configuration,
  url: `https://ledgerline.example/api/v0/webhooks/oppwa/${configuration.id}`,
});

describe('OPPWA refunds (RF)', () => {
  it('refunds part, then the rest, each with its own merchantTransactionId; the refund id is the reference', async () => {
    const paymentId = await paidPayment();
    const part = call(paymentId, '20.5');
    const first = await adapter.refund!(part);
    expect(first.ok, JSON.stringify(first)).toBe(true);
    expect(first.pending).toBeUndefined();
    const sent = oppwa.requests.at(-1)!;
    expect(sent.path).toBe(`/v1/payments/${paymentId}`);
    expect(sent.headers.authorization).toBe(`Bearer ${oppwa.accessToken}`);
    expect(Object.fromEntries(sent.form)).toEqual({
      entityId: oppwa.entityId,
      amount: '20.50',
      currency: 'GBP',
      paymentType: 'RF',
      merchantTransactionId: part.refundTransactionId,
      testMode: 'EXTERNAL',
    });
    expect(oppwa.refunds.get(first.refundReference!)).toMatchObject({
      referencedId: paymentId,
      amount: '20.50',
      merchantTransactionId: part.refundTransactionId,
    });
    expect(first.exchange).toMatchObject({ eventType: 'payment.refund', status: '000.100.110' });
    expect(recorded(first.exchange)).not.toContain(oppwa.accessToken);
    const rest = await adapter.refund!(call(paymentId, '72.00'));
    expect(rest.ok).toBe(true);
    const ids = [...oppwa.refunds.values()]
      .filter((r) => r.referencedId === paymentId)
      .map((r) => r.merchantTransactionId);
    expect(new Set(ids).size).toBe(2);
  });

  it('refuses an over-refund in OPPWA\u2019s words and changes nothing', async () => {
    const paymentId = await paidPayment('10');
    const over = await adapter.refund!(call(paymentId, '10.01'));
    expect(over).toMatchObject({
      ok: false,
      errorMessage: 'cannot refund (refund volume exceeded or tx reversed or invalid workflow?)',
    });
    expect(over.exchange.status).toBe('700.300.300');
    expect(oppwa.payments.get(paymentId)!.refunded).toBeUndefined();
    expect((await adapter.refund!(call(paymentId, '10'))).ok).toBe(true);
  });

  it('a reserved payment is refunded once captured, within what was captured', async () => {
    const paymentId = await paidPayment('40', true);
    expect((await adapter.refund!(call(paymentId, '40.01'))).ok).toBe(false);
    expect((await adapter.refund!(call(paymentId, '40'))).ok).toBe(true);
  });

  it('without credentials nothing is sent', async () => {
    const before = oppwa.requests.length;
    const outcome = await adapter.refund!({ ...call('8ac7', '1'), configuration: null });
    expect(outcome).toMatchObject({
      ok: false,
      errorMessage: "The payment's Total Processing configuration is missing or not connected.",
    });
    expect(oppwa.requests.length).toBe(before);
  });
});

describe('OPPWA notifications', () => {
  it('a CB is a lost dispute of the payment with its amount; its CR is won', async () => {
    const paymentId = await paidPayment('92.50');
    const cb = oppwa.chargeback(paymentId, 'CB', '50.00');
    const lost = await checkout.verifyNotification!(
      notification(oppwa.encrypt({ type: 'PAYMENT', payload: cb })),
    );
    expect(lost).toMatchObject({
      ok: true,
      events: [
        {
          eventId: `${cb.id as string}:000.100.200`,
          paymentTransactionId: null,
          providerReference: paymentId,
          status: null,
          eventType: 'payment.cb',
          dispute: {
            disputeReference: paymentId,
            stage: 'Lost',
            amount: '50.00',
            currency: 'GBP',
            reason: 'Chargeback: fraud, card absent environment',
            respondBy: null,
          },
        },
      ],
    });
    // The chargeback's amount is the dispute's, not a claim of what the payment took.
    expect(lost.ok && lost.events[0]!.amount).toBeUndefined();
    const cr = oppwa.chargeback(paymentId, 'CR', '50.00');
    const won = await checkout.verifyNotification!(
      notification(oppwa.encrypt({ type: 'PAYMENT', payload: cr })),
    );
    expect(won.ok && won.events[0]).toMatchObject({
      providerReference: paymentId,
      eventType: 'payment.cr',
      dispute: { disputeReference: paymentId, stage: 'Won', amount: '50.00' },
    });
  });

  it('an RF notification is a refund of the payment it references, matched by the refund id', async () => {
    const paymentId = await paidPayment('30');
    const refunded = await adapter.refund!(call(paymentId, '12'));
    const payload = {
      id: refunded.refundReference,
      referencedId: paymentId,
      paymentType: 'RF',
      amount: '12.00',
      currency: 'GBP',
      result: { code: '000.100.110', description: 'Request successfully processed' },
    };
    const verified = await checkout.verifyNotification!(
      notification(oppwa.encrypt({ type: 'PAYMENT', payload })),
    );
    expect(verified.ok && verified.events[0]).toMatchObject({
      providerReference: paymentId,
      refund: { refundReference: refunded.refundReference, amount: '12.00', status: 'Succeeded' },
    });
    const pending = await checkout.verifyNotification!(
      notification(
        oppwa.encrypt({
          type: 'PAYMENT',
          payload: { ...payload, id: 'rf2', result: { code: '000.200.000' } },
        }),
      ),
    );
    expect(pending.ok && pending.events[0]!.refund!.status).toBe('Pending');
    const failed = await checkout.verifyNotification!(
      notification(
        oppwa.encrypt({
          type: 'PAYMENT',
          payload: {
            ...payload,
            id: 'rf3',
            result: { code: '800.100.100', description: 'declined' },
          },
        }),
      ),
    );
    expect(failed.ok && failed.events[0]!.refund).toMatchObject({
      status: 'Failed',
      reason: 'declined',
    });
  });

  it('a body not encrypted with the configuration\u2019s secret, altered, or without headers is refused', async () => {
    const cb = { type: 'PAYMENT', payload: { id: 'cb1', referencedId: 'p1', paymentType: 'CB' } };
    const other = oppwa.encrypt(cb, 'ab'.repeat(32));
    expect(await checkout.verifyNotification!(notification(other))).toEqual({
      ok: false,
      statusCode: 401,
      body: 'Invalid signature',
    });
    const good = oppwa.encrypt(cb);
    const flipped = `${good.body.slice(0, -2)}${good.body.endsWith('00') ? '01' : '00'}`;
    expect((await checkout.verifyNotification!(notification({ ...good, body: flipped }))).ok).toBe(
      false,
    );
    expect(
      (await checkout.verifyNotification!(notification({ body: good.body, headers: {} }))).ok,
    ).toBe(false);
    const noSecret = await checkout.verifyNotification!({
      ...notification(good),
      configuration: {
        ...configuration,
        credentials: { ...configuration.credentials, webhookSecret: null },
      },
    });
    expect(noSecret).toMatchObject({ ok: false, statusCode: 401 });
    // A debit's own notification is kept but moves nothing: the status call settles payments.
    const debit = await checkout.verifyNotification!(
      notification(
        oppwa.encrypt({
          type: 'PAYMENT',
          payload: {
            id: 'db1',
            paymentType: 'DB',
            amount: '92.50',
            currency: 'GBP',
            merchantTransactionId: randomUUID(),
            result: { code: '000.100.110' },
          },
        }),
      ),
    );
    expect(debit.ok && debit.events[0]).toMatchObject({
      eventId: 'db1:000.100.110',
      providerReference: 'db1',
      paymentTransactionId: null,
      status: null,
      amount: '92.50',
      currency: 'GBP',
    });
    // Registrations and risk notifications are received but say nothing about money.
    const registration = await checkout.verifyNotification!(
      notification(
        oppwa.encrypt({ type: 'REGISTRATION', action: 'CREATED', payload: { id: 'r1' } }),
      ),
    );
    expect(registration).toEqual({ ok: true, events: [] });
  });
});

describe('OPPWA notifications through the webhook route', () => {
  let ctx: TestContext;
  let merchant: SignedIn;
  let configurationId: string;
  beforeAll(async () => {
    ctx = await buildTestApp({ OPPWA_TEST_URL: oppwa.url });
    merchant = await signIn(ctx, { tenantName: 'OPPWA Chargebacks Ltd' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/providers',
      headers: merchant.headers({ 'dataset-id': '1' }),
      payload: {
        providerName: 'Oppwa',
        name: 'Total Processing',
        enabled: true,
        displayPriority: 1,
        isTest: true,
        credentials: {
          entityId: oppwa.entityId,
          accessToken: oppwa.accessToken,
          useSandbox: true,
          webhookSecret: oppwa.webhookSecret,
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    configurationId = created.json().id;
    // The secret is stored sealed and reads back as the sentinel, like the access token.
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/providers/${configurationId}`,
      headers: merchant.headers({ 'dataset-id': '1' }),
    });
    expect(read.json().credentials).toMatchObject({
      accessToken: '__stored_secret__',
      webhookSecret: '__stored_secret__',
    });
  }, 60_000);
  afterAll(() => ctx.close());

  const post = (body: { body: string; headers: Record<string, string> }) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v0/webhooks/oppwa/${configurationId}`,
      headers: { 'content-type': 'text/plain', ...body.headers },
      payload: body.body,
    });

  it('stores a chargeback once with its configuration; a forged one is refused and stores nothing', async () => {
    const paymentId = await paidPayment('25');
    const cb = oppwa.chargeback(paymentId, 'CB');
    const encrypted = oppwa.encrypt({ type: 'PAYMENT', payload: cb });
    const first = await post(encrypted);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: 1 });
    // OPPWA retries until it hears 2xx: the same notification again is kept once.
    expect((await post(encrypted)).statusCode).toBe(200);
    const eventId = `${cb.id as string}:000.100.200`;
    const rows = await ctx.database.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.eventId, eventId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ providerName: 'Oppwa', configurationId });

    const forgedCb = oppwa.chargeback(paymentId, 'CB');
    const forged = oppwa.encrypt({ type: 'PAYMENT', payload: forgedCb }, 'cd'.repeat(32));
    const refused = await post(forged);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe('Invalid signature');
    expect(
      await ctx.database.db
        .select()
        .from(providerNotifications)
        .where(eq(providerNotifications.eventId, `${forgedCb.id as string}:000.100.200`)),
    ).toEqual([]);
  });
});
