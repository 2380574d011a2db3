import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutAdapter, CheckoutConfiguration } from '../checkout.js';
import { CheckoutStartError } from '../checkout-support.js';
import { createStripeCheckout } from './stripe.checkout.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/fake-stripe.js';
import { startFakeServer, type FakeServer } from '../../../test/fakes/fake-server.js';
import { waitFor } from '../../../test/wait.js';
import { clickThrough, recorded, startInput } from '../../../test/fixtures/checkout-input.js';

let stripe: FakeStripe;
let adapter: CheckoutAdapter;
const account = 'acct_1Checkout000001';
let configuration: CheckoutConfiguration;

const notification = (event: { body: string; headers: Record<string, string> }) => ({
  headers: event.headers,
  rawBody: Buffer.from(event.body),
  configuration,
  url: `https://ledgerline.example/api/v0/webhooks/stripe/${configuration.id}`,
});

beforeAll(async () => {
  stripe = await startFakeStripe();
  stripe.accounts.set(account, { id: account, displayName: 'Checkout Ltd' });
  adapter = createStripeCheckout({
    apiUrl: stripe.url,
    secretKey: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    timeoutMs: 5000,
  });
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: { stripeAccountId: account },
    settings: {},
  };
});
afterAll(() => stripe.close());

describe('Stripe checkout (Checkout Session on the connected account)', () => {
  it('starts a session with the amount, our payment id and the return addresses, and redirects to it', async () => {
    const input = startInput(configuration);
    const started = await adapter.start(input);
    expect(started.next.kind).toBe('redirect');
    const session = stripe.sessions.get(started.providerReference!)!;
    expect(session).toBeDefined();
    expect(started.next).toEqual({ kind: 'redirect', url: `${stripe.url}/c/pay/${session.id}` });
    const sent = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(sent.headers['stripe-account']).toBe(account);
    expect(sent.headers['idempotency-key']).toBe(`${input.paymentTransactionId}-checkout`);
    expect(Object.fromEntries(sent.form)).toMatchObject({
      mode: 'payment',
      success_url: input.returnUrl,
      cancel_url: input.cancelUrl,
      client_reference_id: input.paymentTransactionId,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'gbp',
      'line_items[0][price_data][unit_amount]': '9250',
      'metadata[ledgerlinePaymentId]': input.paymentTransactionId,
      'payment_intent_data[metadata][ledgerlinePaymentId]': input.paymentTransactionId,
      customer_email: 'pat@example.com',
    });
    expect(sent.form.has('payment_intent_data[capture_method]')).toBe(false);
    expect(started.exchange.recordId).toBe(session.id);
    expect(recorded(started.exchange)).not.toContain(stripe.secretKey);

    // Not paid yet: Processing.
    const open = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: session.id,
      returnQuery: {},
      configuration,
    });
    expect(open.status).toBe('Processing');

    const event = stripe.completeSession(session.id, 'paid')!;
    const paid = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: session.id,
      returnQuery: {},
      configuration,
    });
    expect(paid).toMatchObject({
      status: 'Paid',
      providerReference: session.paymentIntent,
      paymentMethodType: 'Card',
    });
    // Once the payment intent is the reference, status reads it.
    const again = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: session.paymentIntent,
      returnQuery: {},
      configuration,
    });
    expect(again.status).toBe('Paid');

    const verified = await adapter.verifyNotification!(notification(event));
    expect(verified).toEqual({
      ok: true,
      events: [
        expect.objectContaining({
          eventType: 'checkout.session.completed',
          paymentTransactionId: input.paymentTransactionId,
          providerReference: session.paymentIntent,
          status: 'Paid',
        }),
      ],
    });
    if (verified.ok) {
      expect(verified.events[0]!.eventId).toMatch(/^evt_/);
      expect(verified.events[0]!.payload).toBe(event.body);
    }
  });

  it('reserves with manual capture: Pending, then capturable by the capture adapter', async () => {
    const input = startInput(configuration, { captureType: 'Reserve', amount: '10.00' });
    const started = await adapter.start(input);
    const session = stripe.sessions.get(started.providerReference!)!;
    expect(session.form.get('payment_intent_data[capture_method]')).toBe('manual');
    const event = stripe.completeSession(session.id)!;
    const status = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: session.id,
      returnQuery: {},
      configuration,
    });
    expect(status).toMatchObject({ status: 'Pending', providerReference: session.paymentIntent });
    expect(stripe.paymentIntents.get(session.paymentIntent!)?.status).toBe('requires_capture');
    const verified = await adapter.verifyNotification!(notification(event));
    expect(verified.ok && verified.events[0]!.status).toBe('Pending');
  });

  it('a declined card leaves the session open (the payer may try again); expiry cancels it', async () => {
    const input = startInput(configuration);
    const started = await adapter.start(input);
    const id = started.providerReference!;
    stripe.completeSession(id, 'declined');
    const declined = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: id,
      returnQuery: {},
      configuration,
    });
    expect(declined.status).toBe('Processing');
    const failedEvent = stripe.signedEvent(
      'payment_intent.payment_failed',
      {
        id: stripe.sessions.get(id)!.paymentIntent,
        object: 'payment_intent',
        status: 'requires_payment_method',
        metadata: { ledgerlinePaymentId: input.paymentTransactionId },
        last_payment_error: { message: 'Your card was declined.' },
      },
      account,
    );
    const failed = await adapter.verifyNotification!(notification(failedEvent));
    expect(failed.ok && failed.events[0]).toMatchObject({
      status: null,
      errorMessage: 'Your card was declined.',
      paymentTransactionId: input.paymentTransactionId,
    });

    const expired = stripe.expireSession(id);
    const status = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: id,
      returnQuery: {},
      configuration,
    });
    expect(status.status).toBe('Cancelled');
    const verified = await adapter.verifyNotification!(notification(expired));
    expect(verified.ok && verified.events[0]).toMatchObject({
      eventType: 'checkout.session.expired',
      status: 'Cancelled',
    });
  });

  it('maps the asynchronous outcomes and the payment intent events', async () => {
    const paymentTransactionId = randomUUID();
    const object = {
      id: 'cs_test_async',
      object: 'checkout.session',
      metadata: { ledgerlinePaymentId: paymentTransactionId },
      payment_intent: 'pi_async',
    };
    const cases: [string, object, string | null][] = [
      ['checkout.session.async_payment_succeeded', object, 'Paid'],
      ['checkout.session.async_payment_failed', object, 'Failed'],
      [
        'payment_intent.succeeded',
        { id: 'pi_async', object: 'payment_intent', metadata: object.metadata },
        'Paid',
      ],
      [
        'payment_intent.amount_capturable_updated',
        { id: 'pi_async', object: 'payment_intent', metadata: object.metadata },
        'Pending',
      ],
      [
        'payment_intent.canceled',
        { id: 'pi_async', object: 'payment_intent', metadata: object.metadata },
        'Cancelled',
      ],
      ['customer.created', { id: 'cus_1', object: 'customer' }, null],
    ];
    for (const [type, body, status] of cases) {
      const verified = await adapter.verifyNotification!(
        notification(stripe.signedEvent(type, body, account)),
      );
      expect(verified.ok, type).toBe(true);
      if (verified.ok) expect(verified.events[0]!.status, type).toBe(status);
    }
  });

  it('refuses a notification with a wrong, missing or stale signature (400), reading nothing', async () => {
    const event = stripe.signedEvent(
      'checkout.session.completed',
      { id: 'cs_x', payment_status: 'paid' },
      account,
    );
    const tampered = { ...event, body: event.body.replace('"paid"', '"unpaid"') };
    for (const bad of [
      tampered,
      { body: event.body, headers: {} },
      { body: event.body, headers: { 'stripe-signature': 't=1,v1=zz' } },
      stripe.signedEvent(
        'checkout.session.completed',
        { id: 'cs_x' },
        account,
        Math.floor(Date.now() / 1000) - 301,
      ),
    ]) {
      const verified = await adapter.verifyNotification!(notification(bad));
      expect(verified.ok).toBe(false);
      if (!verified.ok) expect(verified.statusCode).toBe(400);
    }
    const withoutSecret = createStripeCheckout({
      apiUrl: stripe.url,
      secretKey: stripe.secretKey,
      webhookSecret: undefined,
      timeoutMs: 5000,
    });
    const refused = await withoutSecret.verifyNotification!(notification(event));
    expect(refused.ok).toBe(false);
  });

  it('fails to start clearly: no connected account, an account that revoked access, an unreachable Stripe', async () => {
    await expect(adapter.start(startInput({ ...configuration, credentials: {} }))).rejects.toThrow(
      'no Stripe account is connected',
    );
    const revoked = adapter.start(
      startInput({ ...configuration, credentials: { stripeAccountId: 'acct_unknown' } }),
    );
    await expect(revoked).rejects.toBeInstanceOf(CheckoutStartError);
    await expect(revoked).rejects.toThrow(/does not have access to account/);
    const closed = createStripeCheckout({
      apiUrl: 'http://127.0.0.1:9',
      secretKey: 'sk_test_x',
      webhookSecret: undefined,
      timeoutMs: 2000,
    });
    const error = await closed.start(startInput(configuration)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutStartError);
    expect((error as CheckoutStartError).unreachable).toBe(true);
    expect((error as CheckoutStartError).exchange.status).toBe('unreachable');
  });

  it('end to end on the fake: the payer pays on the hosted page, comes back, and the signed event reaches the endpoint', async () => {
    const endpoint: FakeServer = await startFakeServer((_, response) => {
      response.writeHead(200);
      response.end();
    });
    stripe.sendEventsTo(`${endpoint.url}/api/v0/webhooks/stripe/${configuration.id}`);
    try {
      const input = startInput(configuration);
      const started = await adapter.start(input);
      if (started.next.kind !== 'redirect') throw new Error('not a redirect');
      expect(await clickThrough(started.next.url, 'Pay')).toBe(input.returnUrl);
      const delivered = await waitFor(async () => endpoint.requests[0]);
      const verified = await adapter.verifyNotification!({
        headers: delivered.headers,
        rawBody: Buffer.from(delivered.body),
        configuration,
        url: `${endpoint.url}${delivered.path}`,
      });
      expect(verified.ok && verified.events[0]).toMatchObject({
        paymentTransactionId: input.paymentTransactionId,
        status: 'Paid',
      });
    } finally {
      stripe.sendEventsTo(null);
      await endpoint.close();
    }
  });
});
