import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutAdapter, CheckoutConfiguration } from '../checkout.js';
import type { PaymentProviderAdapter } from '../adapter.js';
import { createStripeAdapter } from './stripe.adapter.js';
import { createStripeCheckout } from './stripe.checkout.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/fake-stripe.js';
import { recorded } from '../../../test/fixtures/checkout-input.js';
import { refundCall } from '../../../test/fixtures/refund-input.js';

let stripe: FakeStripe;
let checkout: CheckoutAdapter;
let adapter: PaymentProviderAdapter;
const account = 'acct_1Refunds0000001';
let configuration: CheckoutConfiguration;

const notification = (event: { body: string; headers: Record<string, string> }) => ({
  headers: event.headers,
  rawBody: Buffer.from(event.body),
  configuration,
  url: `https://ledgerline.example/api/v0/webhooks/stripe/${configuration.id}`,
});

async function eventOf(event: { body: string; headers: Record<string, string> }) {
  const verified = await checkout.verifyNotification!(notification(event));
  if (!verified.ok) throw new Error(`refused: ${verified.body}`);
  expect(verified.events).toHaveLength(1);
  return verified.events[0]!;
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  stripe.accounts.set(account, { id: account, displayName: 'Refunds Ltd' });
  const options = { apiUrl: stripe.url, secretKey: stripe.secretKey, timeoutMs: 5000 };
  adapter = createStripeAdapter(options);
  checkout = createStripeCheckout({ ...options, webhookSecret: stripe.webhookSecret });
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: { stripeAccountId: account },
    settings: {},
  };
});
afterAll(() => stripe.close());

const credentials = { stripeAccountId: account };

