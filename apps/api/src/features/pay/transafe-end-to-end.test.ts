import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { tranSafeTestCredentials } from '@ledgerline/contract';
import { providerEvents } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { fakeTranSafeCards, startFakeTranSafe, type FakeTranSafe } from '../../../test/fakes/fake-transafe.js';
import { day, expectSettledIn, insertAccount, insertInvoice, paymentRowIn } from '../../../test/fixtures/pay.js';

/**
 * The payer page paid through TranSafe, through HTTP only, against the fake:
 * the merchant configures TranSafe (test site), raises a request for invoices, the payer starts a
 * payment, the PaymentFrame (the fake's page) gives a card ticket, the page posts it, and the
 * server's purchase or preauth answer settles the payment.
 */

let ctx: TestContext;
let tranSafe: FakeTranSafe;

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
  tranSafe = await startFakeTranSafe();
  // The test switch's fixed credentials (spec 3 §4), as TranSafe's test site knows them.
  tranSafe.users.set(tranSafeTestCredentials.userName, tranSafeTestCredentials.password);
  ctx = await buildTestApp({
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
    TRANSAFE_TEST_URL: tranSafe.url,
  });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await tranSafe.close();
});

interface FrameStep {
  kind: 'transafe-frame';
  frameUrl: string;
  frameOrigin: string;
  attributes: Record<string, string>;
}

let company: { who: SignedIn; accountId: string };
let configId: string;

beforeAll(async () => {
  const who = await signIn(ctx, { tenantName: 'Card Gateway Ltd' });
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, who);
  company = { who, accountId: await insertAccount(ctx, who) };
  const created = await call(who, 'POST', 'providers', {
    providerName: 'TranSafe',
    name: 'TranSafe cards',
    enabled: true,
    displayPriority: 0,
    settings: { useTestSite: true },
    credentials: {},
  });
  expect(created.statusCode, created.body).toBe(201);
  configId = created.json().id;
});

async function requestFor(amounts: string[], captureType: 'Immediate' | 'Reserve' = 'Immediate') {
  const invoices: string[] = [];
  for (const amount of amounts)
    invoices.push(
      await insertInvoice(ctx, company.who, company.accountId, {
        amount,
        transactionDate: day(-1),
        dueDate: day(29),
        currency: 'USD',
      }),
    );
  const created = await call(company.who, 'POST', 'payment-requests', {
    requestType: 'Transaction',
    accountId: company.accountId,
    // TranSafe takes USD and CAD (its provider type's supported currencies).
    currency: 'USD',
    captureType,
    usageType: 'Single',
    description: 'Invoices for October',
    transactionAllocations: invoices.map((transactionId) => ({ transactionId })),
  });
  expect(created.statusCode, created.body).toBe(201);
  return { requestId: created.json().id as string, invoices };
}

async function startPayment(requestId: string) {
  const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${requestId}` });
  expect(page.json().methods).toContainEqual(
    expect.objectContaining({ configurationId: configId, providerName: 'TranSafe', group: 'Card' }),
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
  const body = started.json() as { paymentId: string; amount: number; next: FrameStep };
  expect(body.next.kind).toBe('transafe-frame');
  return body;
}

/** The payer types a card into the PaymentFrame; the frame answers the page with a ticket. */
async function frameTicket(step: FrameStep, account: string = fakeTranSafeCards.approved) {
  const frame = new URL(step.frameUrl);
  expect(frame.searchParams.get('hmac-domain')).toBe('http://localhost:3000');
  expect((await fetch(frame)).status).toBe(200);
  const answer = await fetch(new URL('ticket', frame), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: frame.searchParams.get('hmac-username'),
      timestamp: frame.searchParams.get('hmac-timestamp'),
      sequence: frame.searchParams.get('hmac-sequence'),
      account,
      expdate: '1230',
      cv: '123',
    }),
  });
  const body = (await answer.json()) as { ticket: string; monetra_resp_hmacsha256: string };
  return { ticket: body.ticket, ticketHmac: body.monetra_resp_hmacsha256 };
}

function postTicket(requestId: string, paymentId: string, payload: object) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments/${paymentId}/transafe`,
    payload,
  });
}

const paymentRow = (id: string) => paymentRowIn(ctx, id);

const expectSettled = (request: { requestId: string; invoices: string[] }, paymentId: string) =>
  expectSettledIn(ctx, company.who, request, paymentId);

