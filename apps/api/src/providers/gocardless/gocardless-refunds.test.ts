import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProviderAdapter } from '../adapter.js';
import type { CheckoutAdapter, CheckoutConfiguration } from '../checkout.js';
import { createGoCardlessAdapter } from './gocardless.adapter.js';
import { createGoCardlessCheckout } from './gocardless.checkout.js';
import { startFakeGoCardless, type FakeGoCardless } from '../../../test/fakes/fake-gocardless.js';
import { recorded } from '../../../test/fixtures/checkout-input.js';
import { refundCall } from '../../../test/fixtures/refund-input.js';

let goCardless: FakeGoCardless;
let checkout: CheckoutAdapter;
let adapter: PaymentProviderAdapter;
let configuration: CheckoutConfiguration;
let token: string;

const notification = (batch: { body: string; headers: Record<string, string> }) => ({
  headers: batch.headers,
  rawBody: Buffer.from(batch.body),
  configuration,
  url: `https://ledgerline.example/api/v0/webhooks/gocardless/${configuration.id}`,
});

async function eventOf(batch: { body: string; headers: Record<string, string> }) {
  const verified = await checkout.verifyNotification!(notification(batch));
  if (!verified.ok) throw new Error(`refused: ${verified.body}`);
  expect(verified.events).toHaveLength(1);
  return verified.events[0]!;
}

beforeAll(async () => {
  goCardless = await startFakeGoCardless();
  checkout = createGoCardlessCheckout({
    live: false,
    apiUrl: goCardless.url,
    webhookSecret: goCardless.webhookSecret,
    timeoutMs: 5000,
  });
  adapter = createGoCardlessAdapter({ live: false, apiUrl: goCardless.url, timeoutMs: 5000 });
  token = goCardless.issueToken();
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: { organisationId: goCardless.organisation.id, accessToken: token },
    settings: {},
  };
});
afterAll(() => goCardless.close());

const credentials = () => ({ organisationId: goCardless.organisation.id, accessToken: token });

