import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { startFakeOppwa, type FakeOppwa } from '../../../test/fakes/fake-oppwa.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/fake-stripe.js';
import { clickThrough } from '../../../test/fixtures/checkout-input.js';
import { day, insertAccount, insertInvoice } from '../../../test/fixtures/pay.js';

/**
 * The card options of a configuration (spec 3 §2: Stripe's use-customer,
 * store-card details and save-card default; OPPWA's store-card details and save-card default)
 * reach the checkout, and a card is stored only when the payer agrees on the page. The page's
 * method says whether it offers the box and whether it starts ticked; the start call carries the
 * payer's choice; the provider fakes record the wire parameters and what they stored.
 */

let ctx: TestContext;
let stripe: FakeStripe;
let oppwa: FakeOppwa;

beforeAll(async () => {
  [stripe, oppwa] = await Promise.all([startFakeStripe(), startFakeOppwa()]);
  ctx = await buildTestApp({
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_CONNECT_CLIENT_ID: stripe.clientId,
    STRIPE_CONNECT_URL: stripe.url,
    STRIPE_API_URL: stripe.url,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    OPPWA_TEST_URL: oppwa.url,
  });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await Promise.all([stripe.close(), oppwa.close()]);
});

type Method = 'GET' | 'POST' | 'PUT';
function call(who: SignedIn, method: Method, url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    payload,
  });
}

interface Company {
  who: SignedIn;
  accountId: string;
}

async function company(name: string): Promise<Company> {
  const who = await signIn(ctx, { tenantName: name });
  return { who, accountId: await insertAccount(ctx, who) };
}