describe('Stripe refunds (POST /v1/refunds on the connected account)', () => {
  it('refunds part, then the rest, in minor units with our refund id as the Idempotency-Key', async () => {
    const paymentTransactionId = randomUUID();
    const intent = stripe.succeededIntent(account, 9250);
    const part = refundCall(credentials, {
      paymentTransactionId,
      providerReference: intent,
      amount: '40.0000',
      reason: 'Requested by customer',
    });
    const first = await adapter.refund!(part);
    expect(first).toMatchObject({ ok: true, pending: false });
    expect(first.refundReference).toMatch(/^re_/);
    const sent = stripe.requests.filter((r) => r.path === '/v1/refunds').at(-1)!;
    expect(sent.headers['stripe-account']).toBe(account);
    expect(sent.headers['idempotency-key']).toBe(part.refundTransactionId);
    expect(Object.fromEntries(sent.form)).toEqual({
      payment_intent: intent,
      amount: '4000',
      reason: 'requested_by_customer',
      'metadata[ledgerlinePaymentId]': paymentTransactionId,
      'metadata[ledgerlineRefundId]': part.refundTransactionId,
      'metadata[ledgerlineReason]': 'Requested by customer',
    });
    expect(first.exchange).toMatchObject({
      eventType: 'refund.create',
      recordType: 'refund',
      recordId: first.refundReference,
      status: 'succeeded',
    });
    expect(recorded(first.exchange)).not.toContain(stripe.secretKey);

    // The same refund asked again (a retry after a lost answer): Stripe replays the first one.
    const again = await adapter.refund!(part);
    expect(again.refundReference).toBe(first.refundReference);
    expect([...stripe.refunds.values()].filter((r) => r.paymentIntent === intent)).toHaveLength(1);

    const rest = await adapter.refund!(
      refundCall(credentials, {
        paymentTransactionId,
        providerReference: intent,
        amount: '52.50',
        alreadyRefunded: '40.00',
        reason: 'Goods returned',
      }),
    );
    expect(rest).toMatchObject({ ok: true, pending: false });
    // Staff's words that are not one of Stripe's reasons travel as metadata only.
    const restSent = stripe.requests.filter((r) => r.path === '/v1/refunds').at(-1)!;
    expect(restSent.form.get('reason')).toBeNull();
    expect(restSent.form.get('metadata[ledgerlineReason]')).toBe('Goods returned');
    expect(stripe.refunds.get(rest.refundReference!)!.amount).toBe(5250);
  });

  it('refuses more than is left in Stripe’s own words, and a fully refunded charge', async () => {
    const intent = stripe.succeededIntent(account, 5000);
    const tooMuch = await adapter.refund!(
      refundCall(credentials, { providerReference: intent, amount: '50.01' }),
    );
    expect(tooMuch).toMatchObject({
      ok: false,
      errorMessage: 'Refund amount (£50.01) is greater than charge amount (£50.00)',
    });
    expect(tooMuch.exchange.status).toBe('amount_too_large');
    await adapter.refund!(refundCall(credentials, { providerReference: intent, amount: '30.00' }));
    const over = await adapter.refund!(
      refundCall(credentials, { providerReference: intent, amount: '25.00' }),
    );
    expect(over).toMatchObject({
      ok: false,
      errorMessage: 'Refund amount (£25.00) is greater than unrefunded amount on charge (£20.00)',
    });
    await adapter.refund!(refundCall(credentials, { providerReference: intent, amount: '20.00' }));
    const done = await adapter.refund!(
      refundCall(credentials, { providerReference: intent, amount: '1.00' }),
    );
    expect(done).toMatchObject({
      ok: false,
      errorMessage: `Charge ch_${intent.slice(3)} has already been refunded.`,
    });
    // Another account's payment is not found on this one.
    const foreign = stripe.succeededIntent('acct_1Other00000001', 5000);
    expect(
      await adapter.refund!(refundCall(credentials, { providerReference: foreign })),
    ).toMatchObject({ ok: false, errorMessage: `No such payment_intent: '${foreign}'` });
  });

  it('a pending refund is pending; a session without an intent or no account is not sent', async () => {
    const intent = stripe.succeededIntent(account, 2000);
    stripe.nextRefundStatus('pending');
    expect(
      await adapter.refund!(refundCall(credentials, { providerReference: intent })),
    ).toMatchObject({ ok: true, pending: true });
    const before = stripe.requests.length;
    const session = await adapter.refund!(
      refundCall(credentials, { providerReference: 'cs_test_abc' }),
    );
    expect(session).toMatchObject({ ok: false, exchange: { status: 'not_sent' } });
    const unconnected = await adapter.refund!(refundCall({}, { providerReference: intent }));
    expect(unconnected).toMatchObject({ ok: false, exchange: { status: 'not_sent' } });
    expect(stripe.requests.length).toBe(before);
  });

  it('a refund lost on the way is retried once with the same key and made once', async () => {
    const intent = stripe.succeededIntent(account, 3000);
    stripe.loseNextAnswer();
    const call = refundCall(credentials, { providerReference: intent, amount: '30.00' });
    const outcome = await adapter.refund!(call);
    expect(outcome).toMatchObject({ ok: true });
    expect([...stripe.refunds.values()].filter((r) => r.paymentIntent === intent)).toHaveLength(1);
  });
});

