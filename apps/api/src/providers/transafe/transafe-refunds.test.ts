import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefundCall } from '../adapter.js';
import type { CheckoutConfiguration } from '../checkout.js';
import { createTranSafeAdapter } from './transafe.adapter.js';
import { createTranSafeCheckout } from './transafe.checkout.js';
import { fakeTranSafeCards, startFakeTranSafe, type FakeTranSafe } from '../../../test/fakes/fake-transafe.js';
import { recorded } from '../../../test/fixtures/checkout-input.js';

/**
 * TranSafe (Monetra REST v2) refunds against the fake over real HTTP, as Monetra's own
 * plug-in decides: the unsettled report first; a whole unsettled purchase is reversed (void when
 * the reversal is refused), a part of it or any settled one refunded with `money.amount`.
 */

const userName = 'merchant:refunds';
const password = 'refund-secret-1';
let tranSafe: FakeTranSafe;
let checkout: ReturnType<typeof createTranSafeCheckout>;
let adapter: ReturnType<typeof createTranSafeAdapter>;
let configuration: CheckoutConfiguration;

beforeAll(async () => {
  tranSafe = await startFakeTranSafe();
  tranSafe.users.set('merchant|refunds', password);
  const urls = { testUrl: tranSafe.url, liveUrl: 'http://127.0.0.1:9', timeoutMs: 5000 };
  checkout = createTranSafeCheckout(urls);
  adapter = createTranSafeAdapter(urls);
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: { userName, password },
    settings: { useTestSite: true },
  };
});
afterAll(() => tranSafe.close());

/** A purchase charged with a frame's ticket: its ttid (and what TranSafe said it approved). */
async function purchase(amount = '80.00') {
  const ticket = randomBytes(12).toString('hex');
  tranSafe.tickets.set(ticket, { account: fakeTranSafeCards.approved, used: false });
  const charged = await checkout.chargeTicket!({
    paymentTransactionId: randomUUID(),
    ledgerlineReference: 'LL-000200',
    providerReference: 'paymentframe:1796000000:ticket',
    amount,
    currency: 'USD',
    captureType: 'Immediate',
    ticket,
    configuration,
  });
  // TranSafe's approved amount; it names no currency.
  expect(charged).toMatchObject({ status: 'Paid', amount });
  expect(charged.currency).toBeUndefined();
  return charged.providerReference!;
}

const call = (ttid: string, amount: string, overrides: Partial<RefundCall> = {}): RefundCall => ({
  paymentTransactionId: randomUUID(),
  refundTransactionId: randomUUID(),
  providerReference: ttid,
  currency: 'USD',
  amount,
  paymentAmount: '80.00',
  note: null,
  reason: null,
  configuration: { isTest: true, credentials: configuration.credentials },
  ...overrides,
});

const pathsSince = (before: number) =>
  tranSafe.requests
    .slice(before)
    .map((r) => `${r.method} ${r.path}${r.query.size ? `?${r.query}` : ''}`);

describe('TranSafe refunds', () => {
  it('a part of an unsettled purchase is refunded with money.amount; the refund ttid is the reference', async () => {
    const ttid = await purchase('80.00');
    const before = tranSafe.requests.length;
    const outcome = await adapter.refund!(call(ttid, '30'));
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(pathsSince(before)).toEqual([
      `GET /api/v2/report/unsettled?ttid=${ttid}`,
      `POST /api/v2/transaction/${ttid}/refund`,
    ]);
    const sent = tranSafe.requests.at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({ money: { amount: '30.00' } });
    expect(sent.headers.authorization).toBe(
      `Basic ${Buffer.from(`merchant|refunds:${password}`).toString('base64')}`,
    );
    expect(tranSafe.refunds.get(outcome.refundReference!)).toEqual({ of: ttid, amount: '30.00' });
    expect(outcome.exchange).toMatchObject({ eventType: 'transaction.refund', status: 'AUTH' });
    expect(recorded(outcome.exchange)).not.toContain(password);
    // The rest, then nothing more.
    expect((await adapter.refund!(call(ttid, '50'))).ok).toBe(true);
    const over = await adapter.refund!(call(ttid, '0.01'));
    expect(over).toMatchObject({
      ok: false,
      errorMessage: 'Refund amount exceeds original transaction',
    });
    expect(over.exchange.status).toBe('DENY');
  });

  it('a whole unsettled purchase is reversed, not refunded', async () => {
    const ttid = await purchase('45.50');
    const before = tranSafe.requests.length;
    const outcome = await adapter.refund!(call(ttid, '45.5', { paymentAmount: '45.50' }));
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(pathsSince(before)).toEqual([
      `GET /api/v2/report/unsettled?ttid=${ttid}`,
      `DELETE /api/v2/transaction/${ttid}`,
    ]);
    expect(tranSafe.transactions.get(ttid)!.status).toBe('reversed');
    expect(outcome).toMatchObject({ refundReference: ttid });
    expect(outcome.exchange.eventType).toBe('transaction.reversal');
  });

  it('a settled purchase is refunded whole through /refund', async () => {
    const ttid = await purchase('20.00');
    tranSafe.transactions.get(ttid)!.settled = true;
    const before = tranSafe.requests.length;
    const outcome = await adapter.refund!(call(ttid, '20', { paymentAmount: '20.00' }));
    expect(outcome.ok).toBe(true);
    expect(pathsSince(before)).toEqual([
      `GET /api/v2/report/unsettled?ttid=${ttid}`,
      `POST /api/v2/transaction/${ttid}/refund`,
    ]);
  });

  it('a reversal TranSafe refuses is followed by a void', async () => {
    const ttid = await purchase('10.00');
    // 1.00 of it refunded elsewhere, so the unsettled report shows 9.00: the whole of it is asked
    // for, the fake's reversal refuses a refunded purchase, and its void takes it back.
    tranSafe.transactions.get(ttid)!.refunded = '1.00';
    tranSafe.transactions.get(ttid)!.amount = '9.00';
    const before = tranSafe.requests.length;
    const outcome = await adapter.refund!(call(ttid, '9', { paymentAmount: '10.00' }));
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(pathsSince(before)).toEqual([
      `GET /api/v2/report/unsettled?ttid=${ttid}`,
      `DELETE /api/v2/transaction/${ttid}`,
      `DELETE /api/v2/transaction/${ttid}/void`,
    ]);
    expect(outcome.exchange.eventType).toBe('transaction.void');
    // Every call made is in the one provider event.
    expect(JSON.parse(outcome.exchange.payload).steps).toHaveLength(3);
  });

  it('an unknown transaction is refused in TranSafe\u2019s words; no credentials, nothing sent', async () => {
    const refused = await adapter.refund!(call('96000009999', '5'));
    expect(refused).toMatchObject({
      ok: false,
      errorMessage: 'Transaction not found or not refundable',
    });
    const before = tranSafe.requests.length;
    const none = await adapter.refund!({ ...call('96000009999', '5'), configuration: null });
    expect(none).toMatchObject({
      ok: false,
      errorMessage: "The payment's TranSafe configuration is missing or not connected.",
    });
    expect(tranSafe.requests.length).toBe(before);
  });
});
