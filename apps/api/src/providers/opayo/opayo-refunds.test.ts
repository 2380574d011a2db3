import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { RefundCall } from '../adapter.js';
import type { CheckoutConfiguration } from '../checkout.js';
import { createOpayoAdapter } from './opayo.adapter.js';
import { createOpayoCheckout } from './opayo.checkout.js';
import { fakeOpayoPiCards } from '../../../test/fakes/fake-opayo-pi.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { recorded, startInput } from '../../../test/fixtures/checkout-input.js';

/**
 * Opayo refunds against the fake over real HTTP: Server's shared REFUND (`refund.vsp`
 * with the original's Related* keys, kept sealed with the payment) and Pi's Refund transaction;
 * whole and part refunds, Opayo's refusal in its own words, and a VendorTxCode of its own per
 * refund.
 */

let opayo: FakeOpayo;
let checkout: ReturnType<typeof createOpayoCheckout>;
let adapter: ReturnType<typeof createOpayoAdapter>;
const vendorName = 'RefundVendor';
const integrationKey = 'pi-refund-key';
const integrationPassword = 'pi-refund-secret-1';

const serverConfiguration: CheckoutConfiguration = {
  id: randomUUID(),
  isTest: true,
  credentials: { vendorName, adminUser: 'admin', adminPassword: 'Admin-1' },
  settings: { useTestServer: true, integrationType: 'Server', vendorTxCodeType: 'Guid' },
};
const piConfiguration: CheckoutConfiguration = {
  id: randomUUID(),
  isTest: true,
  credentials: { vendorName, integrationKey, integrationPassword },
  settings: { useTestServer: true, integrationType: 'Pi', vendorTxCodeType: 'Guid' },
};

beforeAll(async () => {
  opayo = await startFakeOpayo();
  opayo.serverVendors.add(vendorName);
  opayo.integrations.set(integrationKey, integrationPassword);
  const urls = { testUrl: opayo.url, liveUrl: 'https://live.invalid', timeoutMs: 5000 };
  checkout = createOpayoCheckout(urls);
  adapter = createOpayoAdapter(urls);
});
afterAll(() => opayo.close());

/** A Server payment paid on the card page: its VPSTxId and its secret as Ledgerline keeps it. */
async function serverPayment(amount = '100', captureType: 'Immediate' | 'Reserve' = 'Immediate') {
  const input = startInput(serverConfiguration, { amount, captureType });
  const started = await checkout.start(input);
  const vpsTxId = started.providerReference!;
  const notification = opayo.notificationFor(vpsTxId, 'pay');
  const verified = await checkout.verifyNotification!({
    headers: {},
    rawBody: Buffer.from(notification.toString()),
    configuration: serverConfiguration,
    url: input.notificationUrl,
    paymentSecret: async () => ({
      paymentTransactionId: input.paymentTransactionId,
      ledgerlineReference: input.ledgerlineReference,
      secret: started.secret!,
      returnUrl: input.returnUrl,
    }),
  });
  if (!verified.ok || !verified.secret) throw new Error('the notification was not verified');
  return { input, vpsTxId, secret: verified.secret.secret };
}

const refundCall = (
  configuration: CheckoutConfiguration,
  providerReference: string,
  amount: string,
  overrides: Partial<RefundCall> = {},
): RefundCall => ({
  paymentTransactionId: randomUUID(),
  refundTransactionId: randomUUID(),
  providerReference,
  currency: 'GBP',
  amount,
  paymentAmount: '100.00',
  note: null,
  reason: null,
  configuration: { isTest: true, credentials: configuration.credentials },
  ...overrides,
});

