import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import { providerNotifications } from '../../db/schema-pay.js';
import { paymentAllocations, providerEvents } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { showBetaProviders } from '../../../test/feature-gates.js';
import { startFakeGoCardless, type FakeGoCardless } from '../../../test/fakes/fake-gocardless.js';
import { startFakeOppwa, type FakeOppwa } from '../../../test/fakes/fake-oppwa.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/fake-stripe.js';
import { startFakeTrueLayer, type FakeTrueLayer } from '../../../test/fakes/fake-truelayer.js';
import { clickThrough } from '../../../test/fixtures/checkout-input.js';
import { waitFor } from '../../../test/wait.js';
import { day, expectSettledIn, insertAccount, insertInvoice, paymentRowIn } from '../../../test/fixtures/pay.js';

/**
 * The payer page paid through each real provider, through HTTP only, against the
 * provider fakes: the merchant connects or configures the provider through its routes, raises a
 * payment request for invoices, the payer starts a payment on the page, the fake takes it, and
 * the provider's signed notification or the page's status poll settles it.
 */

let ctx: TestContext;
let stripe: FakeStripe;
let goCardless: FakeGoCardless;
let trueLayer: FakeTrueLayer;
let oppwa: FakeOppwa;
let opayo: FakeOpayo;
/** Where the app listens, for the fakes' deliveries (the public web hook endpoint). */
let base: string;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
function call(who: SignedIn, method: Method, url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    payload,
  });
}

