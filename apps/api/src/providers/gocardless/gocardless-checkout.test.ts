import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutAdapter, CheckoutConfiguration } from '../checkout.js';
import { CheckoutStartError } from '../checkout-support.js';
import { createGoCardlessCheckout } from './gocardless.checkout.js';
import { startFakeGoCardless, type FakeGoCardless } from '../../../test/fakes/fake-gocardless.js';
import { startFakeServer } from '../../../test/fakes/fake-server.js';
import { waitFor } from '../../../test/wait.js';
import { clickThrough, recorded, startInput } from '../../../test/fixtures/checkout-input.js';

let goCardless: FakeGoCardless;
let adapter: CheckoutAdapter;
let configuration: CheckoutConfiguration;

const notification = (batch: { body: string; headers: Record<string, string> }) => ({
  headers: batch.headers,
  rawBody: Buffer.from(batch.body),
  configuration,
  url: `https://ledgerline.example/api/v0/webhooks/gocardless/${configuration.id}`,
});

beforeAll(async () => {
  goCardless = await startFakeGoCardless();
  adapter = createGoCardlessCheckout({
    live: false,
    apiUrl: goCardless.url,
    webhookSecret: goCardless.webhookSecret,
    timeoutMs: 5000,
  });
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: {
      organisationId: goCardless.organisation.id,
      accessToken: goCardless.issueToken(),
    },
    settings: {},
  };
});
afterAll(() => goCardless.close());

