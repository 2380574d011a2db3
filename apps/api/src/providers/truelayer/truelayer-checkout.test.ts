import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutConfiguration } from '../checkout.js';
import { CheckoutStartError } from '../checkout-support.js';
import { createTrueLayerCheckout } from './truelayer.checkout.js';
import { startFakeTrueLayer, type FakeTrueLayer } from '../../../test/fakes/fake-truelayer.js';
import { startFakeServer } from '../../../test/fakes/fake-server.js';
import { waitFor } from '../../../test/wait.js';
import { clickThrough, recorded, startInput } from '../../../test/fixtures/checkout-input.js';

let trueLayer: FakeTrueLayer;
let adapter: ReturnType<typeof createTrueLayerCheckout>;
let configuration: CheckoutConfiguration;
let hookPath: string;

const notification = (
  hook: { body: string; headers: Record<string, string> },
  path = hookPath,
) => ({
  headers: hook.headers,
  rawBody: Buffer.from(hook.body),
  configuration,
  url: `https://ledgerline.example${path}`,
});

beforeAll(async () => {
  trueLayer = await startFakeTrueLayer();
  adapter = createTrueLayerCheckout({
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
  });
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: {
      clientId: trueLayer.clientId,
      clientSecret: trueLayer.clientSecret,
      useSandbox: true,
    },
    settings: {
      beneficiaryName: 'Acme Supplies Ltd',
      beneficiaryReference: '{accountReference}',
      remitterReference: '{companyName}',
      beneficiaryBankAccount: {
        accountName: 'Acme',
        accountNumber: '12345678',
        sortCode: '040004',
        iban: null,
        currency: 'GBP',
      },
    },
  };
  hookPath = `/api/v0/webhooks/truelayer/${configuration.id}`;
});
afterAll(() => trueLayer.close());