/** A request for one invoice of `amount`, raised as staff raise it. */
async function requestFor(at: Company, amount = '40') {
  const invoice = await insertInvoice(ctx, at.who, at.accountId, {
    amount,
    transactionDate: day(-1),
    dueDate: day(29),
  });
  const created = await call(at.who, 'POST', 'payment-requests', {
    requestType: 'Transaction',
    accountId: at.accountId,
    currency: 'GBP',
    captureType: 'Immediate',
    usageType: 'Single',
    description: 'Invoice',
    transactionAllocations: [{ transactionId: invoice }],
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

/** The page's method of the configuration. */
async function methodOf(requestId: string, configurationId: string) {
  const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${requestId}` });
  expect(page.statusCode, page.body).toBe(200);
  const method = page
    .json()
    .methods.find((m: { configurationId: string }) => m.configurationId === configurationId);
  expect(method).toBeDefined();
  return method as { saveCard?: { checkedByDefault: boolean } };
}

/** The payer starts a payment with the method, ticking the box (true), not (false), or absent. */
async function start(requestId: string, configurationId: string, saveCard?: boolean) {
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: {
      configurationId,
      ...(saveCard === undefined ? {} : { saveCard }),
      payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@example.com' },
    },
  });
  expect(started.statusCode, started.body).toBe(201);
  return started.json() as {
    paymentId: string;
    next: { kind: string; url?: string; checkoutId?: string };
  };
}

describe('Stripe: use-customer, store-card and save-card default on the Checkout Session', () => {
  let shop: Company;
  let configurationId: string;

  /** Connects an account (spec 3 §4: the new configuration has all three options on). */
  beforeAll(async () => {
    shop = await company('Card Saving Stripe Ltd');
    stripe.connectNext({ id: 'acct_1SaveCards000001', displayName: 'Card Saving Stripe Ltd' });
    const begun = await call(shop.who, 'POST', 'stripe/account/connect/start', {
      paymentProviderId: null,
    });
    expect(begun.statusCode, begun.body).toBe(200);
    // The fake's authorise page links back to our return route: read the link, as a browser would.
    const page = await (await fetch(begun.json().url)).text();
    const link = /<a href="([^"]+)">Connect my Stripe account<\/a>/.exec(page);
    const back = new URL(link![1]!.replace(/&amp;/g, '&'));
    const connected = await call(
      shop.who,
      'POST',
      `stripe/account/connect?code=${back.searchParams.get('code')}&state=${encodeURIComponent(back.searchParams.get('state')!)}`,
    );
    expect(connected.statusCode, connected.body).toBe(200);
    configurationId = connected.json().paymentProviderId;
  });

  async function setOptions(settings: Record<string, boolean>) {
    const stored = await call(shop.who, 'GET', `providers/${configurationId}`);
    const { providerName, name, description, enabled, displayPriority, isTest } = stored.json();
    const saved = await call(shop.who, 'PUT', 'providers', {
      id: configurationId,
      providerName,
      name,
      description,
      enabled,
      displayPriority,
      isTest,
      settings,
      credentials: {},
      paymentMethodConfigurations: stored.json().paymentMethodConfigurations,
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }

  /** Starts a payment and pays on Stripe's page: the session as the fake recorded it. */
  async function paidSession(saveCard?: boolean) {
    const requestId = await requestFor(shop);
    const started = await start(requestId, configurationId, saveCard);
    const sessionId = new URL(started.next.url!).pathname.split('/').pop()!;
    await clickThrough(started.next.url!, 'Pay');
    return stripe.sessions.get(sessionId)!;
  }

  const savedCardsOf = (sessionId: string) =>
    stripe.savedCards.filter((card) => card.session === sessionId);

  it('all on: the box is offered ticked; ticked, the card is saved on a new Customer off-session', async () => {
    const requestId = await requestFor(shop);
    expect((await methodOf(requestId, configurationId)).saveCard).toEqual({
      checkedByDefault: true,
    });
    const session = await paidSession(true);
    expect(session.form.get('customer_creation')).toBe('always');
    expect(session.form.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
    expect(session.form.has('saved_payment_method_options[payment_method_save]')).toBe(false);
    expect(session.customer).toMatch(/^cus_/);
    expect(savedCardsOf(session.id)).toEqual([
      expect.objectContaining({
        account: 'acct_1SaveCards000001',
        customer: session.customer,
        usage: 'off_session',
      }),
    ]);
  });

  it('the payer unticks the box, or sends no choice: a Customer, no card saved', async () => {
    for (const choice of [false, undefined]) {
      const session = await paidSession(choice);
      expect(session.form.get('customer_creation')).toBe('always');
      expect(session.form.has('payment_intent_data[setup_future_usage]')).toBe(false);
      expect(session.customer).toMatch(/^cus_/);
      expect(savedCardsOf(session.id)).toEqual([]);
    }
  });

  it('save-card default off: the box is offered unticked; the payer’s tick still saves the card', async () => {
    await setOptions({
      useStripeCustomer: true,
      storePayerPaymentMethod: true,
      saveCardOptionDefault: false,
    });
    const requestId = await requestFor(shop);
    expect((await methodOf(requestId, configurationId)).saveCard).toEqual({
      checkedByDefault: false,
    });
    const session = await paidSession(true);
    expect(session.form.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
    expect(savedCardsOf(session.id)).toHaveLength(1);
  });

  it('store-card off: no box, and a tick sent anyway stores nothing; the Customer is still made', async () => {
    await setOptions({
      useStripeCustomer: true,
      storePayerPaymentMethod: false,
      saveCardOptionDefault: false,
    });
    const requestId = await requestFor(shop);
    expect((await methodOf(requestId, configurationId)).saveCard).toBeUndefined();
    const session = await paidSession(true);
    expect(session.form.get('customer_creation')).toBe('always');
    expect(session.form.has('payment_intent_data[setup_future_usage]')).toBe(false);
    expect(savedCardsOf(session.id)).toEqual([]);
  });

  it('use-customer off: no Customer, no box, nothing stored (store-card is forced off with it)', async () => {
    await setOptions({
      useStripeCustomer: false,
      storePayerPaymentMethod: true,
      saveCardOptionDefault: true,
    });
    const stored = await call(shop.who, 'GET', `providers/${configurationId}`);
    expect(stored.json().settings).toMatchObject({
      useStripeCustomer: false,
      storePayerPaymentMethod: false,
      saveCardOptionDefault: false,
    });
    const requestId = await requestFor(shop);
    expect((await methodOf(requestId, configurationId)).saveCard).toBeUndefined();
    const session = await paidSession(true);
    expect(session.form.has('customer_creation')).toBe(false);
    expect(session.form.has('payment_intent_data[setup_future_usage]')).toBe(false);
    expect(session.customer).toBeNull();
    expect(savedCardsOf(session.id)).toEqual([]);
  });
});

describe('OPPWA: store-card and save-card default drive createRegistration', () => {
  let shop: Company;

  beforeAll(async () => {
    shop = await company('Card Saving Processor Ltd');
  });

  async function configuration(name: string, settings: Record<string, unknown>) {
    const created = await call(shop.who, 'POST', 'providers', {
      providerName: 'Oppwa',
      name,
      enabled: true,
      displayPriority: 0,
      settings,
      credentials: { useSandbox: true, entityId: oppwa.entityId, accessToken: oppwa.accessToken },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  }

  /** Starts a payment, pays in the widget and lets the page's poll read the result. */
  async function paidCheckout(requestId: string, configurationId: string, saveCard?: boolean) {
    const started = await start(requestId, configurationId, saveCard);
    expect(started.next.kind).toBe('oppwa');
    const checkoutId = started.next.checkoutId!;
    oppwa.pay(checkoutId);
    const polled = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${requestId}/payments/${started.paymentId}?id=${encodeURIComponent(checkoutId)}&resourcePath=${encodeURIComponent(`/v1/checkouts/${checkoutId}/payment`)}`,
    });
    expect(polled.json()).toMatchObject({ status: 'Paid' });
    return oppwa.checkouts.get(checkoutId)!;
  }

  it('store-card on, save-card default on: offered ticked; ticked, createRegistration=true registers the card', async () => {
    const id = await configuration('Stores cards, ticked', {
      storePayerPaymentMethod: true,
      saveCardOptionDefault: true,
    });
    const requestId = await requestFor(shop);
    expect((await methodOf(requestId, id)).saveCard).toEqual({ checkedByDefault: true });
    const checkout = await paidCheckout(requestId, id, true);
    expect(checkout.form.get('createRegistration')).toBe('true');
    expect(checkout.registrationId).toMatch(/^8ac7a4a0/);
    expect(oppwa.registrations.get(checkout.registrationId!)).toMatchObject({
      checkoutId: checkout.id,
    });
  });

  it('store-card on, save-card default off: offered unticked; unticked or no choice, no createRegistration', async () => {
    const id = await configuration('Stores cards, unticked', {
      storePayerPaymentMethod: true,
      saveCardOptionDefault: false,
    });
    for (const choice of [false, undefined]) {
      const requestId = await requestFor(shop);
      expect((await methodOf(requestId, id)).saveCard).toEqual({ checkedByDefault: false });
      const checkout = await paidCheckout(requestId, id, choice);
      expect(checkout.form.has('createRegistration')).toBe(false);
      expect(checkout.registrationId).toBeNull();
    }
  });

  it('store-card off: no box, and a tick sent anyway registers nothing', async () => {
    const id = await configuration('Never stores cards', {
      storePayerPaymentMethod: false,
      saveCardOptionDefault: true,
    });
    const requestId = await requestFor(shop);
    expect((await methodOf(requestId, id)).saveCard).toBeUndefined();
    const checkout = await paidCheckout(requestId, id, true);
    expect(checkout.form.has('createRegistration')).toBe(false);
    expect(checkout.registrationId).toBeNull();
  });

  it('a save-card choice that is not true or false is refused with its message', async () => {
    const id = await configuration('Choice checked', { storePayerPaymentMethod: true });
    const requestId = await requestFor(shop);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${requestId}/payments`,
      payload: { configurationId: id, saveCard: 'yes' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ saveCard: ['Save card must be true or false'] });
  });
});