describe('Opayo Server refunds (refund.vsp)', () => {
  it("refunds part with the original's Related* keys and a VendorTxCode of its own; the SecurityKey is never recorded", async () => {
    const { input, vpsTxId, secret } = await serverPayment();
    const call = refundCall(serverConfiguration, vpsTxId, '30', {
      providerSecret: secret,
      reason: 'Damaged goods',
    });
    const outcome = await adapter.refund!(call);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const sent = opayo.requests.at(-1)!;
    expect(sent.path).toBe('/gateway/service/refund.vsp');
    const original = opayo.server.get(vpsTxId)!;
    expect(Object.fromEntries(sent.form)).toEqual({
      VPSProtocol: '4.00',
      TxType: 'REFUND',
      Vendor: vendorName,
      VendorTxCode: `RF-${call.refundTransactionId}`,
      Amount: '30.00',
      Currency: 'GBP',
      Description: 'Damaged goods',
      RelatedVPSTxId: vpsTxId,
      RelatedVendorTxCode: input.paymentTransactionId,
      RelatedSecurityKey: original.securityKey,
      RelatedTxAuthNo: original.txAuthNo,
    });
    expect(sent.form.get('VendorTxCode')!.length).toBeLessThanOrEqual(40);
    // The refund's own VPSTxId is its reference.
    const [refundId, refund] = [...opayo.serverRefunds].at(-1)!;
    expect(outcome.refundReference).toBe(refundId);
    expect(refund).toMatchObject({ relatedVpsTxId: vpsTxId, amount: '30.00' });
    expect(outcome.exchange).toMatchObject({
      eventType: 'transaction.refund',
      recordId: vpsTxId,
      status: 'OK',
    });
    expect(recorded(outcome.exchange)).not.toContain(original.securityKey);
  });

  it('refunds the rest whole, then refuses a further refund in Opayo\u2019s words and leaves the sum as it was', async () => {
    const { vpsTxId, secret } = await serverPayment('100');
    const first = await adapter.refund!(
      refundCall(serverConfiguration, vpsTxId, '60', { providerSecret: secret }),
    );
    const rest = await adapter.refund!(
      refundCall(serverConfiguration, vpsTxId, '40', { providerSecret: secret }),
    );
    expect([first.ok, rest.ok]).toEqual([true, true]);
    expect(first.refundReference).not.toBe(rest.refundReference);
    const over = await adapter.refund!(
      refundCall(serverConfiguration, vpsTxId, '0.01', { providerSecret: secret }),
    );
    expect(over).toMatchObject({
      ok: false,
      errorMessage: '4044 : This Refund would exceed the amount of the original transaction.',
    });
    expect(over.exchange.status).toBe('INVALID');
    expect(opayo.server.get(vpsTxId)!.refundedPence).toBe(10_000);
  });

  it('each refund has its own VendorTxCode: the same refund sent twice is refused, not paid twice', async () => {
    const { vpsTxId, secret } = await serverPayment('100');
    const call = refundCall(serverConfiguration, vpsTxId, '10', { providerSecret: secret });
    expect((await adapter.refund!(call)).ok).toBe(true);
    const again = await adapter.refund!(call);
    expect(again).toMatchObject({
      ok: false,
      errorMessage: '4042 : The VendorTxCode has been used before.',
    });
    const other = await adapter.refund!({ ...call, refundTransactionId: randomUUID() });
    expect(other.ok).toBe(true);
    expect(opayo.server.get(vpsTxId)!.refundedPence).toBe(2_000);
  });

  it('a DEFERRED payment released in part is refunded within what was released, by its own VPSTxId', async () => {
    const { vpsTxId, secret } = await serverPayment('100', 'Reserve');
    expect(opayo.server.get(vpsTxId)!.status).toBe('Deferred');
    const release = await adapter.capture(
      refundCall(serverConfiguration, vpsTxId, '70', { providerSecret: secret }),
    );
    expect(release.ok).toBe(true);
    const over = await adapter.refund!(
      refundCall(serverConfiguration, vpsTxId, '70.01', { providerSecret: secret }),
    );
    expect(over.ok).toBe(false);
    const whole = await adapter.refund!(
      refundCall(serverConfiguration, vpsTxId, '70', { providerSecret: secret }),
    );
    expect(whole.ok).toBe(true);
    expect(opayo.requests.at(-1)!.form.get('RelatedVPSTxId')).toBe(vpsTxId);
  });

  it('a payment with no kept security key, or not yet authorised, is refused with no call', async () => {
    const before = opayo.requests.length;
    const noKey = await adapter.refund!(refundCall(serverConfiguration, '{ABC}', '10'));
    expect(noKey).toMatchObject({
      ok: false,
      errorMessage:
        "Ledgerline holds no Opayo security key for this payment; refund it in Opayo's own portal.",
    });
    const unauthorised = await adapter.refund!(
      refundCall(serverConfiguration, '{ABC}', '10', {
        providerSecret: JSON.stringify({ securityKey: 'KEY', vendorTxCode: 'V1' }),
      }),
    );
    expect(unauthorised.ok).toBe(false);
    expect(unauthorised.exchange.status).toBe('not_sent');
    expect(opayo.requests.length).toBe(before);
  });
});