describe('TrueLayer checkout (single immediate payment)', () => {
  it('creates a payment to the beneficiary in pence with the references, and redirects to auth_uri', async () => {
    const input = startInput(configuration);
    const started = await adapter.start(input);
    const payment = trueLayer.payments.get(started.providerReference!)!;
    expect(payment.body).toEqual({
      amount: 9250,
      currency: 'GBP',
      remitter_reference: 'Acme Supplies Ltd',
      beneficiary_name: 'Acme Supplies Ltd',
      beneficiary_sort_code: '040004',
      beneficiary_account_number: '12345678',
      beneficiary_reference: 'LL-000123',
      redirect_uri: input.returnUrl,
    });
    expect(started.next).toEqual({
      kind: 'redirect',
      url: `${trueLayer.url}/bank/${payment.simp_id}/`,
    });
    const tokenCall = trueLayer.requests.find((r) => r.path === '/connect/token')!;
    expect(Object.fromEntries(tokenCall.form)).toMatchObject({
      grant_type: 'client_credentials',
      scope: 'payments',
    });
    expect(recorded(started.exchange)).not.toContain(trueLayer.clientSecret);

    const status = () =>
      adapter.status({
        paymentTransactionId: input.paymentTransactionId,
        providerReference: payment.simp_id,
        returnQuery: {},
        configuration,
      });
    expect((await status()).status).toBe('Processing');
    payment.status = 'executed';
    expect(await status()).toMatchObject({ status: 'Paid', paymentMethodType: 'BankTransfer' });
    payment.status = 'rejected';
    expect((await status()).status).toBe('Rejected');
    payment.status = 'failed';
    expect((await status()).status).toBe('Failed');
    // From the return query alone (payment_id), as the bank sends the payer back.
    const fromReturn = await adapter.status({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: null,
      returnQuery: { payment_id: payment.simp_id },
      configuration,
    });
    expect(fromReturn.providerReference).toBe(payment.simp_id);
    // One token for all of it.
    expect(trueLayer.tokensIssued()).toBe(1);
  });

  it('reads a signed executed webhook; refuses a wrong signature, a foreign jku or key, a changed body (401)', async () => {
    const simp = randomUUID();
    const hook = trueLayer.signedWebhook(hookPath, trueLayer.statusChanged(simp, 'executed'));
    const verified = await adapter.verifyNotification!(notification(hook));
    expect(verified).toMatchObject({
      ok: true,
      events: [
        {
          providerReference: simp,
          status: 'Paid',
          eventType: 'single_immediate_payment_status_changed.executed',
          payload: hook.body,
        },
      ],
    });

    const failed = trueLayer.signedWebhook(hookPath, trueLayer.statusChanged(simp, 'failed'));
    const failedRead = await adapter.verifyNotification!(notification(failed));
    expect(failedRead.ok && failedRead.events[0]!.status).toBe('Failed');

    const v3 = trueLayer.signedWebhook(hookPath, {
      type: 'payment_settled',
      event_id: randomUUID(),
      payment_id: simp,
      metadata: { ledgerlinePaymentId: 'x' },
    });
    const v3Read = await adapter.verifyNotification!(notification(v3));
    expect(v3Read.ok && v3Read.events[0]).toMatchObject({
      status: 'Paid',
      paymentTransactionId: 'x',
    });

    for (const bad of [
      { ...hook, body: hook.body.replace('executed', 'failed') },
      { body: hook.body, headers: { ...hook.headers, 'tl-signature': '' } },
      {
        body: hook.body,
        headers: { ...hook.headers, 'x-tl-webhook-timestamp': new Date(0).toISOString() },
      },
      trueLayer.signedWebhook(hookPath, trueLayer.statusChanged(simp, 'executed'), {
        key: 'other',
      }),
      trueLayer.signedWebhook(hookPath, trueLayer.statusChanged(simp, 'executed'), {
        jku: 'https://attacker.example/jwks',
      }),
    ]) {
      const refused = await adapter.verifyNotification!(notification(bad));
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.statusCode).toBe(401);
    }
    // Signed for another address: refused.
    expect(
      (await adapter.verifyNotification!(notification(hook, '/api/v0/webhooks/truelayer/other')))
        .ok,
    ).toBe(false);
  });

  it('fails to start clearly: wrong client secret, incomplete bank details, not GBP', async () => {
    const wrong = {
      ...configuration,
      credentials: { ...configuration.credentials, clientSecret: 'wrong' },
    };
    const error = await adapter.start(startInput(wrong)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutStartError);
    expect((error as Error).message).toBe(
      'TrueLayer could not start the payment: TrueLayer refused the client credentials (invalid_client).',
    );
    expect((error as CheckoutStartError).exchange.payload).not.toContain('wrong');
    await expect(
      adapter.start(startInput({ ...configuration, settings: { beneficiaryName: 'X' } })),
    ).rejects.toThrow('the bank details are incomplete');
    await expect(adapter.start(startInput(configuration, { currency: 'EUR' }))).rejects.toThrow(
      'only GBP payments are possible',
    );
  });

  it('a token proves the client credentials (connection test)', async () => {
    await expect(adapter.token(configuration)).resolves.toEqual(expect.any(String));
    await expect(
      adapter.token({ credentials: { ...configuration.credentials, clientId: 'nobody' } }),
    ).rejects.toThrow('invalid_client');
  });

  it('end to end on the fake: the payer approves in the mock bank, comes back with payment_id, and the signed webhook reaches the endpoint', async () => {
    const endpoint = await startFakeServer((_, response) => {
      response.writeHead(200);
      response.end();
    });
    trueLayer.sendEventsTo(`${endpoint.url}${hookPath}`);
    try {
      const input = startInput(configuration);
      const started = await adapter.start(input);
      if (started.next.kind !== 'redirect') throw new Error('not a redirect');
      const back = new URL(await clickThrough(started.next.url, 'Approve'));
      expect(back.searchParams.get('payment_id')).toBe(started.providerReference);
      const delivered = await waitFor(async () => endpoint.requests[0]);
      const verified = await adapter.verifyNotification!({
        headers: delivered.headers,
        rawBody: Buffer.from(delivered.body),
        configuration,
        url: `${endpoint.url}${delivered.path}`,
      });
      expect(verified.ok && verified.events[0]).toMatchObject({
        providerReference: started.providerReference,
        status: 'Paid',
      });
      const status = await adapter.status({
        paymentTransactionId: input.paymentTransactionId,
        providerReference: null,
        returnQuery: Object.fromEntries(back.searchParams),
        configuration,
      });
      expect(status.status).toBe('Paid');
    } finally {
      trueLayer.sendEventsTo(null);
      await endpoint.close();
    }
  });
});
