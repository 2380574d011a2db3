import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { auditActivities, users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
const size = { accounts: 6, transactions: 10, paymentRequests: 4, paymentTransactions: 120, banks: 1 };

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Capturer Ltd' });
  rival = await signIn(ctx, { tenantName: 'Other Capturer Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) => generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size));
  }
});
afterAll(() => ctx.close());

async function pendingPayments(who: SignedIn) {
  return ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .select()
      .from(paymentTransactions)
      .where(and(eq(paymentTransactions.tenantId, who.tenantId), eq(paymentTransactions.status, 'Pending')))
      .orderBy(paymentTransactions.id),
  );
}

const act = (who: SignedIn, id: string, action: 'capture' | 'cancel', payload: object, datasetId = '1') =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/payment-transactions/${id}/pending/${action}`,
    headers: who.headers({ 'dataset-id': datasetId }),
    payload,
  });

describe('capturing and cancelling pending payments', () => {
  it('captures part of a pending payment through the sandbox provider and keeps the exchange', async () => {
    const [payment] = await pendingPayments(merchant);
    expect(payment!.paymentProviderName).toBe('Sandbox');
    expect(Number(payment!.totalAmount)).toBeGreaterThan(10);
    const response = await act(merchant, payment!.id, 'capture', { amountToCapture: 10.5, note: ' Part shipped ' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ isError: false, errorMessage: null, paymentTransaction: { id: payment!.id, status: 'Paid' } });
    expect(body.paymentTransaction.totalAmount).toBe(10.5);
    const events = (await ctx.app.inject({ method: 'GET', url: `/api/v0/provider-events/records/${payment!.id}`, headers: merchant.headers({ 'dataset-id': '1' }) })).json();
    // The demo payment's authorisation, then the capture (demo payments have their events).
    expect(events.items).toHaveLength(2);
    expect(events.items[0]).toMatchObject({ providerName: 'Sandbox', eventType: 'payment.authorised', status: 'requires_capture' });
    expect(events.items[1]).toMatchObject({ providerName: 'Sandbox', eventType: 'payment.capture', status: 'succeeded' });
    const payload = await ctx.app.inject({ method: 'GET', url: `/api/v0/provider-events/payloads?id=${events.items[1].id}`, headers: merchant.headers({ 'dataset-id': '1' }) });
    expect(payload.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(JSON.parse(payload.body).request.note).toBe('Part shipped');
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'CapturePendingPayment'), eq(auditActivities.resourceId, payment!.id)));
    expect(activity).toMatchObject({ status: 200, userId: merchant.userId });
  });

  it('answers isError when the provider declines, and leaves the payment pending', async () => {
    const [, payment] = await pendingPayments(merchant);
    const response = await act(merchant, payment!.id, 'capture', { amountToCapture: 0.99 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      isError: true,
      errorMessage: 'The sandbox provider declined the capture (amounts ending in .99 are declined).',
      paymentTransaction: { status: 'Pending' },
    });
  });

  it('cancels a pending payment', async () => {
    const [, payment] = await pendingPayments(merchant);
    const response = await act(merchant, payment!.id, 'cancel', { note: 'Customer changed their mind' });
    expect(response.json()).toMatchObject({ isError: false, paymentTransaction: { status: 'Cancelled' } });
  });

  it('answers isError for a provider Ledgerline cannot act through yet', async () => {
    const [payment] = await pendingPayments(merchant);
    await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.update(paymentTransactions).set({ paymentProviderName: 'GoCardless' }).where(eq(paymentTransactions.id, payment!.id)),
    );
    const response = await act(merchant, payment!.id, 'cancel', {});
    expect(response.json()).toMatchObject({ isError: true, paymentTransaction: { status: 'Pending' } });
    expect(response.json().errorMessage).toContain('GoCardless');
  });

  it.each([
    [{ amountToCapture: 0 }, 'Amount to capture must be more than 0.'],
    [{ amountToCapture: 'ten' }, 'Amount to capture must be a number.'],
    [{ amountToCapture: 1, note: 'n'.repeat(501) }, 'Note must be at most 500 characters.'],
  ])('refuses %j with the message', async (payload, message) => {
    const [payment] = await pendingPayments(merchant);
    const response = await act(merchant, payment!.id, 'capture', payload);
    expect(response.statusCode).toBe(400);
    expect(Object.values(response.json().errors).flat()).toContain(message);
  });

  it('refuses to capture more than was authorised, and anything that is not pending', async () => {
    const [payment] = await pendingPayments(merchant);
    const tooMuch = await act(merchant, payment!.id, 'capture', { amountToCapture: Number(payment!.totalAmount) + 1 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors.amountToCapture).toEqual(['Amount to capture cannot be more than the amount authorised.']);
    const [paid] = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select().from(paymentTransactions).where(and(eq(paymentTransactions.tenantId, merchant.tenantId), eq(paymentTransactions.status, 'Paid'))).limit(1),
    );
    const notPending = await act(merchant, paid!.id, 'cancel', {});
    expect(notPending.statusCode).toBe(409);
    expect(notPending.json().detail).toBe('Only a pending payment can be captured or cancelled.');
  });

  it('needs CapturePendingPayment and CancelPendingPayment', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Capture Viewer Ltd' });
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    await ctx.database.withTenant(viewer.tenantId, (tx) => generateReceivables(tx, { tenantId: viewer.tenantId, datasetId: 1 }, size));
    const [payment] = await pendingPayments(viewer);
    expect((await act(viewer, payment!.id, 'capture', { amountToCapture: 1 })).statusCode).toBe(403);
    expect((await act(viewer, payment!.id, 'cancel', {})).statusCode).toBe(403);
    expect((await pendingPayments(viewer)).map((row) => row.id)).toContain(payment!.id);
  });

  it('never touches or shows another tenant’s payment or its events', async () => {
    const [theirs] = await pendingPayments(rival);
    expect((await act(merchant, theirs!.id, 'cancel', {})).statusCode).toBe(404);
    expect((await act(merchant, theirs!.id, 'capture', { amountToCapture: 1 })).statusCode).toBe(404);
    await act(rival, theirs!.id, 'cancel', {});
    const events = await ctx.app.inject({ method: 'GET', url: `/api/v0/provider-events/records/${theirs!.id}`, headers: merchant.headers({ 'dataset-id': '1' }) });
    expect(events.statusCode).toBe(404);
    const theirEvents = (await ctx.app.inject({ method: 'GET', url: `/api/v0/provider-events/records/${theirs!.id}`, headers: rival.headers({ 'dataset-id': '1' }) })).json();
    const payload = await ctx.app.inject({ method: 'GET', url: `/api/v0/provider-events/payloads?id=${theirEvents.items[0].id}`, headers: merchant.headers({ 'dataset-id': '1' }) });
    expect(payload.statusCode).toBe(404);
  });
});
