import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import { paymentAllocations } from '../../db/schema-receivables.js';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import { createReservations } from '../payment-transactions/payment-transactions.reservations.js';
import { createPaymentTransactionsRepository } from '../payment-transactions/payment-transactions.repository.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

// A reservation never counts as paid; staff capture or cancel it from a queue ordered by
// when it lapses; a lapsed one is cancelled by the expiry job; the request is payable again.

let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let accountId: string;
let sandboxId: string;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Reservations Ltd' });
  await makeDemoCompany(ctx, admin);
  accountId = await insertAccount(ctx, admin, { name: 'Reserving Customer Ltd' });
  const provider = await call(admin, 'POST', 'providers', {
    providerName: 'Sandbox',
    name: 'Card (test)',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  sandboxId = provider.json().id;
}, 120_000);
afterAll(() => ctx.close());

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });

/** A Reserve request over one invoice, reserved with the Sandbox's card. */
async function reserved(amount: string) {
  const invoice = await insertInvoice(ctx, admin, accountId, {
    amount,
    transactionDate: day(-3),
    dueDate: day(20),
  });
  const requestId = await insertRequest(
    ctx,
    admin,
    { accountId, captureType: 'Reserve', amountToPay: amount },
    [invoice],
  );
  const started = (
    await pay('POST', `${requestId}/payments`, { configurationId: sandboxId })
  ).json();
  const answer = await pay('POST', `${requestId}/payments/${started.paymentId}/sandbox`, {
    cardholderName: 'Pat Payer',
    cardNumber: sandboxCards.succeeds,
    expiry: '12/30',
    cvc: '123',
  });
  expect(answer.json()).toMatchObject({ status: 'Pending', outcome: 'Reserved' });
  return { invoice, requestId, paymentId: started.paymentId as string };
}

const invoiceOf = async (id: string) => (await call(admin, 'GET', `transactions/${id}`)).json();
const requestOf = async (id: string) => (await call(admin, 'GET', `payment-requests/${id}`)).json();

describe('reservations', () => {
  it('are Provisional and hold the request Pending; the queue lists them by expiry; bulk capture pays the invoice', async () => {
    const first = await reserved('70.00');
    const second = await reserved('30.00');
    // Reserved, not paid: the invoice owes all of it; the request is Pending; the page shows it done.
    expect(await invoiceOf(first.invoice)).toMatchObject({
      allocatedAmount: 0,
      paidStatus: 'Unpaid',
    });
    expect((await requestOf(first.requestId)).requestStatus).toBe('Pending');
    expect((await pay('GET', first.requestId)).json().state).toBe('Completed');
    const [allocation] = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, first.paymentId));
    expect(allocation).toMatchObject({ status: 'Provisional', allocatedAmount: '70.0000' });

    const queue = await call(admin, 'GET', 'payment-transactions/reservations?pageSize=100');
    expect(queue.statusCode, queue.body).toBe(200);
    const items = queue.json().items as { id: string; expiresOn: string; status: string }[];
    const ids = items.map((item) => item.id);
    expect(ids).toEqual(expect.arrayContaining([first.paymentId, second.paymentId]));
    const expiries = items.map((item) => item.expiresOn);
    expect([...expiries].sort()).toEqual(expiries);
    // The Sandbox's authorisation window: 7 days (provider-windows.ts).
    const expiresOn = new Date(items.find((item) => item.id === first.paymentId)!.expiresOn);
    expect(Math.abs(expiresOn.getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(600_000);

    const unknown = randomUUID();
    const captured = await call(admin, 'POST', 'payment-transactions/reservations/capture', {
      ids: [first.paymentId, unknown],
    });
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json().results).toMatchObject([
      {
        id: first.paymentId,
        isError: false,
        paymentTransaction: { status: 'Paid', totalAmount: 70 },
      },
      {
        id: unknown,
        isError: true,
        errorMessage: 'The payment transaction was not found.',
        paymentTransaction: null,
      },
    ]);
    expect(await invoiceOf(first.invoice)).toMatchObject({
      allocatedAmount: 70,
      paidStatus: 'FullyPaid',
    });
    expect((await requestOf(first.requestId)).requestStatus).toBe('Completed');
    const hooks = await ctx.database.db
      .select()
      .from(webHookEvents)
      .where(eq(webHookEvents.recordId, first.paymentId));
    expect(hooks.map((hook) => hook.type)).toContain('payment.captured');
  });

  it('bulk cancel and the expiry job reopen the request: Open and payable again', async () => {
    const cancelled = await reserved('25.00');
    const answer = await call(admin, 'POST', 'payment-transactions/reservations/cancel', {
      ids: [cancelled.paymentId],
      note: 'Customer changed their mind',
    });
    expect(answer.json().results).toMatchObject([
      { id: cancelled.paymentId, isError: false, paymentTransaction: { status: 'Cancelled' } },
    ]);
    expect((await requestOf(cancelled.requestId)).requestStatus).toBe('Open');
    expect((await pay('GET', cancelled.requestId)).json().state).toBe('Open');
    expect(await invoiceOf(cancelled.invoice)).toMatchObject({
      allocatedAmount: 0,
      paidStatus: 'Unpaid',
    });

    const lapsed = await reserved('26.00');
    const reservations = createReservations({
      database: ctx.database,
      repository: createPaymentTransactionsRepository(),
      log: ctx.app.log,
    });
    expect(await reservations.expire(new Date(Date.now() + 86_400_000))).toBe(0);
    expect(await reservations.expire(new Date(Date.now() + 8 * 86_400_000))).toBeGreaterThanOrEqual(
      1,
    );
    const payment = (await call(admin, 'GET', `payment-transactions/${lapsed.paymentId}`)).json();
    expect(payment).toMatchObject({ status: 'Cancelled', allocatedStatus: 'NotApplicable' });
    expect(payment.paymentAllocations).toMatchObject([{ status: 'Cancelled', allocatedAmount: 0 }]);
    expect((await requestOf(lapsed.requestId)).requestStatus).toBe('Open');
    // Payable again.
    const again = await pay('POST', `${lapsed.requestId}/payments`, { configurationId: sandboxId });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('refuses an empty or oversized list with the message', async () => {
    const empty = await call(admin, 'POST', 'payment-transactions/reservations/capture', {
      ids: [],
    });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain('Choose at least one reservation.');
    const many = await call(admin, 'POST', 'payment-transactions/reservations/cancel', {
      ids: Array.from({ length: 101 }, () => randomUUID()),
    });
    expect(many.statusCode).toBe(400);
    expect(JSON.stringify(many.json())).toContain('Choose at most 100 reservations at a time.');
  });
});