beforeAll(async () => {
  [stripe, goCardless, trueLayer, oppwa, opayo] = await Promise.all([
    startFakeStripe(),
    startFakeGoCardless(),
    startFakeTrueLayer(),
    startFakeOppwa(),
    startFakeOpayo(),
  ]);
  ctx = await buildTestApp({
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_CONNECT_CLIENT_ID: stripe.clientId,
    STRIPE_CONNECT_URL: stripe.url,
    STRIPE_API_URL: stripe.url,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    GOCARDLESS_CLIENT_ID: goCardless.clientId,
    GOCARDLESS_CLIENT_SECRET: goCardless.clientSecret,
    GOCARDLESS_CONNECT_URL: goCardless.url,
    GOCARDLESS_API_URL: goCardless.url,
    GOCARDLESS_WEBHOOK_SECRET: goCardless.webhookSecret,
    TRUELAYER_AUTH_SANDBOX_URL: trueLayer.url,
    TRUELAYER_PAY_SANDBOX_URL: trueLayer.url,
    TRUELAYER_JWKS_URL: trueLayer.jwksUrl,
    OPPWA_TEST_URL: oppwa.url,
    OPAYO_TEST_URL: opayo.url,
    OPAYO_SERVER_IP: '81.2.69.160',
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  opayo.deliverTo = base;
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await Promise.all([
    stripe.close(),
    goCardless.close(),
    trueLayer.close(),
    oppwa.close(),
    opayo.close(),
  ]);
});

/** A merchant company with an account (the invoices' customer). */
async function merchant(name: string) {
  const who = await signIn(ctx, { tenantName: name });
  // TrueLayer is a beta kind: it needs ShowBetaPaymentProviders.
  await showBetaProviders(ctx, who);
  const accountId = await insertAccount(ctx, who);
  return { who, accountId };
}

/**
 * Invoices of the account and one request for them, raised as staff raise it (POST
 * payment-requests with transactionAllocations).
 */
async function requestFor(
  company: { who: SignedIn; accountId: string },
  amounts: string[],
  captureType: 'Immediate' | 'Reserve' = 'Immediate',
) {
  const invoices: string[] = [];
  for (const amount of amounts)
    invoices.push(
      await insertInvoice(ctx, company.who, company.accountId, {
        amount,
        transactionDate: day(-1),
        dueDate: day(29),
      }),
    );
  const created = await call(company.who, 'POST', 'payment-requests', {
    requestType: 'Transaction',
    accountId: company.accountId,
    currency: 'GBP',
    captureType,
    usageType: 'Single',
    description: 'Invoices for October',
    transactionAllocations: invoices.map((transactionId) => ({ transactionId })),
  });
  expect(created.statusCode, created.body).toBe(201);
  return { requestId: created.json().id as string, invoices };
}

/** The page lists the configuration's method; the payer starts a payment with it. */
async function startPayment(requestId: string, configurationId: string, providerName: string) {
  const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${requestId}` });
  expect(page.statusCode, page.body).toBe(200);
  expect(page.json().state).toBe('Open');
  expect(page.json().methods).toContainEqual(
    expect.objectContaining({ configurationId, providerName }),
  );
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: {
      configurationId,
      payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@example.com' },
    },
  });
  expect(started.statusCode, started.body).toBe(201);
  return started.json() as {
    paymentId: string;
    amount: number;
    next:
      | { kind: 'redirect'; url: string }
      | { kind: 'oppwa'; checkoutId: string; shopperResultUrl: string };
  };
}

const paymentRow = (id: string) => paymentRowIn(ctx, id);
const allocationsOf = (tenantId: string, paymentId: string) =>
  ctx.database.db
    .select()
    .from(paymentAllocations)
    .where(
      and(
        eq(paymentAllocations.tenantId, tenantId),
        eq(paymentAllocations.paymentTransactionId, paymentId),
      ),
    );
const notificationsOf = (configurationId: string) =>
  ctx.database.db
    .select()
    .from(providerNotifications)
    .where(eq(providerNotifications.configurationId, configurationId));

/** What the page's poll says (no sign-in), with the return query the provider added. */
async function poll(requestId: string, paymentId: string, query = '') {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/pay/${requestId}/payments/${paymentId}${query}`,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { status: string; outcome: string; message: string | null };
}

/** Waits until the payment's status is `status` (notifications are settled by a job). */
const until = (id: string, status: string) =>
  waitFor(async () => {
    const row = await paymentRow(id);
    return row.status === status ? row : undefined;
  });

const expectSettled = (
  company: { who: SignedIn },
  request: { requestId: string; invoices: string[] },
  paymentId: string,
) => expectSettledIn(ctx, company.who, request, paymentId);

function post(path: string, event: { body: string; headers: Record<string, string> }) {
  return ctx.app.inject({ method: 'POST', url: path, headers: event.headers, payload: event.body });
}

/** Follows a fake's authorise page as a browser would: the link back to our return route. */
async function authorise(authoriseUrl: string, linkText: string): Promise<URL> {
  const page = await (await fetch(authoriseUrl)).text();
  const link = new RegExp(`<a href="([^"]+)">${linkText}</a>`).exec(page);
  if (!link) throw new Error(`no '${linkText}' link on ${page}`);
  return new URL(link[1]!.replace(/&amp;/g, '&'));
}

/** Connects a Stripe account through Connect (add mode), as the merchant's screen does. */
async function connectStripe(who: SignedIn, account: string, name: string) {
  stripe.connectNext({ id: account, displayName: name });
  const start = await call(who, 'POST', 'stripe/account/connect/start', {
    paymentProviderId: null,
  });
  expect(start.statusCode, start.body).toBe(200);
  const back = await authorise(start.json().url, 'Connect my Stripe account');
  const connected = await call(
    who,
    'POST',
    `stripe/account/connect?code=${back.searchParams.get('code')}&state=${encodeURIComponent(back.searchParams.get('state')!)}`,
  );
  expect(connected.statusCode, connected.body).toBe(200);
  return connected.json().paymentProviderId as string;
}

describe('Stripe (Checkout Session on the connected account, Connect events)', () => {
  let shop: Awaited<ReturnType<typeof merchant>>;
  let other: Awaited<ReturnType<typeof merchant>>;
  let shopConfig: string;
  let otherConfig: string;
  const shopAccount = 'acct_1EndToEnd000001';
  const otherAccount = 'acct_1EndToEnd000002';

  beforeAll(async () => {
    shop = await merchant('Stripe Shop Ltd');
    other = await merchant('Other Stripe Shop Ltd');
    shopConfig = await connectStripe(shop.who, shopAccount, 'Stripe Shop Ltd');
    otherConfig = await connectStripe(other.who, otherAccount, 'Other Stripe Shop Ltd');
  });

  /** Starts a Stripe payment and finishes the session on the fake's page: the signed completed event. */
  async function paidSession(company: typeof shop, configId: string, amounts = ['60', '40']) {
    const request = await requestFor(company, amounts);
    const started = await startPayment(request.requestId, configId, 'Stripe');
    expect(started.amount).toBe(amounts.reduce((sum, a) => sum + Number(a), 0));
    if (started.next.kind !== 'redirect') throw new Error('not a redirect');
    const sessionId = new URL(started.next.url).pathname.split('/').pop()!;
    const session = stripe.sessions.get(sessionId)!;
    expect(session.account).toBe(company === shop ? shopAccount : otherAccount);
    expect(session.metadata.ledgerlinePaymentId).toBe(started.paymentId);
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');
    const event = stripe.completeSession(sessionId, 'paid')!;
    return { request, started, session, event };
  }

  it('a signed checkout.session.completed pays: Paid, allocations, request Completed; the same event twice is one result', async () => {
    const { request, started, session, event } = await paidSession(shop, shopConfig);
    // A tampered signature: 400 and nothing changes.
    const tampered = await post(`/api/v0/webhooks/stripe/${shopConfig}`, {
      body: event.body,
      headers: {
        ...event.headers,
        // The signature's first hex digit changed (always to another digit).
        'stripe-signature': event.headers['stripe-signature']!.replace(/v1=(.)/, (_, digit) =>
          digit === '0' ? 'v1=1' : 'v1=0',
        ),
      },
    });
    expect(tampered.statusCode).toBe(400);
    const changed = await post(`/api/v0/webhooks/stripe/${shopConfig}`, {
      body: event.body.replace('"paid"', '"unpaid"'),
      headers: event.headers,
    });
    expect(changed.statusCode).toBe(400);
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');
    expect(await notificationsOf(shopConfig)).toHaveLength(0);

    const first = await post(`/api/v0/webhooks/stripe/${shopConfig}`, event);
    expect(first.statusCode, first.body).toBe(200);
    const paid = await until(started.paymentId, 'Paid');
    expect(paid.paymentProviderReference).toBe(session.paymentIntent);
    await expectSettled(shop, request, started.paymentId);
    expect((await poll(request.requestId, started.paymentId)).outcome).toBe('Succeeded');

    const again = await post(`/api/v0/webhooks/stripe/${shopConfig}`, event);
    expect(again.statusCode).toBe(200);
    await waitFor(async () =>
      (await notificationsOf(shopConfig)).every((row) => row.processedAt !== null),
    );
    expect(await notificationsOf(shopConfig)).toHaveLength(1);
    expect(await allocationsOf(shop.who.tenantId, started.paymentId)).toHaveLength(2);
  });

  it('the platform’s one endpoint: an event about another company’s payment, from its own account, pays that payment', async () => {
    // Connect delivers every connected account's events to the one endpoint the platform
    // registered, here the first merchant's configuration's address.
    const { request, started, event } = await paidSession(other, otherConfig, ['25']);
    const answer = await post(`/api/v0/webhooks/stripe/${shopConfig}`, event);
    expect(answer.statusCode, answer.body).toBe(200);
    await until(started.paymentId, 'Paid');
    await expectSettled(other, request, started.paymentId);
    // Kept with the company and configuration it belongs to, not the path's.
    const rows = await notificationsOf(otherConfig);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tenantId).toBe(other.who.tenantId);
  });

  it('an event from one merchant’s account naming another company’s payment moves nothing', async () => {
    const request = await requestFor(other, ['30']);
    const started = await startPayment(request.requestId, otherConfig, 'Stripe');
    // The first merchant makes a session on its own account with the other's payment id in its
    // metadata: Stripe signs the event with the platform's secret all the same.
    const forged = stripe.signedEvent(
      'checkout.session.completed',
      {
        id: 'cs_forged000000001',
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        payment_intent: 'pi_forged000000001',
        metadata: { ledgerlinePaymentId: started.paymentId, captureType: 'Immediate' },
      },
      shopAccount,
    );
    for (const path of [shopConfig, otherConfig]) {
      const answer = await post(`/api/v0/webhooks/stripe/${path}`, forged);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ received: 0 });
    }
    expect(await notificationsOf(otherConfig)).toHaveLength(1);
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');
    expect(await allocationsOf(other.who.tenantId, started.paymentId)).toHaveLength(0);
  });

  it('a configuration without a connected account is never offered', async () => {
    const company = await merchant('Disconnected Stripe Ltd');
    const config = await connectStripe(company.who, 'acct_1EndToEnd000003', 'Disconnected Ltd');
    const request = await requestFor(company, ['30']);
    const offered = async () =>
      (await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${request.requestId}` }))
        .json()
        .methods.map((method: { configurationId: string }) => method.configurationId);
    expect(await offered()).toEqual([config]);
    const disconnected = await call(
      company.who,
      'POST',
      `stripe/payment-provider/${config}/account/disconnect`,
    );
    expect(disconnected.statusCode, disconnected.body).toBeLessThan(300);
    expect(await offered()).toEqual([]);
  });
});

describe('GoCardless (billing request flow, partner webhooks)', () => {
  let company: Awaited<ReturnType<typeof merchant>>;
  let configId: string;

  beforeAll(async () => {
    company = await merchant('Direct Debit Ltd');
    goCardless.organisation.verificationStatus = 'successful';
    const start = (await call(company.who, 'POST', 'gocardless/authorise/start')).json();
    const back = await authorise(start.url, 'Authorise');
    const complete = await call(
      company.who,
      'POST',
      `gocardless/authorise/complete?code=${back.searchParams.get('code')}&state=${back.searchParams.get('state')}`,
    );
    expect(complete.statusCode, complete.body).toBe(200);
    configId = complete.json().paymentProviderId;
  });

  async function confirmedFlow(amounts: string[]) {
    const request = await requestFor(company, amounts);
    const started = await startPayment(request.requestId, configId, 'GoCardless');
    if (started.next.kind !== 'redirect') throw new Error('not a redirect');
    const back = new URL(await clickThrough(started.next.url, 'Confirm payment'));
    expect(`${back.origin}${back.pathname}`).toBe(`http://localhost:3000/pay/${request.requestId}`);
    expect(back.searchParams.get('payment')).toBe(started.paymentId);
    const billing = [...goCardless.billingRequests.values()].find(
      (b) =>
        b.payment &&
        goCardless.payments.get(b.payment)?.metadata?.ledgerline_payment_id === started.paymentId,
    )!;
    expect(billing).toBeDefined();
    // Back on the page: submitted to the bank, not paid yet.
    expect((await poll(request.requestId, started.paymentId, back.search)).outcome).toBe('Waiting');
    return { request, started, gcPayment: billing.payment! };
  }

  it('the signed `payments confirmed` event pays: Paid, allocations, request Completed', async () => {
    const { request, started, gcPayment } = await confirmedFlow(['70', '30']);
    goCardless.sendEventsTo(`${base}/api/v0/webhooks/gocardless/${configId}`);
    try {
      goCardless.movePayment(gcPayment, 'confirmed');
      await until(started.paymentId, 'Paid');
    } finally {
      goCardless.sendEventsTo(null);
    }
    await expectSettled(company, request, started.paymentId);
    // A wrong signature answers GoCardless's 498 and changes nothing.
    const batch = goCardless.signedEvents([goCardless.paymentEvent(gcPayment, 'failed')]);
    const wrong = await post(`/api/v0/webhooks/gocardless/${configId}`, {
      body: batch.body,
      headers: { ...batch.headers, 'webhook-signature': '0'.repeat(64) },
    });
    expect(wrong.statusCode).toBe(498);
    expect((await paymentRow(started.paymentId)).status).toBe('Paid');
  });

  it('a `payments failed` event fails it and leaves the request Open', async () => {
    const { request, started, gcPayment } = await confirmedFlow(['45']);
    const batch = goCardless.signedEvents([
      goCardless.paymentEvent(gcPayment, 'failed', 'The customer’s bank refused the payment.'),
    ]);
    expect((await post(`/api/v0/webhooks/gocardless/${configId}`, batch)).statusCode).toBe(200);
    await until(started.paymentId, 'Failed');
    expect(await poll(request.requestId, started.paymentId)).toMatchObject({
      outcome: 'Failed',
      message: 'The customer’s bank refused the payment.',
    });
    expect(await allocationsOf(company.who.tenantId, started.paymentId)).toHaveLength(0);
    const staff = await call(company.who, 'GET', `payment-requests/${request.requestId}`);
    expect(staff.json().requestStatus).toBe('Open');
  });
  it('the partner app’s one endpoint: another company’s payment is paid by its own organisation’s event, never by another’s', async () => {
    const second = await merchant('Second Direct Debit Ltd');
    const firstOrganisation = goCardless.organisation.id;
    goCardless.organisation.id = 'OR000FAKE0002';
    let secondConfig: string;
    try {
      const start = (await call(second.who, 'POST', 'gocardless/authorise/start')).json();
      const back = await authorise(start.url, 'Authorise');
      const complete = await call(
        second.who,
        'POST',
        `gocardless/authorise/complete?code=${back.searchParams.get('code')}&state=${back.searchParams.get('state')}`,
      );
      expect(complete.statusCode, complete.body).toBe(200);
      secondConfig = complete.json().paymentProviderId;
      expect(
        (await call(second.who, 'GET', `providers/${secondConfig}`)).json().credentials,
      ).toMatchObject({ organisationId: 'OR000FAKE0002' });
    } finally {
      goCardless.organisation.id = firstOrganisation;
    }
    const request = await requestFor(second, ['65']);
    const started = await startPayment(request.requestId, secondConfig, 'GoCardless');
    if (started.next.kind !== 'redirect') throw new Error('not a redirect');
    await clickThrough(started.next.url, 'Confirm payment');
    const gcPayment = [...goCardless.payments.values()].find(
      (p) => p.metadata.ledgerline_payment_id === started.paymentId,
    )!.id;
    const from = (organisation: string) =>
      goCardless.signedEvents([
        {
          ...goCardless.paymentEvent(gcPayment, 'confirmed'),
          links: { payment: gcPayment, organisation },
        },
      ]);
    // The first company's organisation names the second's payment: refused, wherever posted.
    for (const path of [configId, secondConfig]) {
      const answer = await post(`/api/v0/webhooks/gocardless/${path}`, from(firstOrganisation));
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ received: 0 });
    }
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');
    // Its own organisation's event, posted to the one endpoint (the first configuration's address).
    const own = await post(`/api/v0/webhooks/gocardless/${configId}`, from('OR000FAKE0002'));
    expect(own.json()).toEqual({ received: 1 });
    await until(started.paymentId, 'Paid');
    await expectSettled(second, request, started.paymentId);
    const rows = await notificationsOf(secondConfig);
    expect(rows.map((row) => row.tenantId)).toEqual([second.who.tenantId]);
  });
});