describe('GoCardless refunds (POST /refunds)', () => {
  it('refunds part then the rest with total_amount_confirmation, links.payment and our ids; pending until paid', async () => {
    const paymentTransactionId = randomUUID();
    const payment = goCardless.collectedPayment(token, 9250);
    const part = refundCall(credentials(), {
      paymentTransactionId,
      providerReference: payment.id,
      amount: '40.00',
      alreadyRefunded: '0',
      reason: 'Goods returned',
    });
    const first = await adapter.refund!(part);
    expect(first).toMatchObject({ ok: true, pending: true });
    expect(first.refundReference).toMatch(/^RF/);
    const sent = goCardless.requests.filter((r) => r.path === '/refunds').at(-1)!;
    expect(sent.headers['idempotency-key']).toBe(part.refundTransactionId);
    expect(sent.headers['gocardless-version']).toBe('2015-07-06');
    expect(JSON.parse(sent.body)).toEqual({
      refunds: {
        amount: 4000,
        total_amount_confirmation: 4000,
        metadata: {
          ledgerline_payment_id: paymentTransactionId,
          ledgerline_refund_id: part.refundTransactionId,
          reason: 'Goods returned',
        },
        links: { payment: payment.id },
      },
    });
    expect(first.exchange).toMatchObject({
      eventType: 'refund.create',
      recordType: 'refund',
      recordId: first.refundReference,
      status: 'created',
    });
    expect(recorded(first.exchange)).not.toContain(token);

    // Asked again with the same key: GoCardless names the first refund; nothing new is made.
    const again = await adapter.refund!(part);
    expect(again).toMatchObject({ ok: true, refundReference: first.refundReference });
    expect([...goCardless.refunds.values()].filter((r) => r.payment === payment.id)).toHaveLength(
      1,
    );

    // Without the books' figure, the payment's amount_refunded is read first.
    const rest = await adapter.refund!(
      refundCall(credentials(), { providerReference: payment.id, amount: '52.50' }),
    );
    expect(rest).toMatchObject({ ok: true, pending: true });
    const restSent = goCardless.requests.filter((r) => r.path === '/refunds').at(-1)!;
    expect(JSON.parse(restSent.body).refunds).toMatchObject({
      amount: 5250,
      total_amount_confirmation: 9250,
    });
  });

  it('refuses in GoCardless’s words: more than is left, a wrong total, a payment not yet confirmed', async () => {
    const payment = goCardless.collectedPayment(token, 5000);
    const tooMuch = await adapter.refund!(
      refundCall(credentials(), {
        providerReference: payment.id,
        amount: '50.01',
        alreadyRefunded: '0',
      }),
    );
    expect(tooMuch).toMatchObject({
      ok: false,
      errorMessage: 'GoCardless refused the refund: amount exceeds the amount available to refund',
    });
    // The books think nothing was refunded, GoCardless knows of 10.00: refused, not doubled.
    await adapter.refund!(
      refundCall(credentials(), { providerReference: payment.id, amount: '10.00' }),
    );
    const unaware = await adapter.refund!(
      refundCall(credentials(), {
        providerReference: payment.id,
        amount: '10.00',
        alreadyRefunded: '0.00',
      }),
    );
    expect(unaware).toMatchObject({
      ok: false,
      errorMessage:
        'GoCardless refused the refund: The total_amount_confirmation does not match the total amount refunded for the payment',
      exchange: { status: 'total_amount_confirmation_invalid' },
    });
    const submitted = goCardless.collectedPayment(token, 5000, { status: 'submitted' });
    expect(
      await adapter.refund!(refundCall(credentials(), { providerReference: submitted.id })),
    ).toMatchObject({
      ok: false,
      errorMessage:
        'GoCardless refused the refund: The linked payment must be confirmed or paid out to be refunded',
    });
    // A billing request that never became a payment, or no access token: nothing is sent.
    const before = goCardless.requests.length;
    expect(
      await adapter.refund!(refundCall(credentials(), { providerReference: 'BRQ000123' })),
    ).toMatchObject({ ok: false, exchange: { status: 'not_sent' } });
    expect(await adapter.refund!(refundCall({}, { providerReference: payment.id }))).toMatchObject({
      ok: false,
      exchange: { status: 'not_sent' },
    });
    expect(goCardless.requests.length).toBe(before);
  });

  it('a GoCardless that does not answer is a refusal recorded as unreachable', async () => {
    const away = createGoCardlessAdapter({
      live: false,
      apiUrl: 'http://127.0.0.1:9',
      timeoutMs: 2000,
    });
    const outcome = await away.refund!(
      refundCall(credentials(), { providerReference: 'PM000AWAY', alreadyRefunded: '0' }),
    );
    expect(outcome).toMatchObject({
      ok: false,
      errorMessage: 'GoCardless could not be reached.',
      exchange: { eventType: 'refund.create', status: 'unreachable' },
    });
  });

  it('never captures or cancels: direct debits are not held', async () => {
    const payment = goCardless.collectedPayment(token, 100);
    const call = refundCall(credentials(), { providerReference: payment.id });
    expect(await adapter.capture(call)).toMatchObject({ ok: false });
    expect(await adapter.cancel(call)).toMatchObject({ ok: false });
  });
});

