import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { payQuotes, providerNotifications } from '../../db/schema-pay.js';
import {
  paymentAllocations,
  paymentTransactions,
  providerEvents,
} from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { setFeatureFlag } from '../../../test/feature-gates.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { day, insertAccount, insertInvoice, paymentRowIn } from '../../../test/fixtures/pay.js';
import { waitFor } from '../../../test/wait.js';

/**
 * Opayo Server on the payer page, through HTTP against the Opayo fake: the
 * register call's fields, Opayo's refusals as the payer sees them, and the notification, which is
 * signed with the payment's own SecurityKey and answered in Opayo's `Status=…` lines.
 */

let ctx: TestContext;
let opayo: FakeOpayo;
let merchant: SignedIn;
let accountId: string;
let configId: string;
// At most 15 characters, as Opayo's admin API checks.
const vendorName = 'LedgerlineVend';

beforeAll(async () => {
  opayo = await startFakeOpayo();
  opayo.serverVendors.add(vendorName);
  // A Server-type save registers the IP address with these admin credentials first (spec 3 §4).
  opayo.vendors.set(
    vendorName,
    new Map([['admin', { password: 'Admin-Password-1', admin: true }]]),
  );
  ctx = await buildTestApp({
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
    OPAYO_TEST_URL: opayo.url,
    OPAYO_SERVER_IP: '81.2.69.160',
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  opayo.deliverTo = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  merchant = await signIn(ctx, { tenantName: 'Opayo Merchant Ltd' });
  // Opayo's integrated form needs the OpayoPi flag (spec 3 §3).
  await setFeatureFlag(ctx, 'OpayoPi', true);
  accountId = await insertAccount(ctx, merchant);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/providers',
    headers: merchant.headers({ 'dataset-id': '1' }),
    payload: {
      providerName: 'Opayo',
      name: 'Opayo cards',
      enabled: true,
      displayPriority: 0,
      settings: {
        useTestServer: true,
        integrationType: 'Server',
        vendorTxCodeType: 'PaymentRequest',
      },
      credentials: { vendorName, adminUser: 'admin', adminPassword: 'Admin-Password-1' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  configId = created.json().id;
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await opayo.close();
});

async function request(amount = '100', captureType: 'Immediate' | 'Reserve' = 'Immediate') {
  const invoice = await insertInvoice(ctx, merchant, accountId, {
    amount,
    transactionDate: day(-1),
    dueDate: day(29),
  });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/payment-requests',
    headers: merchant.headers({ 'dataset-id': '1' }),
    payload: {
      requestType: 'Transaction',
      accountId,
      currency: 'GBP',
      captureType,
      usageType: 'Single',
      description: 'Invoices for October',
      transactionAllocations: [{ transactionId: invoice }],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { requestId: created.json().id as string, invoice };
}

function start(
  requestId: string,
  payer: object | null = {
    firstNames: 'Pat',
    surname: 'Payer',
    emailAddress: 'pat@example.com',
  },
) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: { configurationId: configId, ...(payer ? { payer } : {}) },
  });
}

const paymentRow = (id: string) => paymentRowIn(ctx, id);

const notify = (body: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/webhooks/opayo/${configId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });

const notificationsOf = (paymentId: string) =>
  ctx.database.db
    .select()
    .from(providerNotifications)
    .where(eq(providerNotifications.configurationId, configId))
    .then((rows) =>
      rows.filter(
        (row) =>
          (row.summary as { paymentTransactionId: string }).paymentTransactionId === paymentId,
      ),
    );

/** A started payment: its id, Opayo's VPSTxId and the page it returns to. */
async function started(amount = '100', captureType: 'Immediate' | 'Reserve' = 'Immediate') {
  const { requestId } = await request(amount, captureType);
  const answer = await start(requestId);
  expect(answer.statusCode, answer.body).toBe(201);
  const paymentId = answer.json().paymentId as string;
  const vpsTxId = (await paymentRow(paymentId)).paymentProviderReference!;
  return {
    requestId,
    paymentId,
    vpsTxId,
    returnUrl: `http://localhost:3000/pay/${requestId}?payment=${paymentId}`,
  };
}

describe('Opayo Server register', () => {
  it('registers a PAYMENT with the protocol 4.00 fields and sends the payer to NextURL; the SecurityKey stays sealed', async () => {
    const { requestId } = await request('120.5');
    const answer = await start(requestId);
    expect(answer.statusCode, answer.body).toBe(201);
    const { paymentId, next } = answer.json();
    const payment = await paymentRow(paymentId);
    const sent = opayo.requests
      .filter((r) => r.path === '/gateway/service/vspserver-register.vsp')
      .at(-1)!;
    expect(Object.fromEntries(sent.form)).toEqual({
      VPSProtocol: '4.00',
      TxType: 'PAYMENT',
      Vendor: vendorName,
      VendorTxCode: payment.ledgerlineReference,
      Amount: '120.50',
      Currency: 'GBP',
      Description: 'Invoices for October',
      NotificationURL: `http://localhost:3000/api/v0/webhooks/opayo/${configId}`,
      BillingSurname: 'Payer',
      BillingFirstnames: 'Pat',
      BillingAddress1: 'Not given',
      BillingCity: 'Not given',
      BillingPostCode: '000',
      BillingCountry: 'GB',
      DeliverySurname: 'Payer',
      DeliveryFirstnames: 'Pat',
      DeliveryAddress1: 'Not given',
      DeliveryCity: 'Not given',
      DeliveryPostCode: '000',
      DeliveryCountry: 'GB',
      CustomerEMail: 'pat@example.com',
      Profile: 'NORMAL',
      ApplyAVSCV2: '0',
      Apply3DSecure: '0',
      AllowGiftAid: '0',
      InitiatedType: 'CIT',
    });
    const transaction = opayo.server.get(payment.paymentProviderReference!)!;
    expect(transaction).toMatchObject({
      txType: 'PAYMENT',
      amount: '120.50',
      status: 'Registered',
    });
    expect(next).toEqual({
      kind: 'redirect',
      url: `${opayo.url}/gateway/service/cardselection?vpstxid=${encodeURIComponent(payment.paymentProviderReference!)}`,
    });
    // Sealed with the payment; never in the provider event.
    const [quote] = await ctx.database.db
      .select()
      .from(payQuotes)
      .where(eq(payQuotes.paymentTransactionId, paymentId));
    expect(quote!.providerSecret).toMatch(/^v1\./);
    expect(quote!.providerSecret).not.toContain(transaction.securityKey);
    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, paymentId));
    expect(events.map((e) => e.eventType)).toEqual(['transaction.register']);
    expect(events[0]!.payload).not.toContain(transaction.securityKey);
    expect(events[0]!.payload).not.toContain('Admin-Password-1');
  });

  it('a payer who gave no name is sent as the fixed placeholders; a Reserve request is DEFERRED', async () => {
    const { requestId } = await request('30', 'Reserve');
    const answer = await start(requestId, null);
    expect(answer.statusCode, answer.body).toBe(201);
    const sent = opayo.requests
      .filter((r) => r.path === '/gateway/service/vspserver-register.vsp')
      .at(-1)!;
    expect(sent.form.get('TxType')).toBe('DEFERRED');
    expect(sent.form.get('BillingSurname')).toBe('Payer');
    expect(sent.form.get('BillingFirstnames')).toBe('Card');
    expect(sent.form.has('CustomerEMail')).toBe(false);
  });

  it("the payer's billing country is the company's default country", async () => {
    const setCountry = (defaultCountryId: number) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/v0/company-settings/preferences',
        headers: merchant.headers({ 'dataset-id': '1' }),
        payload: { defaultCountryId },
      });
    expect((await setCountry(372)).statusCode).toBe(200);
    try {
      const { requestId } = await request('40');
      const answer = await start(requestId);
      expect(answer.statusCode, answer.body).toBe(201);
      const sent = opayo.requests
        .filter((r) => r.path === '/gateway/service/vspserver-register.vsp')
        .at(-1)!;
      expect(sent.form.get('BillingCountry')).toBe('IE');
      expect(sent.form.get('DeliveryCountry')).toBe('IE');
    } finally {
      expect((await setCountry(826)).statusCode).toBe(200);
    }
  });

  it('an Opayo Pi configuration is offered beside the Server one and starts the drop-in', async () => {
    opayo.integrations.set('Pi-Key', 'Pi-Password');
    const pi = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/providers',
      headers: merchant.headers({ 'dataset-id': '1' }),
      payload: {
        providerName: 'Opayo',
        name: 'Opayo Pi',
        enabled: true,
        displayPriority: 1,
        settings: { useTestServer: true, integrationType: 'Pi' },
        credentials: {
          vendorName,
          adminUser: 'admin',
          adminPassword: 'x',
          integrationKey: 'Pi-Key',
          integrationPassword: 'Pi-Password',
        },
      },
    });
    expect(pi.statusCode, pi.body).toBe(201);
    const { requestId } = await request('10');
    const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${requestId}` });
    const offered = (page.json().methods as { configurationId: string }[]).map(
      (m) => m.configurationId,
    );
    expect(offered).toContain(configId);
    expect(offered).toContain(pi.json().id);
    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${requestId}/payments`,
      payload: { configurationId: pi.json().id },
    });
    expect(started.statusCode, started.body).toBe(201);
    // Pi has no hosted page: the page mounts Opayo.js (src/features/pay/opayo-pi-end-to-end.test.ts).
    expect(started.json().next).toMatchObject({
      kind: 'opayo-pi',
      scriptUrl: `${opayo.url}/api/v1/js/sagepay.js`,
    });
  });

  it.each([
    ['MALFORMED', '3045 : The Currency field is missing.'],
    ['INVALID', '4000 : The VendorName is invalid or the account is not active.'],
  ])(
    'a %s answer tells the payer why, fails the attempt and leaves the request open',
    async (status, detail) => {
      const { requestId } = await request('40');
      opayo.failNextRegister = { status, detail };
      const answer = await start(requestId);
      expect(answer.statusCode, answer.body).toBe(502);
      expect(answer.json().detail).toBe(`Opayo could not start the payment: ${detail}`);
      const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${requestId}` });
      expect(page.json().state).toBe('Open');
      const [failed] = await ctx.database.db
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.paymentRequestId, requestId));
      expect(failed!.status).toBe('Failed');
    },
  );
});

describe('Opayo Server notification', () => {
  it('a wrong VPSSignature answers Status=INVALID and changes nothing', async () => {
    const payment = await started();
    const fields = opayo.notificationFor(payment.vpsTxId, 'pay');
    fields.set('VPSSignature', 'A'.repeat(32));
    const answer = await notify(fields.toString());
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.body).toBe(
      `Status=INVALID\r\nRedirectURL=${payment.returnUrl}\r\nStatusDetail=VPSSignature does not match.`,
    );
    expect(await notificationsOf(payment.paymentId)).toHaveLength(0);
    expect((await paymentRow(payment.paymentId)).status).toBe('Processing');
  });

  it('a signed field changed after signing (a decline made OK) is refused; so is an unknown VPSTxId', async () => {
    const payment = await started();
    const declined = opayo.notificationFor(payment.vpsTxId, 'decline');
    declined.set('Status', 'OK');
    const changed = await notify(declined.toString());
    expect(changed.body).toMatch(/^Status=INVALID\r\n/);
    const unknown = opayo.notificationFor(payment.vpsTxId, 'pay');
    unknown.set('VPSTxId', '{00000000-0000-0000-0000-000000000000}');
    const answer = await notify(unknown.toString());
    expect(answer.body).toMatch(
      /^Status=INVALID\r\nRedirectURL=http:\/\/localhost:3000\r\nStatusDetail=Unknown transaction\.$/,
    );
    expect(await notificationsOf(payment.paymentId)).toHaveLength(0);
    expect((await paymentRow(payment.paymentId)).status).toBe('Processing');
  });

  it("another company's Opayo configuration cannot settle this payment: its path finds no such transaction", async () => {
    const payment = await started('15');
    const other = await signIn(ctx, { tenantName: 'Other Opayo Ltd' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/providers',
      headers: other.headers({ 'dataset-id': '1' }),
      payload: {
        providerName: 'Opayo',
        name: 'Opayo',
        enabled: true,
        displayPriority: 0,
        settings: { useTestServer: true, integrationType: 'Server' },
        credentials: { vendorName, adminUser: 'admin', adminPassword: 'Admin-Password-1' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const answer = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/webhooks/opayo/${created.json().id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: opayo.notificationFor(payment.vpsTxId, 'pay').toString(),
    });
    expect(answer.body).toMatch(/^Status=INVALID\r\n.*\r\nStatusDetail=Unknown transaction\.$/s);
    expect(await notificationsOf(payment.paymentId)).toHaveLength(0);
    expect((await paymentRow(payment.paymentId)).status).toBe('Processing');
  });

  it('a signed OK answers Status=OK with the pay page; the payment is Paid with its allocation; a replay changes nothing', async () => {
    const payment = await started('75');
    const body = opayo.notificationFor(payment.vpsTxId, 'pay').toString();
    const answer = await notify(body);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.body).toBe(
      `Status=OK\r\nRedirectURL=${payment.returnUrl}\r\nStatusDetail=Notification received.`,
    );
    await waitFor(async () => (await paymentRow(payment.paymentId)).status === 'Paid');
    const allocations = () =>
      ctx.database.db
        .select()
        .from(paymentAllocations)
        .where(eq(paymentAllocations.paymentTransactionId, payment.paymentId));
    expect(await allocations()).toHaveLength(1);

    const replay = await notify(body);
    expect(replay.body).toBe(answer.body);
    const stored = await notificationsOf(payment.paymentId);
    expect(stored).toHaveLength(1);
    await waitFor(async () =>
      (await notificationsOf(payment.paymentId)).every((row) => row.processedAt !== null),
    );
    expect(await allocations()).toHaveLength(1);
    expect((await paymentRow(payment.paymentId)).status).toBe('Paid');
  });

  it('a decline through the card page: NotAuthorised, the payer told so on the page they return to', async () => {
    const payment = await started('20');
    const { answer, redirectUrl } = await opayo.complete(payment.vpsTxId, 'decline');
    expect(answer).toMatch(/^Status=OK\r\n/);
    expect(redirectUrl).toBe(payment.returnUrl);
    await waitFor(async () => (await paymentRow(payment.paymentId)).status === 'NotAuthorised');
    const poll = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${payment.requestId}/payments/${payment.paymentId}`,
    });
    expect(poll.json()).toMatchObject({
      status: 'NotAuthorised',
      outcome: 'Failed',
      message: 'Your card was declined',
    });
  });
});