describe('TrueLayer (single immediate payment, mock bank)', () => {
  let company: Awaited<ReturnType<typeof merchant>>;
  let configId: string;

  beforeAll(async () => {
    company = await merchant('Bank Transfer Ltd');
    const created = await call(company.who, 'POST', 'providers', {
      providerName: 'TrueLayer',
      name: 'Bank transfer',
      enabled: true,
      displayPriority: 0,
      settings: {
        beneficiaryName: 'Bank Transfer Ltd',
        beneficiaryReference: '{accountReference}',
        remitterReference: '{companyName}',
        beneficiaryBankAccount: { accountNumber: '12345678', sortCode: '040004' },
      },
      credentials: {
        clientId: trueLayer.clientId,
        clientSecret: trueLayer.clientSecret,
        useSandbox: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    configId = created.json().id;
  });

  async function approved(amounts: string[]) {
    const request = await requestFor(company, amounts);
    const started = await startPayment(request.requestId, configId, 'TrueLayer');
    if (started.next.kind !== 'redirect') throw new Error('not a redirect');
    const back = new URL(await clickThrough(started.next.url, 'Approve'));
    expect(back.searchParams.get('payment')).toBe(started.paymentId);
    expect(back.searchParams.get('payment_id')).toBeTruthy();
    return { request, started, back };
  }

  it('the payer returns with payment_id; the page’s poll asks TrueLayer, executed → Paid', async () => {
    const { request, started, back } = await approved(['80', '20']);
    const status = await poll(request.requestId, started.paymentId, back.search);
    expect(status).toMatchObject({ status: 'Paid', outcome: 'Succeeded' });
    expect((await paymentRow(started.paymentId)).paymentProviderReference).toBe(
      back.searchParams.get('payment_id'),
    );
    await expectSettled(company, request, started.paymentId);
  });

  it('a signed executed webhook pays; delivered twice it is one result', async () => {
    const path = `/api/v0/webhooks/truelayer/${configId}`;
    trueLayer.sendEventsTo(`${base}${path}`);
    let started: Awaited<ReturnType<typeof approved>>;
    try {
      started = await approved(['55']);
      await until(started.started.paymentId, 'Paid');
    } finally {
      trueLayer.sendEventsTo(null);
    }
    await expectSettled(company, started.request, started.started.paymentId);
    const simpId = started.back.searchParams.get('payment_id')!;
    const hook = trueLayer.signedWebhook(path, trueLayer.statusChanged(simpId, 'executed'));
    expect((await post(path, hook)).statusCode).toBe(200);
    expect((await post(path, hook)).statusCode).toBe(200);
    const forged = trueLayer.signedWebhook(path, trueLayer.statusChanged(simpId, 'failed'), {
      key: 'other',
    });
    expect((await post(path, forged)).statusCode).toBe(401);
    await waitFor(async () =>
      (await notificationsOf(configId)).every((row) => row.processedAt !== null),
    );
    expect(await allocationsOf(company.who.tenantId, started.started.paymentId)).toHaveLength(1);
    expect((await paymentRow(started.started.paymentId)).status).toBe('Paid');
  });
});

describe('OPPWA (COPYandPAY widget on the page)', () => {
  let company: Awaited<ReturnType<typeof merchant>>;
  let configId: string;

  beforeAll(async () => {
    company = await merchant('Card Processor Ltd');
    const created = await call(company.who, 'POST', 'providers', {
      providerName: 'Oppwa',
      name: 'Card processor',
      enabled: true,
      displayPriority: 0,
      settings: {},
      credentials: { useSandbox: true, entityId: oppwa.entityId, accessToken: oppwa.accessToken },
    });
    expect(created.statusCode, created.body).toBe(201);
    configId = created.json().id;
  });

  async function widgetPaid(amounts: string[], captureType: 'Immediate' | 'Reserve') {
    const request = await requestFor(company, amounts, captureType);
    const started = await startPayment(request.requestId, configId, 'Oppwa');
    if (started.next.kind !== 'oppwa') throw new Error('not the widget');
    expect(started.next.shopperResultUrl).toBe(
      `http://localhost:3000/pay/${request.requestId}?payment=${started.paymentId}`,
    );
    // The widget's button, then the payer lands on shopperResultUrl with id and resourcePath.
    expect(
      (
        await fetch(`${oppwa.url}/fake/pay/${encodeURIComponent(started.next.checkoutId)}`, {
          method: 'POST',
        })
      ).status,
    ).toBe(204);
    const query = `?payment=${started.paymentId}&id=${encodeURIComponent(started.next.checkoutId)}&resourcePath=${encodeURIComponent(`/v1/checkouts/${started.next.checkoutId}/payment`)}`;
    return { request, started, query };
  }

  it('the widget’s result: GET payments/{paymentId}?resourcePath=… reads a success code → Paid', async () => {
    const { request, started, query } = await widgetPaid(['90', '10'], 'Immediate');
    expect(await poll(request.requestId, started.paymentId, query)).toMatchObject({
      status: 'Paid',
      outcome: 'Succeeded',
    });
    await expectSettled(company, request, started.paymentId);
  });

  it('a Reserve request is a PA: Pending (reserved)', async () => {
    const { request, started, query } = await widgetPaid(['15'], 'Reserve');
    expect(await poll(request.requestId, started.paymentId, query)).toMatchObject({
      status: 'Pending',
      outcome: 'Reserved',
    });
    const row = await paymentRow(started.paymentId);
    expect(oppwa.payments.get(row.paymentProviderReference!)).toMatchObject({ status: 'PA' });
  });
});

describe('Opayo Server (hosted card page, signed notification, release / abort)', () => {
  let company: Awaited<ReturnType<typeof merchant>>;
  let configId: string;

  beforeAll(async () => {
    company = await merchant('Opayo Cards Ltd');
    opayo.serverVendors.add('opayocards');
    // The save registers the IP address with the admin credentials first (spec 3 §4).
    opayo.vendors.set('opayocards', new Map([['admin', { password: 'Admin-1', admin: true }]]));
    const created = await call(company.who, 'POST', 'providers', {
      providerName: 'Opayo',
      name: 'Opayo',
      enabled: true,
      displayPriority: 0,
      settings: { useTestServer: true, integrationType: 'Server', vendorTxCodeType: 'Guid' },
      credentials: { vendorName: 'opayocards', adminUser: 'admin', adminPassword: 'Admin-1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    configId = created.json().id;
  });

  /** The payer starts, pays on Opayo's card page and lands back on the pay page. */
  async function paidOnCardPage(amounts: string[], captureType: 'Immediate' | 'Reserve') {
    const request = await requestFor(company, amounts, captureType);
    const started = await startPayment(request.requestId, configId, 'Opayo');
    if (started.next.kind !== 'redirect') throw new Error('not the card page');
    const row = await paymentRow(started.paymentId);
    // Guid vendor codes: our payment's id is the VendorTxCode.
    expect(opayo.server.get(row.paymentProviderReference!)).toMatchObject({
      vendorTxCode: started.paymentId,
      txType: captureType === 'Reserve' ? 'DEFERRED' : 'PAYMENT',
    });
    const landed = await clickThrough(started.next.url, 'Pay');
    expect(landed).toBe(
      `http://localhost:3000/pay/${request.requestId}?payment=${started.paymentId}`,
    );
    return { request, started, vpsTxId: row.paymentProviderReference! };
  }

  const act = (id: string, action: 'capture' | 'cancel', payload: object = {}) =>
    call(company.who, 'POST', `payment-transactions/${id}/pending/${action}`, payload);

  it('an immediate payment: the notification settles it Paid with its allocations', async () => {
    const { request, started } = await paidOnCardPage(['60', '40'], 'Immediate');
    await until(started.paymentId, 'Paid');
    expect(await poll(request.requestId, started.paymentId)).toMatchObject({
      status: 'Paid',
      outcome: 'Succeeded',
    });
    await expectSettled(company, request, started.paymentId);
  });

  it('a Reserve request is DEFERRED: Pending, then released through the capture call → Paid', async () => {
    const { started, vpsTxId } = await paidOnCardPage(['25'], 'Reserve');
    await until(started.paymentId, 'Pending');
    const captured = await act(started.paymentId, 'capture', { amountToCapture: 20 });
    expect(captured.json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Paid' },
    });
    expect(opayo.server.get(vpsTxId)).toMatchObject({
      status: 'Released',
      releasedAmount: '20.00',
    });
    const release = opayo.requests.filter((r) => r.path === '/gateway/service/release.vsp').at(-1)!;
    expect(Object.fromEntries(release.form)).toMatchObject({
      VPSProtocol: '4.00',
      TxType: 'RELEASE',
      Vendor: 'opayocards',
      VendorTxCode: started.paymentId,
      VPSTxId: vpsTxId,
      TxAuthNo: opayo.server.get(vpsTxId)!.txAuthNo,
      ReleaseAmount: '20.00',
    });
    // Register, notification, release: the SecurityKey is in none of them.
    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, started.paymentId))
      .orderBy(asc(providerEvents.createdOn), asc(providerEvents.id));
    expect(events.map((e) => e.eventType)).toEqual([
      'transaction.register',
      'notification.ok',
      'transaction.release',
    ]);
    for (const event of events)
      expect(event.payload).not.toContain(opayo.server.get(vpsTxId)!.securityKey);
  });

  it('a reserved payment aborted through the cancel call → Cancelled; a second abort is refused', async () => {
    const { started, vpsTxId } = await paidOnCardPage(['12'], 'Reserve');
    await until(started.paymentId, 'Pending');
    expect((await act(started.paymentId, 'cancel')).json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Cancelled' },
    });
    expect(opayo.server.get(vpsTxId)!.status).toBe('Aborted');
    const aborts = opayo.requests.filter((r) => r.path === '/gateway/service/abort.vsp').length;
    expect((await act(started.paymentId, 'cancel')).statusCode).toBe(409);
    expect(opayo.requests.filter((r) => r.path === '/gateway/service/abort.vsp')).toHaveLength(
      aborts,
    );
    expect(
      opayo.requests
        .filter((r) => r.path === '/gateway/service/abort.vsp')
        .at(-1)!
        .form.get('TxType'),
    ).toBe('ABORT');
  });
});