describe('TranSafe (PaymentFrame on the page, then purchase / preauth)', () => {
  it('the ticket is charged with the server’s amount: Paid with allocations; a second post is refused', async () => {
    const request = await requestFor(['90', '10']);
    const started = await startPayment(request.requestId);
    expect(started.amount).toBe(100);
    // Until the ticket comes, the payment is Processing and the page's poll asks TranSafe nothing.
    const before = tranSafe.requests.length;
    const waiting = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${request.requestId}/payments/${started.paymentId}`,
    });
    expect(waiting.json()).toMatchObject({ status: 'Processing', outcome: 'Waiting' });
    expect(tranSafe.requests.length).toBe(before);

    const ticket = await frameTicket(started.next);
    // An amount from the browser is no part of the call: the server's amount is charged.
    const paid = await postTicket(request.requestId, started.paymentId, { ...ticket, amount: 1 });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'Paid', outcome: 'Succeeded', message: null });
    expect(paid.json().receipt).toMatchObject({ amount: 100, currency: 'USD' });
    const charge = tranSafe.charges.at(-1)!;
    expect(charge).toMatchObject({ kind: 'purchase', amount: '100.00' });
    const row = await paymentRow(started.paymentId);
    expect(charge.ordernum).toBe(row.ledgerlineReference);
    // The ttid is the payment's provider reference (what a refund or reversal acts on).
    expect(tranSafe.transactions.get(row.paymentProviderReference!)).toEqual({
      amount: '100.00',
      status: 'complete',
    });
    expect(row).toMatchObject({ status: 'Paid', paymentMethodType: 'Card' });
    await expectSettled(request, started.paymentId);

    // The provider events: the frame's fields, then the purchase; never the ticket.
    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, started.paymentId));
    expect(events.map((e) => e.eventType).sort()).toEqual([
      'paymentframe.request',
      'transaction.purchase',
    ]);
    expect(events.map((e) => e.payload).join()).not.toContain(ticket.ticket);
    expect(events.map((e) => e.payload).join()).not.toContain(tranSafeTestCredentials.password);

    const charges = tranSafe.charges.length;
    const again = await postTicket(request.requestId, started.paymentId, ticket);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(
      'Card details were already sent for this payment. Refresh the page to see its outcome.',
    );
    expect(tranSafe.charges.length).toBe(charges);
  });

  it('two ticket posts at once: one charge, one refusal', async () => {
    const request = await requestFor(['25']);
    const started = await startPayment(request.requestId);
    const ticket = await frameTicket(started.next);
    const charges = tranSafe.charges.length;
    const answers = await Promise.all([
      postTicket(request.requestId, started.paymentId, ticket),
      postTicket(request.requestId, started.paymentId, ticket),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(tranSafe.charges.length).toBe(charges + 1);
    expect((await paymentRow(started.paymentId)).status).toBe('Paid');
  });

  it('a Reserve request is a preauth: Pending, then staff capture it with the ttid → Paid', async () => {
    const request = await requestFor(['40'], 'Reserve');
    const started = await startPayment(request.requestId);
    const reserved = await postTicket(
      request.requestId,
      started.paymentId,
      await frameTicket(started.next),
    );
    expect(reserved.json()).toMatchObject({ status: 'Pending', outcome: 'Reserved' });
    expect(tranSafe.charges.at(-1)).toMatchObject({ kind: 'preauth', amount: '40.00' });
    const row = await paymentRow(started.paymentId);
    expect(tranSafe.transactions.get(row.paymentProviderReference!)!.status).toBe('preauth');
    const capture = await call(
      company.who,
      'POST',
      `payment-transactions/${started.paymentId}/pending/capture`,
      { amountToCapture: 40 },
    );
    expect(capture.json(), capture.body).toMatchObject({ isError: false });
    expect(tranSafe.transactions.get(row.paymentProviderReference!)!.status).toBe('complete');
    expect((await paymentRow(started.paymentId)).status).toBe('Paid');
  });

  it('a declined card is NotAuthorised with TranSafe’s words, and the request stays Open', async () => {
    const request = await requestFor(['30']);
    const started = await startPayment(request.requestId);
    const declined = await postTicket(
      request.requestId,
      started.paymentId,
      await frameTicket(started.next, fakeTranSafeCards.declined),
    );
    expect(declined.json()).toMatchObject({
      status: 'NotAuthorised',
      outcome: 'Failed',
      message: 'DECLINED',
    });
    const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${request.requestId}` });
    expect(page.json().state).toBe('Open');
  });

  it('a ticket that does not come from this payment’s frame is refused and charges nothing', async () => {
    const request = await requestFor(['12']);
    const started = await startPayment(request.requestId);
    const other = await startPayment((await requestFor(['13'])).requestId);
    const foreign = await frameTicket(other.next);
    const charges = tranSafe.charges.length;
    const refused = await postTicket(request.requestId, started.paymentId, foreign);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.ticket).toEqual([
      'The card details could not be verified. Please enter them again.',
    ]);
    const malformed = await postTicket(request.requestId, started.paymentId, { ticket: '' });
    expect(malformed.statusCode).toBe(400);
    expect(tranSafe.charges.length).toBe(charges);
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');
    // The right ticket still pays.
    const paid = await postTicket(
      request.requestId,
      started.paymentId,
      await frameTicket(started.next),
    );
    expect(paid.json()).toMatchObject({ status: 'Paid' });
  });

  it("never charges a payment through another request's id, nor a payment of another provider", async () => {
    const mine = await requestFor(['14']);
    const theirs = await requestFor(['15']);
    const started = await startPayment(theirs.requestId);
    const ticket = await frameTicket(started.next);
    const wrongRequest = await postTicket(mine.requestId, started.paymentId, ticket);
    expect(wrongRequest.statusCode).toBe(404);
    expect((await postTicket('not-a-request', started.paymentId, ticket)).statusCode).toBe(404);
    expect((await paymentRow(started.paymentId)).status).toBe('Processing');

    const sandbox = await call(company.who, 'POST', 'providers', {
      providerName: 'Sandbox',
      name: 'Sandbox cards',
      enabled: true,
      displayPriority: 1,
      settings: {},
      credentials: {},
    });
    expect(sandbox.statusCode, sandbox.body).toBe(201);
    const request = await requestFor(['16']);
    const sandboxPayment = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${request.requestId}/payments`,
      payload: { configurationId: sandbox.json().id },
    });
    expect(sandboxPayment.statusCode, sandboxPayment.body).toBe(201);
    const notFrame = await postTicket(request.requestId, sandboxPayment.json().paymentId, ticket);
    expect(notFrame.statusCode).toBe(409);
    expect(notFrame.json().detail).toBe(
      'This payment does not take card details from a payment frame.',
    );
  });
});