describe('Opayo Pi refunds (Refund transactions)', () => {
  async function piPayment(amount = '92.50') {
    const input = startInput(piConfiguration, { amount });
    const start = await checkout.start(input);
    if (start.next.kind !== 'opayo-pi') throw new Error('not an Opayo Pi step');
    const charged = await checkout.chargeTicket!({
      paymentTransactionId: input.paymentTransactionId,
      ledgerlineReference: input.ledgerlineReference,
      providerReference: start.providerReference,
      amount,
      currency: 'GBP',
      captureType: 'Immediate',
      ticket: opayo.pi.tokenise(start.next.merchantSessionKey, fakeOpayoPiCards.ok),
      configuration: piConfiguration,
      challengeUrl: 'https://ledgerline.example/3ds',
    });
    // What Opayo says it took, in major units.
    expect(charged).toMatchObject({
      status: 'Paid',
      amount: Number(amount).toFixed(2),
      currency: 'GBP',
    });
    return charged.providerReference!;
  }

  it('refunds part in minor units with referenceTransactionId and its own vendorTxCode, then the rest', async () => {
    const transactionId = await piPayment();
    const call = refundCall(piConfiguration, transactionId, '12.5', { paymentAmount: '92.50' });
    const part = await adapter.refund!(call);
    expect(part.ok, JSON.stringify(part)).toBe(true);
    const sent = opayo.requests.at(-1)!;
    expect(sent.path).toBe('/api/v1/transactions');
    expect(sent.headers.authorization).toBe(
      `Basic ${Buffer.from(`${integrationKey}:${integrationPassword}`).toString('base64')}`,
    );
    expect(JSON.parse(sent.body)).toEqual({
      transactionType: 'Refund',
      referenceTransactionId: transactionId,
      vendorTxCode: `RF-${call.refundTransactionId}`,
      amount: 1250,
      currency: 'GBP',
      description: `Refund of ${transactionId}`,
    });
    expect(opayo.pi.refunds.get(part.refundReference!)).toMatchObject({
      referenceTransactionId: transactionId,
      amount: 1250,
    });
    expect(recorded(part.exchange)).not.toContain(integrationPassword);
    const rest = await adapter.refund!(refundCall(piConfiguration, transactionId, '80.00'));
    expect(rest.ok).toBe(true);
    expect(rest.refundReference).not.toBe(part.refundReference);
  });

  it('an over-refund is refused with Opayo\u2019s 1018 words; a reused vendorTxCode too', async () => {
    const transactionId = await piPayment('20');
    const call = refundCall(piConfiguration, transactionId, '15');
    expect((await adapter.refund!(call)).ok).toBe(true);
    const over = await adapter.refund!(refundCall(piConfiguration, transactionId, '5.01'));
    expect(over).toMatchObject({
      ok: false,
      errorMessage: 'This refund amount will exceed the amount of the original transaction',
    });
    expect(over.exchange.status).toBe('1018');
    const again = await adapter.refund!({ ...call, amount: '1' });
    expect(again).toMatchObject({
      ok: false,
      errorMessage: 'The VendorTxCode has been used before',
    });
  });

  it('a released Deferred payment is refunded within what was released', async () => {
    const input = startInput(piConfiguration, { amount: '50' });
    const start = await checkout.start(input);
    if (start.next.kind !== 'opayo-pi') throw new Error('not an Opayo Pi step');
    const reserved = await checkout.chargeTicket!({
      paymentTransactionId: input.paymentTransactionId,
      ledgerlineReference: input.ledgerlineReference,
      providerReference: start.providerReference,
      amount: '50',
      currency: 'GBP',
      captureType: 'Reserve',
      ticket: opayo.pi.tokenise(start.next.merchantSessionKey, fakeOpayoPiCards.ok),
      configuration: piConfiguration,
      challengeUrl: 'https://ledgerline.example/3ds',
    });
    expect(reserved.status).toBe('Pending');
    const id = reserved.providerReference!;
    expect((await adapter.capture(refundCall(piConfiguration, id, '30'))).ok).toBe(true);
    expect((await adapter.refund!(refundCall(piConfiguration, id, '30.01'))).ok).toBe(false);
    expect((await adapter.refund!(refundCall(piConfiguration, id, '30'))).ok).toBe(true);
  });
});