describe('Stripe refund and dispute notifications', () => {
  it('refund.updated and refund.failed carry the refund, its status and our payment id', async () => {
    const paymentTransactionId = randomUUID();
    const intent = stripe.succeededIntent(account, 9250);
    const made = await adapter.refund!(
      refundCall(credentials, { paymentTransactionId, providerReference: intent, amount: '12.34' }),
    );
    const failed = await eventOf(
      stripe.moveRefund(made.refundReference!, 'failed', {
        failureReason: 'expired_or_canceled_card',
      }),
    );
    expect(failed).toMatchObject({
      eventType: 'refund.updated',
      paymentTransactionId,
      providerReference: intent,
      status: null,
      account,
      currency: 'GBP',
      refund: {
        refundReference: made.refundReference,
        amount: '12.34',
        status: 'Failed',
        reason: 'expired_or_canceled_card',
      },
    });
    const succeeded = await eventOf(
      stripe.moveRefund(made.refundReference!, 'succeeded', { type: 'charge.refund.updated' }),
    );
    expect(succeeded.refund).toMatchObject({ status: 'Succeeded', amount: '12.34' });
    const pending = await eventOf(
      stripe.moveRefund(made.refundReference!, 'pending', { type: 'refund.created' }),
    );
    expect(pending.refund?.status).toBe('Pending');
  });

  it('charge.refunded from the dashboard names the newest refund and the payment intent', async () => {
    const intent = stripe.succeededIntent(account, 9250);
    const { refund, event } = stripe.dashboardRefund(intent, 1000);
    expect(await eventOf(event)).toMatchObject({
      eventType: 'charge.refunded',
      paymentTransactionId: null,
      providerReference: intent,
      status: null,
      amount: '92.50',
      currency: 'GBP',
      refund: {
        refundReference: refund.id,
        amount: '10.00',
        status: 'Succeeded',
        reason: 'requested_by_customer',
      },
    });
  });

  it('charge.dispute.created / updated / closed carry stage, amount, reason and respond-by', async () => {
    const intent = stripe.succeededIntent(account, 9250);
    const dueBy = Math.floor(Date.UTC(2026, 11, 10, 23, 59, 59) / 1000);
    const id = 'dp_1FakeDispute0001';
    const opened = await eventOf(
      stripe.disputeEvent(intent, 'needs_response', {
        id,
        amount: 9250,
        reason: 'fraudulent',
        dueBy,
      }),
    );
    expect(opened).toMatchObject({
      eventType: 'charge.dispute.created',
      providerReference: intent,
      status: null,
      account,
      currency: 'GBP',
      dispute: {
        disputeReference: id,
        stage: 'Opened',
        amount: '92.50',
        currency: 'GBP',
        reason: 'fraudulent',
        respondBy: '2026-12-10T23:59:59.000Z',
      },
    });
    const review = await eventOf(stripe.disputeEvent(intent, 'under_review', { id }));
    expect(review.dispute).toMatchObject({ disputeReference: id, stage: 'UnderReview' });
    const lost = await eventOf(stripe.disputeEvent(intent, 'lost', { id, amount: 5000 }));
    expect(lost).toMatchObject({
      eventType: 'charge.dispute.closed',
      dispute: { stage: 'Lost', amount: '50.00' },
    });
    const won = await eventOf(stripe.disputeEvent(intent, 'won', { id }));
    expect(won.dispute?.stage).toBe('Won');
    // An inquiry closed without a chargeback gave the money back: won; no due date: null.
    const inquiry = await eventOf(
      stripe.disputeEvent(intent, 'warning_closed', { dueBy: 0, reason: 'general' }),
    );
    expect(inquiry.dispute).toMatchObject({ stage: 'Won', respondBy: null, reason: 'general' });
  });

  it('payment intent events and status answers carry what was taken and its currency', async () => {
    const intent = stripe.succeededIntent(account, 9250, 'gbp');
    const succeeded = await eventOf(
      stripe.signedEvent(
        'payment_intent.succeeded',
        {
          id: intent,
          object: 'payment_intent',
          amount: 9250,
          amount_received: 9250,
          currency: 'gbp',
          status: 'succeeded',
          metadata: {},
        },
        account,
      ),
    );
    expect(succeeded).toMatchObject({ status: 'Paid', amount: '92.50', currency: 'GBP' });
    const status = await checkout.status({
      paymentTransactionId: randomUUID(),
      providerReference: intent,
      returnQuery: {},
      configuration,
    });
    expect(status).toMatchObject({ status: 'Paid', amount: '92.50', currency: 'GBP' });
  });

  it('a notification signed more than five minutes ago is refused (Stripe’s tolerance)', async () => {
    const intent = stripe.succeededIntent(account, 100);
    const old = stripe.disputeEvent(intent, 'needs_response');
    const stale = stripe.signedEvent(
      'charge.dispute.created',
      JSON.parse(old.body).data.object as object,
      account,
      Math.floor(Date.now() / 1000) - 301,
    );
    expect(await checkout.verifyNotification!(notification(stale))).toEqual({
      ok: false,
      statusCode: 400,
      body: 'Timestamp outside the tolerance zone.',
    });
  });
});