describe('GoCardless refund, chargeback and late failure notifications', () => {
  it('refund actions carry the refund with its status and our payment id', async () => {
    const paymentTransactionId = randomUUID();
    const payment = goCardless.collectedPayment(token, 9250);
    const made = await adapter.refund!(
      refundCall(credentials(), {
        paymentTransactionId,
        providerReference: payment.id,
        amount: '20.00',
        alreadyRefunded: '0',
      }),
    );
    const expected = {
      created: 'Pending',
      paid: 'Succeeded',
      refund_settled: 'Succeeded',
      failed: 'Failed',
      funds_returned: 'Failed',
    } as const;
    for (const [action, status] of Object.entries(expected)) {
      const event = await eventOf(goCardless.refundEvent(made.refundReference!, action));
      expect(event).toMatchObject({
        eventType: `refunds.${action}`,
        paymentTransactionId,
        providerReference: payment.id,
        status: null,
        account: goCardless.organisation.id,
        refund: { refundReference: made.refundReference, amount: null, status },
      });
      expect(event.lateFailure).toBeUndefined();
    }
    const failed = await eventOf(goCardless.refundEvent(made.refundReference!, 'failed'));
    expect(failed.refund?.reason).toBe(
      "The refund could not be paid to your customer's bank account; the funds will be returned to you.",
    );
  });

  it('charged_back is a lost dispute, chargeback_cancelled a won one, without moving the status', async () => {
    const paymentTransactionId = randomUUID();
    const payment = goCardless.collectedPayment(token, 9250, {
      status: 'paid_out',
      metadata: { ledgerline_payment_id: paymentTransactionId },
    });
    const lost = await eventOf(goCardless.afterSuccessEvent(payment.id, 'charged_back'));
    expect(lost).toMatchObject({
      eventType: 'payments.charged_back',
      paymentTransactionId,
      providerReference: payment.id,
      status: null,
      dispute: {
        disputeReference: payment.id,
        stage: 'Lost',
        amount: null,
        reason: 'authorisation_disputed',
        respondBy: null,
      },
    });
    expect(lost.lateFailure).toBeUndefined();
    const won = await eventOf(goCardless.afterSuccessEvent(payment.id, 'chargeback_cancelled'));
    expect(won).toMatchObject({
      status: null,
      dispute: { disputeReference: payment.id, stage: 'Won', reason: 'payment_confirmed' },
    });
    // Debited from a payout: nothing new about the payment.
    const settled = await eventOf(goCardless.afterSuccessEvent(payment.id, 'chargeback_settled'));
    expect(settled).toMatchObject({ status: null });
    expect(settled.dispute).toBeUndefined();
  });

  it('a failed after confirmed and late_failure_settled are late failures: Failed with the flag', async () => {
    const paymentTransactionId = randomUUID();
    const payment = goCardless.collectedPayment(token, 9250, {
      metadata: { ledgerline_payment_id: paymentTransactionId },
    });
    const late = await eventOf(goCardless.afterSuccessEvent(payment.id, 'failed'));
    expect(late).toMatchObject({
      eventType: 'payments.failed',
      paymentTransactionId,
      status: 'Failed',
      lateFailure: true,
      errorMessage: "The customer's account had insufficient funds to make this payment.",
    });
    const settled = await eventOf(goCardless.afterSuccessEvent(payment.id, 'late_failure_settled'));
    expect(settled).toMatchObject({ status: 'Failed', lateFailure: true });
    // A confirmation is no late failure.
    const confirmed = await eventOf(
      goCardless.signedEvents([goCardless.paymentEvent(payment.id, 'confirmed')]),
    );
    expect(confirmed).toMatchObject({ status: 'Paid' });
    expect(confirmed.lateFailure).toBeUndefined();
  });

  it('the status answer carries the payment’s amount and currency', async () => {
    const payment = goCardless.collectedPayment(token, 9250, { currency: 'EUR' });
    expect(
      await checkout.status({
        paymentTransactionId: randomUUID(),
        providerReference: payment.id,
        returnQuery: {},
        configuration,
      }),
    ).toMatchObject({ status: 'Paid', amount: '92.50', currency: 'EUR' });
  });

  it('a batch with a wrong signature is refused (498) and nothing is read', async () => {
    const payment = goCardless.collectedPayment(token, 100);
    const batch = goCardless.afterSuccessEvent(payment.id, 'charged_back');
    expect(
      await checkout.verifyNotification!(
        notification({ ...batch, body: batch.body.replace('charged_back', 'confirmed') }),
      ),
    ).toEqual({ ok: false, statusCode: 498, body: 'Invalid Token' });
  });
});