describe('GoCardless checkout (billing request flow)', () => {
  it('creates a billing request in pence with our id, a flow with the return addresses, and redirects to it', async () => {
    const input = startInput(configuration);
    const started = await adapter.start(input);
    const billing = goCardless.billingRequests.get(started.providerReference!)!;
    expect(billing).toBeDefined();
    expect(billing.body).toMatchObject({
      payment_request: {
        amount: 9250,
        currency: 'GBP',
        description: input.description,
        metadata: { ledgerline_payment_id: input.paymentTransactionId },
      },
      mandate_request: { scheme: 'bacs' },
      metadata: { ledgerline_payment_id: input.paymentTransactionId },
    });
    expect(billing.flow).toMatchObject({ redirectUri: input.returnUrl, exitUri: input.cancelUrl });
    expect(started.next).toEqual({
      kind: 'redirect',
      url: `${goCardless.url}/flow/${billing.flow!.id}`,
    });
    const create = goCardless.requests.find((r) => r.path === '/billing_requests')!;
    expect(create.headers['gocardless-version']).toBe('2015-07-06');
    expect(create.headers['idempotency-key']).toBe(`${input.paymentTransactionId}-billing-request`);
    expect(recorded(started.exchange)).not.toContain(String(configuration.credentials.accessToken));

    const status = (providerReference: string) =>
      adapter.status({
        paymentTransactionId: input.paymentTransactionId,
        providerReference,
        returnQuery: {},
        configuration,
      });
    expect((await status(billing.id)).status).toBe('Processing');

    const payment = goCardless.fulfil(billing.id);
    const submitted = await status(billing.id);
    expect(submitted).toMatchObject({
      status: 'Processing',
      providerReference: payment.id,
      paymentMethodType: 'BankDebit',
    });
    payment.status = 'confirmed';
    expect((await status(billing.id)).status).toBe('Paid');
    expect((await status(payment.id)).status).toBe('Paid');
    payment.status = 'failed';
    expect(await status(payment.id)).toMatchObject({
      status: 'Failed',
      errorMessage: 'The payment failed.',
    });

    // The payments confirmed event maps back to our payment through its metadata.
    const batch = goCardless.signedEvents([
      goCardless.paymentEvent(payment.id, 'confirmed'),
      goCardless.paymentEvent(payment.id, 'failed', 'The customer’s account was closed.'),
      {
        id: 'EV000MANDATE',
        resource_type: 'mandates',
        action: 'active',
        links: { mandate: 'MD1' },
      },
    ]);
    const verified = await adapter.verifyNotification!(notification(batch));
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.events).toHaveLength(3);
    expect(verified.events[0]).toMatchObject({
      eventType: 'payments.confirmed',
      paymentTransactionId: input.paymentTransactionId,
      providerReference: payment.id,
      status: 'Paid',
    });
    expect(verified.events[1]).toMatchObject({
      status: 'Failed',
      errorMessage: 'The customer’s account was closed.',
    });
    expect(verified.events[2]).toMatchObject({ status: null, paymentTransactionId: null });
    expect(JSON.parse(verified.events[0]!.payload)).toMatchObject({ action: 'confirmed' });
  });

  it('a retried start gets the billing request the first one made (Idempotency-Key)', async () => {
    const input = startInput(configuration);
    const first = await adapter.start(input);
    const second = await adapter.start(input);
    expect(second.providerReference).toBe(first.providerReference);
  });

  it('a cancelled billing request is Cancelled', async () => {
    const input = startInput(configuration, { currency: 'EUR' });
    const started = await adapter.start(input);
    const billing = goCardless.billingRequests.get(started.providerReference!)!;
    expect(billing.body.mandate_request).toMatchObject({ scheme: 'sepa_core' });
    billing.status = 'cancelled';
    const status = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: billing.id,
      returnQuery: {},
      configuration,
    });
    expect(status.status).toBe('Cancelled');
  });

  it('answers 498 Invalid Token to a wrong or missing Webhook-Signature, reading nothing', async () => {
    const batch = goCardless.signedEvents([goCardless.paymentEvent('PM0001', 'confirmed')]);
    for (const bad of [
      { body: batch.body.replace('confirmed', 'failed'), headers: batch.headers },
      { body: batch.body, headers: {} },
      { body: batch.body, headers: { 'webhook-signature': 'not-hex' } },
    ]) {
      expect(await adapter.verifyNotification!(notification(bad))).toEqual({
        ok: false,
        statusCode: 498,
        body: 'Invalid Token',
      });
    }
    const withoutSecret = createGoCardlessCheckout({
      live: false,
      apiUrl: goCardless.url,
      webhookSecret: undefined,
      timeoutMs: 5000,
    });
    expect((await withoutSecret.verifyNotification!(notification(batch))).ok).toBe(false);
  });

  it('fails to start clearly: not connected, a refused token, a validation failure', async () => {
    await expect(adapter.start(startInput({ ...configuration, credentials: {} }))).rejects.toThrow(
      'the GoCardless account is not connected',
    );
    await expect(
      adapter.start(startInput({ ...configuration, credentials: { accessToken: 'revoked' } })),
    ).rejects.toThrow('GoCardless could not start the payment: Invalid token');
    const error = await adapter
      .start(startInput(configuration, { currency: 'USD' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutStartError);
    expect((error as Error).message).toBe(
      'GoCardless could not start the payment: currency is not a supported currency',
    );
  });

  it('end to end on the fake: the payer confirms in the flow, comes back, and the confirmed event reaches the endpoint', async () => {
    const endpoint = await startFakeServer((_, response) => {
      response.writeHead(204);
      response.end();
    });
    goCardless.sendEventsTo(`${endpoint.url}/api/v0/webhooks/gocardless/${configuration.id}`);
    try {
      const input = startInput(configuration);
      const started = await adapter.start(input);
      if (started.next.kind !== 'redirect') throw new Error('not a redirect');
      const back = new URL(await clickThrough(started.next.url, 'Confirm payment'));
      expect(back.searchParams.get('outcome')).toBe('success');
      expect(`${back.origin}${back.pathname}`).toBe(input.returnUrl.split('?')[0]);
      const billing = goCardless.billingRequests.get(started.providerReference!)!;
      goCardless.movePayment(billing.payment!, 'confirmed');
      const delivered = await waitFor(async () => endpoint.requests[0]);
      const verified = await adapter.verifyNotification!({
        headers: delivered.headers,
        rawBody: Buffer.from(delivered.body),
        configuration,
        url: `${endpoint.url}${delivered.path}`,
      });
      expect(verified.ok && verified.events[0]).toMatchObject({
        paymentTransactionId: input.paymentTransactionId,
        providerReference: billing.payment,
        status: 'Paid',
      });
    } finally {
      goCardless.sendEventsTo(null);
      await endpoint.close();
    }
  });
});
