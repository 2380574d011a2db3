import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { providerEvents } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { setFeatureFlag } from '../../../test/feature-gates.js';
import { fakeOpayoPiCards } from '../../../test/fakes/fake-opayo-pi.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { day, expectSettledIn, insertAccount, insertInvoice, paymentRowIn } from '../../../test/fixtures/pay.js';

/**
 * The payer page paid through Opayo Pi, through HTTP only, against the fake:
 * the merchant configures Opayo with the Pi integration, raises a request for invoices, the payer
 * starts a payment (a merchant session key for the drop-in), Opayo.js tokenises the card (the
 * fake's card identifier), the page posts it, and the server's transaction answer settles the
 * payment, or a 3-D Secure challenge sends the payer to the issuer's page and back.
 */

let ctx: TestContext;
let opayo: FakeOpayo;
const integrationKey = 'pi-key-ledgerline';
const integrationPassword = 'pi-password-ledgerline-1';

type Method = 'GET' | 'POST';
function call(who: SignedIn, method: Method, url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    payload,
  });
}

let company: { who: SignedIn; accountId: string };
let configId: string;

beforeAll(async () => {
  opayo = await startFakeOpayo();
  opayo.integrations.set(integrationKey, integrationPassword);
  ctx = await buildTestApp({ RATE_LIMIT_PAY_PER_MINUTE: '100000', OPAYO_TEST_URL: opayo.url });
  const who = await signIn(ctx, { tenantName: 'Opayo Pi Ltd' });
  // Opayo's integrated form needs the OpayoPi flag (spec 3 §3).
  await setFeatureFlag(ctx, 'OpayoPi', true);
  company = { who, accountId: await insertAccount(ctx, who) };
  const created = await call(who, 'POST', 'providers', {
    providerName: 'Opayo',
    name: 'Opayo Pi cards',
    enabled: true,
    displayPriority: 0,
    settings: { useTestServer: true, integrationType: 'Pi', vendorTxCodeType: 'PaymentRequest' },
    credentials: {
      vendorName: 'pivendor',
      adminUser: 'admin',
      adminPassword: 'Admin-Password-1',
      integrationKey,
      integrationPassword,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  configId = created.json().id;
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await opayo?.close();
});

async function requestFor(amounts: string[], captureType: 'Immediate' | 'Reserve' = 'Immediate') {
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

interface PiStep {
  kind: 'opayo-pi';
  scriptUrl: string;
  merchantSessionKey: string;
}

async function startPayment(requestId: string) {
  const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${requestId}` });
  expect(page.json().methods).toContainEqual(
    expect.objectContaining({ configurationId: configId, providerName: 'Opayo', group: 'Card' }),
  );
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: {
      configurationId: configId,
      payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@example.com' },
    },
  });
  expect(started.statusCode, started.body).toBe(201);
  const body = started.json() as { paymentId: string; amount: number; next: PiStep };
  expect(body.next).toMatchObject({
    kind: 'opayo-pi',
    scriptUrl: `${opayo.url}/api/v1/js/sagepay.js`,
  });
  return body;
}

/** What Opayo.js does in the page: the card details to Opayo, a card identifier back. */
async function tokenise(step: PiStep, cardNumber: string) {
  const answer = await fetch(`${opayo.url}/api/v1/card-identifiers`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${step.merchantSessionKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      cardDetails: {
        cardholderName: 'Pat Payer',
        cardNumber,
        expiryDate: '1229',
        securityCode: '123',
      },
    }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { cardIdentifier: string }).cardIdentifier;
}

function postCard(requestId: string, paymentId: string, payload: object) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments/${paymentId}/opayo`,
    headers: { 'user-agent': 'Mozilla/5.0 (payer)', accept: 'text/html' },
    payload,
  });
}

const paymentRow = (id: string) => paymentRowIn(ctx, id);

const expectSettled = (request: { requestId: string; invoices: string[] }, paymentId: string) =>
  expectSettledIn(ctx, company.who, request, paymentId);

const transactionCalls = () =>
  opayo.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/transactions').length;

describe('Opayo Pi (drop-in on the page, then the server’s transaction)', () => {
  it('Ok → Paid with allocations, charged with the server’s amount; a second post is refused', async () => {
    const request = await requestFor(['60', '40']);
    const started = await startPayment(request.requestId);
    expect(started.amount).toBe(100);
    const waiting = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${request.requestId}/payments/${started.paymentId}`,
    });
    expect(waiting.json()).toMatchObject({ status: 'Processing', outcome: 'Waiting' });

    const cardIdentifier = await tokenise(started.next, fakeOpayoPiCards.ok);
    // An amount from the browser is no part of the call: the server's amount is charged.
    const paid = await postCard(request.requestId, started.paymentId, {
      cardIdentifier,
      amount: 1,
      browser: {
        language: 'en-GB',
        colorDepth: 24,
        screenHeight: 844,
        screenWidth: 390,
        timeZoneOffset: 0,
      },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'Paid', outcome: 'Succeeded', message: null });
    expect(paid.json().challenge).toBeUndefined();
    const row = await paymentRow(started.paymentId);
    const transaction = opayo.pi.transactions.get(row.paymentProviderReference!)!;
    expect(transaction).toMatchObject({
      transactionType: 'Payment',
      amount: 10000,
      currency: 'GBP',
      vendorTxCode: row.ledgerlineReference,
      status: 'Ok',
    });
    expect(transaction.body.strongCustomerAuthentication).toMatchObject({
      notificationURL: `http://localhost:3000/api/v0/pay/${request.requestId}/payments/${started.paymentId}/3ds`,
      browserUserAgent: 'Mozilla/5.0 (payer)',
      browserAcceptHeader: 'text/html',
      browserScreenWidth: '390',
    });
    expect(row).toMatchObject({ status: 'Paid', paymentMethodType: 'Card' });
    await expectSettled(request, started.paymentId);

    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, started.paymentId));
    expect(events.map((e) => e.eventType).sort()).toEqual([
      'merchant-session-key.create',
      'transaction.payment',
    ]);
    const payloads = events.map((e) => e.payload).join();
    expect(payloads).not.toContain(cardIdentifier);
    expect(payloads).not.toContain(integrationPassword);

    const calls = transactionCalls();
    const again = await postCard(request.requestId, started.paymentId, { cardIdentifier });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(
      'Card details were already sent for this payment. Refresh the page to see its outcome.',
    );
    expect(transactionCalls()).toBe(calls);
  });

  it('two posts at once: one transaction, one refusal', async () => {
    const request = await requestFor(['25']);
    const started = await startPayment(request.requestId);
    const cardIdentifier = await tokenise(started.next, fakeOpayoPiCards.ok);
    const calls = transactionCalls();
    const answers = await Promise.all([
      postCard(request.requestId, started.paymentId, { cardIdentifier }),
      postCard(request.requestId, started.paymentId, { cardIdentifier }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(transactionCalls()).toBe(calls + 1);
    expect((await paymentRow(started.paymentId)).status).toBe('Paid');
  });

  it('a Reserve request is Deferred: Pending, then released by staff with the transaction id → Paid', async () => {
    const request = await requestFor(['40'], 'Reserve');
    const started = await startPayment(request.requestId);
    const reserved = await postCard(request.requestId, started.paymentId, {
      cardIdentifier: await tokenise(started.next, fakeOpayoPiCards.ok),
    });
    expect(reserved.json()).toMatchObject({ status: 'Pending', outcome: 'Reserved' });
    const row = await paymentRow(started.paymentId);
    expect(opayo.deferred.get(row.paymentProviderReference!)).toEqual({
      amount: 4000,
      status: 'Deferred',
    });
    const capture = await call(
      company.who,
      'POST',
      `payment-transactions/${started.paymentId}/pending/capture`,
      { amountToCapture: 40 },
    );
    expect(capture.json(), capture.body).toMatchObject({ isError: false });
    expect(opayo.deferred.get(row.paymentProviderReference!)).toEqual({
      amount: 4000,
      status: 'Released',
    });
    expect((await paymentRow(started.paymentId)).status).toBe('Paid');
  });

  it('NotAuthed is NotAuthorised with the payer’s message, and the request stays Open', async () => {
    const request = await requestFor(['30']);
    const started = await startPayment(request.requestId);
    const declined = await postCard(request.requestId, started.paymentId, {
      cardIdentifier: await tokenise(started.next, fakeOpayoPiCards.notAuthed),
    });
    expect(declined.json()).toMatchObject({
      status: 'NotAuthorised',
      outcome: 'Failed',
      message: 'Your card was declined',
    });
    const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${request.requestId}` });
    expect(page.json().state).toBe('Open');
  });

  it('3DAuth: the page gets the challenge, the issuer’s page posts cres back, the payment settles once', async () => {
    const request = await requestFor(['70', '5']);
    const started = await startPayment(request.requestId);
    const challenged = await postCard(request.requestId, started.paymentId, {
      cardIdentifier: await tokenise(started.next, fakeOpayoPiCards.challenge),
    });
    expect(challenged.statusCode, challenged.body).toBe(200);
    const status = challenged.json();
    expect(status).toMatchObject({ status: 'Processing', outcome: 'Waiting' });
    const { acsUrl, creq, threeDSSessionData } = status.challenge as Record<string, string>;
    // A card identifier posted again while the issuer's page is open is refused.
    const during = await postCard(request.requestId, started.paymentId, {
      cardIdentifier: await tokenise(started.next, fakeOpayoPiCards.ok),
    });
    expect(during.statusCode).toBe(409);

    // The browser POSTs creq to the issuer's page; the payer passes; the page POSTs cres to us.
    const acsPage = await (
      await fetch(acsUrl!, {
        method: 'POST',
        body: new URLSearchParams({ creq: creq!, threeDSSessionData: threeDSSessionData! }),
      })
    ).text();
    const form =
      /<form method="post" action="([^"]+)"><input type="hidden" name="cres" value="([^"]+)"><input type="hidden" name="threeDSSessionData" value="([^"]*)"><button type="submit">Authenticate<\/button>/.exec(
        acsPage,
      );
    expect(form).not.toBeNull();
    const action = new URL(form![1]!.replace(/&amp;/g, '&'));
    expect(action.pathname).toBe(
      `/api/v0/pay/${request.requestId}/payments/${started.paymentId}/3ds`,
    );
    const back = () =>
      ctx.app.inject({
        method: 'POST',
        url: action.pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ cres: form![2]!, threeDSSessionData: form![3]! }).toString(),
      });
    // An answer Opayo refuses (not the issuer's) settles nothing: the real one still can.
    const forged = await ctx.app.inject({
      method: 'POST',
      url: action.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'cres=forged&threeDSSessionData=x',
    });
    expect(forged.statusCode).toBe(303);
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');

    const returned = await back();
    expect(returned.statusCode).toBe(303);
    expect(returned.headers.location).toBe(
      `/pay/${request.requestId}?payment=${started.paymentId}`,
    );
    const row = await paymentRow(started.paymentId);
    expect(row).toMatchObject({ status: 'Paid', paymentMethodType: 'Card' });
    expect(opayo.pi.transactions.get(row.paymentProviderReference!)!.status).toBe('Ok');
    await expectSettled(request, started.paymentId);

    // The same answer again (a reload, a replay) changes nothing and calls Opayo no more.
    const challengeCalls = () =>
      opayo.requests.filter((r) => r.path.endsWith('/3d-secure-challenge')).length;
    const before = challengeCalls();
    const replay = await back();
    expect(replay.statusCode).toBe(303);
    expect(challengeCalls()).toBe(before);
    expect((await paymentRow(started.paymentId)).status).toBe('Paid');
  });

  it('3DAuth failed by the payer → NotAuthorised; a 3DS post for a payment not waiting changes nothing', async () => {
    const request = await requestFor(['33']);
    const started = await startPayment(request.requestId);
    const challenged = await postCard(request.requestId, started.paymentId, {
      cardIdentifier: await tokenise(started.next, fakeOpayoPiCards.challenge),
    });
    const transactionId = (await paymentRow(started.paymentId)).paymentProviderReference!.replace(
      /:challenge$/,
      '',
    );
    const returned = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${request.requestId}/payments/${started.paymentId}/3ds`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        cres: opayo.pi.cresFor(transactionId, false),
        threeDSSessionData: challenged.json().challenge.threeDSSessionData,
      }).toString(),
    });
    expect(returned.statusCode).toBe(303);
    const polled = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${request.requestId}/payments/${started.paymentId}`,
    });
    expect(polled.json()).toMatchObject({
      status: 'NotAuthorised',
      outcome: 'Failed',
      message: 'Your card was declined',
    });

    // A payment that never asked for 3-D Secure: nothing is sent, the payer just sees the page.
    const other = await requestFor(['34']);
    const waiting = await startPayment(other.requestId);
    const calls = opayo.requests.length;
    const stray = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${other.requestId}/payments/${waiting.paymentId}/3ds`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'cres=forged&threeDSSessionData=x',
    });
    expect(stray.statusCode).toBe(303);
    expect(opayo.requests.length).toBe(calls);
    expect((await paymentRow(waiting.paymentId)).status).toBe('Processing');
  });

  it('a payer who never comes back from the issuer’s page: the page’s poll asks Opayo and settles it', async () => {
    const request = await requestFor(['21']);
    const started = await startPayment(request.requestId);
    await postCard(request.requestId, started.paymentId, {
      cardIdentifier: await tokenise(started.next, fakeOpayoPiCards.challenge),
    });
    const transactionId = (await paymentRow(started.paymentId)).paymentProviderReference!.replace(
      /:challenge$/,
      '',
    );
    opayo.pi.finishChallenge(transactionId, true);
    const polled = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${request.requestId}/payments/${started.paymentId}`,
    });
    expect(polled.json()).toMatchObject({ status: 'Paid', outcome: 'Succeeded' });
    expect((await paymentRow(started.paymentId)).paymentProviderReference).toBe(transactionId);
    await expectSettled(request, started.paymentId);
  });

  it("never charges a payment through another request's id; a missing card identifier is a 400", async () => {
    const mine = await requestFor(['14']);
    const theirs = await requestFor(['15']);
    const started = await startPayment(theirs.requestId);
    const cardIdentifier = await tokenise(started.next, fakeOpayoPiCards.ok);
    const calls = transactionCalls();
    expect((await postCard(mine.requestId, started.paymentId, { cardIdentifier })).statusCode).toBe(
      404,
    );
    expect(
      (await postCard('not-a-request', started.paymentId, { cardIdentifier })).statusCode,
    ).toBe(404);
    const missing = await postCard(theirs.requestId, started.paymentId, { cardIdentifier: ' ' });
    expect(missing.statusCode).toBe(400);
    expect(transactionCalls()).toBe(calls);
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');
    const paid = await postCard(theirs.requestId, started.paymentId, { cardIdentifier });
    expect(paid.json()).toMatchObject({ status: 'Paid' });
  });
});
