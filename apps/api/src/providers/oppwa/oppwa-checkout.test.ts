import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutAdapter, CheckoutConfiguration } from '../checkout.js';
import { CheckoutStartError } from '../checkout-support.js';
import { createOppwaAdapter } from './oppwa.adapter.js';
import { createOppwaCheckout } from './oppwa.checkout.js';
import { startFakeOppwa, type FakeOppwa } from '../../../test/fakes/fake-oppwa.js';
import { recorded, startInput } from '../../../test/fixtures/checkout-input.js';

let oppwa: FakeOppwa;
let adapter: CheckoutAdapter;
let configuration: CheckoutConfiguration;

beforeAll(async () => {
  oppwa = await startFakeOppwa();
  adapter = createOppwaCheckout({
    testUrl: oppwa.url,
    liveUrl: 'http://127.0.0.1:9',
    timeoutMs: 5000,
  });
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: { entityId: oppwa.entityId, accessToken: oppwa.accessToken, useSandbox: true },
    settings: { brands: ['VISA', 'MASTER', 'AMEX'], storePayerPaymentMethod: false },
  };
});
afterAll(() => oppwa.close());

const statusOf = (
  paymentTransactionId: string,
  providerReference: string | null,
  returnQuery: Record<string, string> = {},
) => adapter.status({ paymentTransactionId, providerReference, returnQuery, configuration });

describe('OPPWA COPYandPAY checkout', () => {
  it('creates a DB checkout with our id and answers the widget step; a success code is Paid', async () => {
    const input = startInput(configuration);
    const started = await adapter.start(input);
    const checkout = oppwa.checkouts.get(started.providerReference!)!;
    expect(Object.fromEntries(checkout.form)).toMatchObject({
      entityId: oppwa.entityId,
      amount: '92.50',
      currency: 'GBP',
      paymentType: 'DB',
      merchantTransactionId: input.paymentTransactionId,
      merchantInvoiceId: 'LL-000123',
      'customer.email': 'pat@example.com',
      testMode: 'EXTERNAL',
    });
    expect(checkout.form.has('createRegistration')).toBe(false);
    expect(oppwa.requests.at(-1)!.headers.authorization).toBe(`Bearer ${oppwa.accessToken}`);
    expect(started.next).toEqual({
      kind: 'oppwa',
      checkoutId: checkout.id,
      scriptUrl: `${oppwa.url}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(checkout.id)}`,
      brands: 'VISA MASTER AMEX',
      shopperResultUrl: input.returnUrl,
    });
    expect(recorded(started.exchange)).not.toContain(oppwa.accessToken);

    expect((await statusOf(input.paymentTransactionId, checkout.id)).status).toBe('Processing');
    const paymentId = oppwa.pay(checkout.id, 'success');
    // As the widget returns: id and resourcePath on the return URL.
    const paid = await statusOf(input.paymentTransactionId, checkout.id, {
      id: checkout.id,
      resourcePath: `/v1/checkouts/${checkout.id}/payment`,
    });
    expect(paid).toMatchObject({
      status: 'Paid',
      providerReference: paymentId,
      paymentMethodType: 'Card',
      errorMessage: null,
    });
  });

  it('reserves with PA: Pending, and the payment id captures through the capture adapter', async () => {
    const input = startInput(configuration, { captureType: 'Reserve', amount: '40' });
    const started = await adapter.start(input);
    const checkout = oppwa.checkouts.get(started.providerReference!)!;
    expect(checkout.form.get('paymentType')).toBe('PA');
    expect(checkout.form.get('amount')).toBe('40.00');
    oppwa.pay(checkout.id, 'success');
    const reserved = await statusOf(input.paymentTransactionId, checkout.id);
    expect(reserved.status).toBe('Pending');
    const capture = await createOppwaAdapter({
      testUrl: oppwa.url,
      liveUrl: 'http://127.0.0.1:9',
      timeoutMs: 5000,
    }).capture({
      paymentTransactionId: input.paymentTransactionId,
      providerReference: reserved.providerReference!,
      currency: 'GBP',
      amount: '40.00',
      note: null,
      configuration,
    });
    expect(capture.ok).toBe(true);
  });

  it('maps declines, 3-D Secure failures, pending and expired checkouts', async () => {
    const cases: ['declined' | 'pending' | 'threeDs', string, string | null][] = [
      ['declined', 'Failed', 'transaction declined (invalid card)'],
      ['threeDs', 'NotAuthorised', 'Communication error to Scheme Directory Server'],
      ['pending', 'Processing', null],
    ];
    for (const [outcome, status, message] of cases) {
      const input = startInput(configuration);
      const started = await adapter.start(input);
      oppwa.pay(started.providerReference!, outcome);
      expect(
        await statusOf(input.paymentTransactionId, started.providerReference),
        outcome,
      ).toMatchObject({ status, errorMessage: message });
    }
    const gone = await statusOf(randomUUID(), 'UNKNOWN.uat01');
    expect(gone.status).toBe('Cancelled');
  });

  it('never follows a resourcePath that is not its checkout', async () => {
    const input = startInput(configuration);
    const started = await adapter.start(input);
    oppwa.pay(started.providerReference!, 'success');
    const before = oppwa.requests.length;
    const status = await statusOf(input.paymentTransactionId, started.providerReference, {
      resourcePath: '/v1/payments/other?x=1',
    });
    expect(status.status).toBe('Paid');
    expect(oppwa.requests.slice(before).map((r) => r.path)).toEqual([
      `/v1/checkouts/${started.providerReference}/payment`,
    ]);
  });

  it('fails to start clearly on wrong credentials', async () => {
    const wrong = {
      ...configuration,
      credentials: { ...configuration.credentials, accessToken: 'wrong' },
    };
    const error = await adapter.start(startInput(wrong)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutStartError);
    expect((error as Error).message).toBe(
      'Total Processing could not start the payment: invalid authentication information',
    );
    await expect(adapter.start(startInput({ ...configuration, credentials: {} }))).rejects.toThrow(
      'the entity id and access token are required',
    );
  });

  it('the fake widget pays its checkout as the real one would, and the page reads the result', async () => {
    const input = startInput(configuration);
    const started = await adapter.start(input);
    if (started.next.kind !== 'oppwa') throw new Error('not the widget');
    const script = await (await fetch(started.next.scriptUrl)).text();
    expect(script).toContain(JSON.stringify(started.next.checkoutId));
    // What the widget's button does before it sends the payer to shopperResultUrl.
    expect(
      (
        await fetch(`${oppwa.url}/fake/pay/${encodeURIComponent(started.next.checkoutId)}`, {
          method: 'POST',
        })
      ).status,
    ).toBe(204);
    const status = await statusOf(input.paymentTransactionId, null, {
      id: started.next.checkoutId,
      resourcePath: `/v1/checkouts/${started.next.checkoutId}/payment`,
    });
    expect(status.status).toBe('Paid');
  });
});
