import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import { users, auditActivities } from '../../db/schema.js';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import { paymentTransactions, transactions } from '../../db/schema-receivables.js';
import {
  sandboxNotificationSecret,
  signSandboxNotification,
} from '../../providers/sandbox/sandbox.checkout.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

/*
 * Staff refunds (POST payment-transactions/{id}/refund) through the Sandbox provider,
 * whose refund of an amount ending in .99 is declined and of one ending in .98 stays pending until
 * a signed Sandbox notification finishes it; and refunds the provider reports of its own.
 */

const notificationKey = 'test-sandbox-notification-key-refunds-0123';
let ctx: TestContext;
let admin: SignedIn;
let viewer: SignedIn;
let standard: SignedIn;
let accountId: string;
let sandboxId: string;
let secret: string;

beforeAll(async () => {
  ctx = await buildTestApp({
    SANDBOX_NOTIFICATION_KEY: notificationKey,
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
  });
  admin = await signIn(ctx, { tenantName: 'Refunds Ltd' });
  await makeDemoCompany(ctx, admin);
  viewer = await signIn(ctx, { tenantName: 'Refund Viewer Ltd' });
  await makeDemoCompany(ctx, viewer);
  standard = await signIn(ctx, { tenantName: 'Refund Standard Ltd' });
  await makeDemoCompany(ctx, standard);
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  await ctx.database.db
    .update(users)
    .set({ role: 'Standard' })
    .where(eq(users.id, standard.userId));
  accountId = await insertAccount(ctx, admin);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/providers',
    headers: admin.headers({ 'dataset-id': '1' }),
    payload: {
      providerName: 'Sandbox',
      name: 'Sandbox',
      enabled: true,
      displayPriority: 1,
      isTest: true,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  sandboxId = created.json().id;
  secret = sandboxNotificationSecret(notificationKey, sandboxId)!;
}, 180_000);
afterAll(() => ctx.close());

/** A request for one invoice of `amount`, paid in full on the payer page with the Sandbox card. */
async function paidInvoice(amount: string) {
  const invoice = await insertInvoice(ctx, admin, accountId, {
    amount,
    transactionDate: day(-1),
    dueDate: day(29),
  });
  const requestId = await insertRequest(ctx, admin, { accountId, amountToPay: amount }, [invoice]);
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: { configurationId: sandboxId },
  });
  expect(started.statusCode, started.body).toBe(201);
  const paymentId = started.json().paymentId as string;
  const paid = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments/${paymentId}/sandbox`,
    payload: {
      cardholderName: 'Pat Payer',
      cardNumber: sandboxCards.succeeds,
      expiry: '12/30',
      cvc: '123',
    },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  expect(paid.json().status).toBe('Paid');
  return { invoice, requestId, paymentId };
}

const refund = (
  who: SignedIn,
  paymentId: string,
  payload: object,
  extra: Record<string, string> = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/payment-transactions/${paymentId}/refund`,
    headers: who.headers({ 'dataset-id': '1', ...extra }),
    payload,
  });

const detail = async (paymentId: string) => {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/payment-transactions/${paymentId}`,
    headers: admin.headers({ 'dataset-id': '1' }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

async function invoiceRow(id: string) {
  const [row] = await ctx.database.db.select().from(transactions).where(eq(transactions.id, id));
  return row!;
}
async function requestStatus(id: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/payment-requests/${id}`,
    headers: admin.headers({ 'dataset-id': '1' }),
  });
  return response.json().requestStatus as string;
}
const hooks = (type: string, recordId: string) =>
  ctx.database.db
    .select()
    .from(webHookEvents)
    .where(
      and(
        eq(webHookEvents.tenantId, admin.tenantId),
        eq(webHookEvents.type, type),
        eq(webHookEvents.recordId, recordId),
      ),
    );

function notify(body: object) {
  const raw = JSON.stringify(body);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v0/webhooks/sandbox/${sandboxId}`,
    headers: {
      'content-type': 'application/json',
      'sandbox-signature': signSandboxNotification(secret, raw),
    },
    payload: raw,
  });
}

describe('staff refunds', () => {
  it('refunds part, then the rest: the invoice owes again, the request reopens, the payment ends Refunded', async () => {
    const { invoice, requestId, paymentId } = await paidInvoice('100');
    expect((await invoiceRow(invoice)).paidStatus).toBe('FullyPaid');

    const part = await refund(admin, paymentId, { amount: 30, reason: 'Damaged goods' });
    expect(part.statusCode, part.body).toBe(200);
    const answer = part.json();
    expect(answer).toMatchObject({
      isError: false,
      errorMessage: null,
      paymentTransaction: { id: paymentId, status: 'Paid', refundableAmount: 70 },
      refund: {
        type: 'Refund',
        status: 'Refunded',
        totalAmount: 30,
        refundOfId: paymentId,
        refundReason: 'Damaged goods',
        currency: 'GBP',
      },
    });
    expect(answer.refund.paymentProviderReference).toMatch(/^sbx_refund_/);
    expect(answer.paymentTransaction.refunds).toHaveLength(1);
    const afterPart = await invoiceRow(invoice);
    expect(Number(afterPart.allocatedAmount)).toBe(70);
    expect(afterPart.paidStatus).toBe('PartPaid');
    // A Single request is held by a payment that is still Paid (lifecycle requestStatusOf).
    expect(await requestStatus(requestId)).toBe('Completed');
    expect(await hooks('payment.refunded', paymentId)).toHaveLength(1);

    const rest = await refund(admin, paymentId, { amount: 70 });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({
      isError: false,
      paymentTransaction: { status: 'Refunded', refundableAmount: 0 },
      refund: { status: 'Refunded', totalAmount: 70, refundReason: null },
    });
    const after = await invoiceRow(invoice);
    expect(Number(after.allocatedAmount)).toBe(0);
    expect(after.paidStatus).toBe('Unpaid');
    expect(await requestStatus(requestId)).toBe('Open');
    const shown = await detail(paymentId);
    expect(shown.refunds.map((r: { totalAmount: number }) => r.totalAmount)).toEqual([70, 30]);
    expect(
      shown.paymentAllocations.every((a: { status: string }) => a.status === 'Cancelled'),
    ).toBe(true);
    // The Refund's own page: its amount is what was refunded, and it names its payment.
    const own = await detail(answer.refund.id);
    expect(own).toMatchObject({
      type: 'Refund',
      refundOfId: paymentId,
      totalAmount: 30,
      refundableAmount: 0,
      refunds: [],
    });
    // One activity per refund, as the route's operation.
    const activities = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(
        and(
          eq(auditActivities.tenantId, admin.tenantId),
          eq(auditActivities.operation, 'RefundPayment'),
          eq(auditActivities.resourceId, paymentId),
        ),
      );
    expect(activities).toHaveLength(2);
    expect(activities.every((a) => a.status === 200 && a.errorMessage === null)).toBe(true);
  });

  it('never refunds more than what is left of the payment, and says how much is', async () => {
    const { paymentId } = await paidInvoice('50');
    const over = await refund(admin, paymentId, { amount: 50.01 });
    expect(over.statusCode, over.body).toBe(422);
    expect(over.json().detail).toBe(
      'Amount to refund cannot be more than what is left of the payment (GBP 50.00).',
    );
    expect(over.json().errors.amount).toEqual([
      'Amount to refund cannot be more than what is left of the payment (GBP 50.00).',
    ]);
    expect((await refund(admin, paymentId, { amount: 20 })).statusCode).toBe(200);
    const again = await refund(admin, paymentId, { amount: 30.5 });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.amount).toEqual([
      'Amount to refund cannot be more than what is left of the payment (GBP 30.00).',
    ]);
    const zero = await refund(admin, paymentId, { amount: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().errors.amount).toEqual(['Amount to refund must be more than 0.']);
    const text = await refund(admin, paymentId, { amount: 'ten' });
    expect(text.statusCode).toBe(400);
    expect(text.json().errors.amount).toEqual(['Amount to refund must be a number.']);
    const long = await refund(admin, paymentId, { amount: 1, reason: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.reason).toEqual(['Reason must be at most 500 characters.']);
    expect((await detail(paymentId)).refundableAmount).toBe(30);
  });

  it('refuses a payment that is not paid, and a refund of a refund', async () => {
    const invoice = await insertInvoice(ctx, admin, accountId, {
      amount: '10',
      transactionDate: day(-1),
      dueDate: day(29),
    });
    const requestId = await insertRequest(ctx, admin, { accountId, amountToPay: '10' }, [invoice]);
    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${requestId}/payments`,
      payload: { configurationId: sandboxId },
    });
    const processing = await refund(admin, started.json().paymentId, { amount: 5 });
    expect(processing.statusCode).toBe(409);
    expect(processing.json().detail).toBe('Only a paid payment can be refunded.');

    const { paymentId } = await paidInvoice('10');
    const made = (await refund(admin, paymentId, { amount: 5 })).json();
    const ofRefund = await refund(admin, made.refund.id, { amount: 1 });
    expect(ofRefund.statusCode).toBe(409);
    expect(ofRefund.json().detail).toBe('A refund cannot be refunded.');
    expect((await refund(admin, randomUUID(), { amount: 1 })).statusCode).toBe(404);
  });

  it('a provider that refuses changes nothing and says why', async () => {
    const { invoice, requestId, paymentId } = await paidInvoice('80');
    const before = await detail(paymentId);
    const refused = await refund(admin, paymentId, { amount: 10.99 });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({
      isError: true,
      errorMessage:
        'The sandbox provider declined the refund (amounts ending in .99 are declined).',
      refund: null,
      paymentTransaction: { status: 'Paid', refundableAmount: 80, refunds: [] },
    });
    const after = await detail(paymentId);
    expect(after.paymentAllocations).toEqual(before.paymentAllocations);
    expect(after.status).toBe('Paid');
    expect((await invoiceRow(invoice)).paidStatus).toBe('FullyPaid');
    expect(await requestStatus(requestId)).toBe('Completed');
    expect(await hooks('payment.refunded', paymentId)).toHaveLength(0);
    const refunds = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.refundOfId, paymentId));
    expect(refunds).toHaveLength(0);
    // The provider's words are kept as a provider event, and the activity records the refusal.
    const events = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/provider-events/records/${paymentId}`,
      headers: admin.headers({ 'dataset-id': '1' }),
    });
    expect(events.json().items.at(-1)).toMatchObject({
      eventType: 'refund.create',
      status: 'declined',
    });
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(
        and(
          eq(auditActivities.operation, 'RefundPayment'),
          eq(auditActivities.resourceId, paymentId),
        ),
      );
    expect(activity?.errorMessage).toBe(
      'The sandbox provider declined the refund (amounts ending in .99 are declined).',
    );
  });

  it('is an Administrator’s: a Viewer and a Standard user get 403', async () => {
    const { paymentId } = await paidInvoice('20');
    for (const who of [viewer, standard]) {
      const refused = await refund(who, paymentId, { amount: 1 });
      expect(refused.statusCode).toBe(403);
    }
    expect((await detail(paymentId)).refundableAmount).toBe(20);
  });

  it('honours Idempotency-Key: a retry gets the first answer, another body under the key is a 422', async () => {
    const { paymentId } = await paidInvoice('40');
    const key = { 'idempotency-key': `refund-${randomUUID()}` };
    const first = await refund(admin, paymentId, { amount: 15 }, key);
    expect(first.statusCode).toBe(200);
    const retry = await refund(admin, paymentId, { amount: 15 }, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().refund.id).toBe(first.json().refund.id);
    expect((await detail(paymentId)).refunds).toHaveLength(1);
    const other = await refund(admin, paymentId, { amount: 16 }, key);
    expect(other.statusCode).toBe(422);
    // A refusal is an answer too; a failed check is not kept (the key is free for the retry).
    const overKey = { 'idempotency-key': `refund-${randomUUID()}` };
    expect((await refund(admin, paymentId, { amount: 100 }, overKey)).statusCode).toBe(422);
    expect((await refund(admin, paymentId, { amount: 100 }, overKey)).statusCode).toBe(422);
  });

  it('a refund the provider has not finished stays Processing until its notification', async () => {
    const { invoice, paymentId } = await paidInvoice('60');
    const made = await refund(admin, paymentId, { amount: 10.98 });
    expect(made.json()).toMatchObject({
      isError: false,
      refund: { status: 'Processing', totalAmount: 10.98 },
    });
    const reference = made.json().refund.paymentProviderReference as string;
    // The books give the money back at once; the web hook waits for the provider.
    expect(Number((await invoiceRow(invoice)).allocatedAmount)).toBe(49.02);
    expect(await hooks('payment.refunded', paymentId)).toHaveLength(0);
    expect((await detail(paymentId)).refundableAmount).toBe(49.02);

    const answered = await notify({
      id: `evt_${randomUUID()}`,
      type: 'refund.succeeded',
      data: { paymentId, refund: { reference, amount: '10.98', status: 'Succeeded' } },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    await waitFor(async () => (await detail(paymentId)).refunds[0].status === 'Refunded');
    expect(await hooks('payment.refunded', paymentId)).toHaveLength(1);
    expect(Number((await invoiceRow(invoice)).allocatedAmount)).toBe(49.02);
  });

  it('a refund that fails gives the invoice its money back', async () => {
    const { invoice, requestId, paymentId } = await paidInvoice('25');
    const made = await refund(admin, paymentId, { amount: 25 - 0.02 });
    expect(made.json().refund.status).toBe('Processing');
    expect((await invoiceRow(invoice)).paidStatus).toBe('PartPaid');
    const reference = made.json().refund.paymentProviderReference as string;
    await notify({
      id: `evt_${randomUUID()}`,
      type: 'refund.failed',
      data: { paymentId, refund: { reference, status: 'Failed', reason: 'insufficient_funds' } },
    });
    await waitFor(async () => (await detail(paymentId)).refunds[0].status === 'Failed');
    const shown = await detail(paymentId);
    expect(shown).toMatchObject({ status: 'Paid', refundableAmount: 25 });
    expect((await invoiceRow(invoice)).paidStatus).toBe('FullyPaid');
    expect(await requestStatus(requestId)).toBe('Completed');
    expect(await hooks('payment.refund-failed', paymentId)).toHaveLength(1);
  });

  it('a refund the provider reports of its own is recorded the same way, once', async () => {
    const { invoice, paymentId } = await paidInvoice('90');
    const event = {
      id: `evt_${randomUUID()}`,
      type: 'refund.succeeded',
      data: {
        paymentId,
        refund: {
          reference: 'sbx_refund_portal_1',
          amount: '40',
          status: 'Succeeded',
          reason: 'requested_by_customer',
        },
      },
    };
    await notify(event);
    await notify(event);
    await notify({ ...event, id: `evt_${randomUUID()}` });
    await waitFor(async () => (await detail(paymentId)).refunds.length === 1);
    const shown = await detail(paymentId);
    expect(shown).toMatchObject({ status: 'Paid', refundableAmount: 50 });
    expect(shown.refunds[0]).toMatchObject({
      status: 'Refunded',
      totalAmount: 40,
      paymentProviderReference: 'sbx_refund_portal_1',
      refundReason: 'requested_by_customer',
    });
    expect(Number((await invoiceRow(invoice)).allocatedAmount)).toBe(50);
    expect(await hooks('payment.refunded', paymentId)).toHaveLength(1);
  });
});
