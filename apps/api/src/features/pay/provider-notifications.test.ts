import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { and, eq, inArray } from 'drizzle-orm';
import { providerNotifications } from '../../db/schema-pay.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import { auditActivities } from '../../db/schema.js';
import {
  paymentAllocations,
  paymentRequests,
  paymentTransactions,
  providerEvents,
  transactions,
} from '../../db/schema-receivables.js';
import {
  sandboxNotificationSecret,
  signSandboxNotification,
} from '../../providers/sandbox/sandbox.checkout.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { waitFor } from '../../../test/wait.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';

const notificationKey = 'test-sandbox-notification-key-0123456789';
let ctx: TestContext;
let admin: SignedIn;
let accountId: string;
let sandboxId: string;
let secret: string;

beforeAll(async () => {
  ctx = await buildTestApp({
    SANDBOX_NOTIFICATION_KEY: notificationKey,
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
  });
  admin = await signIn(ctx, { tenantName: 'Notified Ltd' });
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, admin);
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
  sandboxId = created.json().id;
  secret = sandboxNotificationSecret(notificationKey, sandboxId)!;
}, 180_000);
afterAll(() => ctx.close());

/** A payment started on the page for a one-invoice request, still Processing. */
async function startedPayment(amount = '50') {
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
  return { requestId, invoice, paymentId: started.json().paymentId as string };
}

function notify(
  body: object | string,
  signature?: string,
  configurationId = sandboxId,
  provider = 'sandbox',
) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v0/webhooks/${provider}/${configurationId}`,
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined
        ? { 'sandbox-signature': signSandboxNotification(secret, raw) }
        : signature
          ? { 'sandbox-signature': signature }
          : {}),
    },
    payload: raw,
  });
}

const event = (paymentId: string, status: string, id = `evt_${randomUUID()}`) => ({
  id,
  type: `payment.${status.toLowerCase()}`,
  data: { paymentId, status, ...(status === 'Failed' ? { message: 'The bank refused it' } : {}) },
});

async function payment(id: string) {
  const [row] = await ctx.database.db
    .select()
    .from(paymentTransactions)
    .where(eq(paymentTransactions.id, id));
  return row!;
}
const notificationsOf = (eventId: string) =>
  ctx.database.db
    .select()
    .from(providerNotifications)
    .where(eq(providerNotifications.eventId, eventId));
const allocationsOf = (paymentId: string) =>
  ctx.database.db
    .select()
    .from(paymentAllocations)
    .where(
      and(
        eq(paymentAllocations.tenantId, admin.tenantId),
        eq(paymentAllocations.paymentTransactionId, paymentId),
      ),
    );
const processed = async (eventId: string) => {
  const rows = await notificationsOf(eventId);
  return rows.length > 0 && rows.every((row) => row.processedAt !== null) ? rows : undefined;
};

describe('provider notifications', () => {
  it('refuses a missing or wrong signature before reading anything, and changes nothing', async () => {
    const { paymentId } = await startedPayment();
    const body = event(paymentId, 'Paid');
    const raw = JSON.stringify(body);
    const missing = await notify(raw, '');
    expect(missing.statusCode).toBe(401);
    const wrong = await notify(raw, signSandboxNotification('another-secret', raw));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toBe('Invalid signature');
    // Signed for one body, sent with another.
    const tampered = await notify(
      JSON.stringify(event(paymentId, 'Paid', body.id)).replace('Paid', 'Paid '),
      signSandboxNotification(secret, raw),
    );
    expect(tampered.statusCode).toBe(401);
    // Another configuration's secret.
    const otherSecret = sandboxNotificationSecret(notificationKey, randomUUID())!;
    expect((await notify(raw, signSandboxNotification(otherSecret, raw))).statusCode).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await notificationsOf(body.id)).toEqual([]);
    expect((await payment(paymentId)).status).toBe('Processing');
    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, paymentId));
    expect(events.map((e) => e.eventType)).toEqual(['payment.created']);
  });

  it('keeps the raw body whatever its content type, and reads it only once its signature holds', async () => {
    const raw = 'status=Paid&id=evt_form';
    for (const headers of [
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'text/plain; charset=utf-8' },
      {},
    ]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/v0/webhooks/sandbox/${sandboxId}`,
        headers: { ...headers, 'sandbox-signature': signSandboxNotification(secret, raw) },
        payload: raw,
      });
      // Signed, so read: the Sandbox speaks JSON only.
      expect(response.statusCode).toBe(400);
      expect(response.body).toBe('Body is not JSON');
    }
    expect(await notificationsOf('evt_form')).toEqual([]);
  });

  it('answers 404 for an unknown provider or configuration', async () => {
    expect((await notify(event(randomUUID(), 'Paid'), undefined, randomUUID())).statusCode).toBe(
      404,
    );
    expect((await notify(event(randomUUID(), 'Paid'), undefined, 'not-an-id')).statusCode).toBe(
      404,
    );
    expect(
      (await notify(event(randomUUID(), 'Paid'), undefined, sandboxId, 'nosuchprovider'))
        .statusCode,
    ).toBe(404);
  });

  it('never stores an event under a configuration that changed or went since the last delivery to it (the intake remembers configurations)', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/providers',
      headers: admin.headers({ 'dataset-id': '1' }),
      payload: {
        providerName: 'Sandbox',
        name: 'Sandbox soon gone',
        enabled: true,
        displayPriority: 2,
        isTest: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const send = (body: object) => {
      const raw = JSON.stringify(body);
      return ctx.app.inject({
        method: 'POST',
        url: `/api/v0/webhooks/sandbox/${id}`,
        headers: {
          'content-type': 'application/json',
          'sandbox-signature': signSandboxNotification(
            sandboxNotificationSecret(notificationKey, id)!,
            raw,
          ),
        },
        payload: raw,
      });
    };
    const first = event(randomUUID(), 'Paid');
    expect((await send(first)).statusCode).toBe(200);
    // Changed behind the intake's back (another process): the next event is still stored, under
    // the configuration as it is now.
    await ctx.database.db
      .update(paymentProviders)
      .set({ settings: { changed: true } })
      .where(eq(paymentProviders.id, id));
    const second = event(randomUUID(), 'Paid');
    expect((await send(second)).statusCode).toBe(200);
    expect(await notificationsOf(second.id)).toMatchObject([{ configurationId: id }]);
    // Gone: the next delivery is not known, and nothing of it is kept.
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v0/providers/${id}`,
      headers: admin.headers({ 'dataset-id': '1' }),
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const third = event(randomUUID(), 'Paid');
    expect((await send(third)).statusCode).toBe(404);
    expect(await notificationsOf(third.id)).toEqual([]);
  });

  it('settles a signed Paid event through the completion path, once, even when delivered twice', async () => {
    const { paymentId, invoice, requestId } = await startedPayment('64');
    const paid = event(paymentId, 'Paid');
    const first = await notify(paid);
    expect(first.statusCode).toBe(200);
    const again = await notify(paid);
    expect(again.statusCode).toBe(200);
    await waitFor(() => processed(paid.id));
    expect(await notificationsOf(paid.id)).toHaveLength(1);
    const settled = await payment(paymentId);
    expect(settled).toMatchObject({ status: 'Paid', allocatedStatus: 'AutoAllocated' });
    expect(await allocationsOf(paymentId)).toHaveLength(1);
    const [row] = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, invoice));
    expect(row).toMatchObject({ paidStatus: 'FullyPaid', allocatedAmount: '64.0000' });
    const [request] = await ctx.database.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.id, requestId));
    expect(request!.requestStatus).toBe('Completed');
    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, paymentId));
    expect(
      events.filter((e) => e.recordType === 'notification').map((e) => [e.recordId, e.eventType]),
    ).toEqual([[paid.id, 'payment.paid']]);
    // A replay after it was processed changes nothing either.
    expect((await notify(paid)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await allocationsOf(paymentId)).toHaveLength(1);
    // The page's poll shows the outcome.
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${requestId}/payments/${paymentId}`,
    });
    expect(status.json()).toMatchObject({ status: 'Paid', outcome: 'Succeeded' });
  });

  it('two events out of order leave one correct result: Paid stays Paid', async () => {
    const { paymentId } = await startedPayment('33');
    const later = event(paymentId, 'Paid');
    await notify(later);
    await waitFor(() => processed(later.id));
    const earlier = event(paymentId, 'Failed');
    await notify(earlier);
    const [row] = await waitFor(() => processed(earlier.id));
    expect(row!.outcome).toBe('Status stays Paid (Failed does not move it forward)');
    expect((await payment(paymentId)).status).toBe('Paid');
    expect(await allocationsOf(paymentId)).toHaveLength(1);

    // Reserved, then captured: Pending moves on to Paid; a late Pending does not move it back.
    const reserved = await startedPayment('21');
    const pendingEvent = event(reserved.paymentId, 'Pending');
    const capturedEvent = event(reserved.paymentId, 'Paid');
    await notify(capturedEvent);
    await notify(pendingEvent);
    await waitFor(() => processed(pendingEvent.id));
    await waitFor(() => processed(capturedEvent.id));
    expect((await payment(reserved.paymentId)).status).toBe('Paid');
    expect(await allocationsOf(reserved.paymentId)).toHaveLength(1);
  });

  it('settles a backlog in batches: a duplicate and an out-of-order pair inside leave one correct result', async () => {
    const a = await startedPayment('15');
    const b = await startedPayment('16');
    const c = await startedPayment('17');
    // A backlog as the intake stores it (one statement, so no drain sees part of it), oldest
    // first: A paid then a late failure; B's capture before its reservation; C paid.
    const backlog = [
      event(a.paymentId, 'Paid'),
      event(b.paymentId, 'Paid'),
      event(a.paymentId, 'Failed'),
      event(b.paymentId, 'Pending'),
    ];
    const start = Date.now() - 60_000;
    await ctx.database.db.insert(providerNotifications).values(
      backlog.map((body, i) => ({
        tenantId: admin.tenantId,
        datasetId: 1,
        id: uuidv7(),
        providerName: 'Sandbox',
        eventId: body.id,
        configurationId: sandboxId,
        eventType: body.type,
        summary: {
          paymentTransactionId: body.data.paymentId,
          providerReference: null,
          status: body.data.status,
          errorMessage: body.data.message ?? null,
        },
        payload: JSON.stringify(body),
        receivedAt: new Date(start + i * 1000),
      })),
    );
    // A new notification starts the drain, which takes the whole backlog; a duplicate of a stored
    // one changes nothing.
    const paidC = event(c.paymentId, 'Paid');
    expect((await notify(paidC)).statusCode).toBe(200);
    expect((await notify(backlog[0]!)).statusCode).toBe(200);
    for (const body of [...backlog, paidC]) await waitFor(() => processed(body.id));

    for (const { paymentId } of [a, b, c]) {
      expect(await payment(paymentId)).toMatchObject({
        status: 'Paid',
        allocatedStatus: 'AutoAllocated',
      });
      expect(await allocationsOf(paymentId)).toHaveLength(1);
    }
    const [aFailed] = await notificationsOf(backlog[2]!.id);
    expect(aFailed!.outcome).toBe('Status stays Paid (Failed does not move it forward)');
    const [bPending] = await notificationsOf(backlog[3]!.id);
    expect(bPending!.outcome).toBe('Status stays Paid (Pending does not move it forward)');
    // One payment's events were settled in one transaction (now() is the transaction's start).
    const [aPaid] = await notificationsOf(backlog[0]!.id);
    expect(aPaid!.processedAt).toEqual(aFailed!.processedAt);
    for (const { paymentId, requestId } of [a, b, c]) {
      const kept = await ctx.database.db
        .select()
        .from(providerEvents)
        .where(eq(providerEvents.paymentTransactionId, paymentId));
      expect(kept.filter((e) => e.recordType === 'notification')).toHaveLength(
        paymentId === c.paymentId ? 1 : 2,
      );
      const [request] = await ctx.database.db
        .select()
        .from(paymentRequests)
        .where(eq(paymentRequests.id, requestId));
      expect(request!.requestStatus).toBe('Completed');
      // The web hook events written in the batch say what the payment's own page says.
      const events = await ctx.database.db
        .select()
        .from(webHookEvents)
        .where(inArray(webHookEvents.recordId, [paymentId, requestId]))
        .orderBy(webHookEvents.seq);
      expect(events.map((e) => e.type)).toEqual(['payment.succeeded', 'payment-request.completed']);
      const detail = await ctx.app.inject({
        method: 'GET',
        url: `/api/v0/payment-transactions/${paymentId}`,
        headers: admin.headers({ 'dataset-id': '1' }),
      });
      expect(detail.statusCode).toBe(200);
      expect(events[0]!.payload).toEqual(JSON.parse(JSON.stringify(detail.json())));
      const requestDetail = await ctx.app.inject({
        method: 'GET',
        url: `/api/v0/payment-requests/${requestId}`,
        headers: admin.headers({ 'dataset-id': '1' }),
      });
      expect(requestDetail.json()).toMatchObject({ id: requestId, requestStatus: 'Completed' });
      expect(events[1]!.payload).toEqual(JSON.parse(JSON.stringify(requestDetail.json())));
    }
  });

  it('settles a backlog giving money back in one transaction, each payment in order; a bad one holds up only its own payment', async () => {
    const a = await startedPayment('21');
    const b = await startedPayment('22');
    const c = await startedPayment('23');
    const summary = (paymentId: string, status: string, extra: Record<string, unknown> = {}) => ({
      paymentTransactionId: paymentId,
      providerReference: null,
      status,
      errorMessage: null,
      ...extra,
    });
    // As the intake stores them, oldest first: A paid then part refunded; B paid, disputed and
    // the dispute lost; C paid, then a refund whose amount is not a number (a bad notification).
    const backlog = [
      { id: `evt_${randomUUID()}`, type: 'payment.paid', summary: summary(a.paymentId, 'Paid') },
      { id: `evt_${randomUUID()}`, type: 'payment.paid', summary: summary(b.paymentId, 'Paid') },
      { id: `evt_${randomUUID()}`, type: 'payment.paid', summary: summary(c.paymentId, 'Paid') },
      {
        id: `evt_${randomUUID()}`,
        type: 'refund.succeeded',
        summary: summary(a.paymentId, 'Paid', {
          refund: {
            refundReference: 'sbx_refund_backlog_a',
            amount: '5.00',
            status: 'Succeeded',
            reason: null,
          },
        }),
      },
      {
        id: `evt_${randomUUID()}`,
        type: 'dispute.opened',
        summary: summary(b.paymentId, 'Paid', {
          dispute: {
            disputeReference: 'sbx_dispute_backlog_b',
            stage: 'Opened',
            amount: null,
            reason: 'fraudulent',
            respondBy: null,
          },
        }),
      },
      {
        id: `evt_${randomUUID()}`,
        type: 'refund.succeeded',
        summary: summary(c.paymentId, 'Paid', {
          refund: {
            refundReference: 'sbx_refund_backlog_c',
            amount: 'lots',
            status: 'Succeeded',
            reason: null,
          },
        }),
      },
      {
        id: `evt_${randomUUID()}`,
        type: 'dispute.lost',
        summary: summary(b.paymentId, 'Paid', {
          dispute: {
            disputeReference: 'sbx_dispute_backlog_b',
            stage: 'Lost',
            amount: null,
            reason: 'fraudulent',
            respondBy: null,
          },
        }),
      },
    ];
    const start = Date.now() - 60_000;
    await ctx.database.db.insert(providerNotifications).values(
      backlog.map((row, i) => ({
        tenantId: admin.tenantId,
        datasetId: 1,
        id: uuidv7(),
        providerName: 'Sandbox',
        eventId: row.id,
        configurationId: sandboxId,
        eventType: row.type,
        summary: row.summary,
        payload: JSON.stringify({ id: row.id }),
        receivedAt: new Date(start + i * 1000),
      })),
    );
    // A new notification (of another payment) starts the drain, which takes the whole backlog.
    const d = await startedPayment('24');
    const paidD = event(d.paymentId, 'Paid');
    expect((await notify(paidD)).statusCode).toBe(200);
    for (const row of backlog.filter((_, i) => i !== 5)) await waitFor(() => processed(row.id));
    await waitFor(() => processed(paidD.id));

    expect(await payment(a.paymentId)).toMatchObject({ status: 'Paid' });
    const [aRefund] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.refundOfId, a.paymentId));
    expect(aRefund).toMatchObject({ type: 'Refund', status: 'Refunded', totalAmount: '5.0000' });
    const [aHeld] = await allocationsOf(a.paymentId);
    expect(aHeld).toMatchObject({ allocatedAmount: '16.0000', reversedAmount: '5.0000' });
    expect(await payment(b.paymentId)).toMatchObject({ status: 'Disputed' });
    const [bHeld] = await allocationsOf(b.paymentId);
    expect(bHeld).toMatchObject({
      status: 'Cancelled',
      allocatedAmount: '0.0000',
      reversedAmount: '22.0000',
    });
    // Each payment's events, the money going back with its Paid, were settled in one transaction
    // (now() is its start); on PGlite (one worker) A's and B's in the same one too. On PostgreSQL
    // the drain spreads the payments over its workers, each group a transaction of its own.
    const [aPaid] = await notificationsOf(backlog[0]!.id);
    const [aRefunded] = await notificationsOf(backlog[3]!.id);
    const [bPaid] = await notificationsOf(backlog[1]!.id);
    const [bLost] = await notificationsOf(backlog[6]!.id);
    expect(aRefunded!.processedAt).toEqual(aPaid!.processedAt);
    expect(bLost!.processedAt).toEqual(bPaid!.processedAt);
    if (ctx.database.kind === 'pglite') expect(aRefunded!.processedAt).toEqual(bLost!.processedAt);
    expect(bLost!.outcome).toBe('Dispute sbx_dispute_backlog_b Lost: 22.00 reversed');
    // C's bad refund failed alone: C's Paid before it is settled, the refund is not, nothing of it kept.
    expect(await payment(c.paymentId)).toMatchObject({ status: 'Paid' });
    const [cRefund] = await notificationsOf(backlog[5]!.id);
    expect(cRefund!.processedAt).toBeNull();
    expect(
      await ctx.database.db
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.refundOfId, c.paymentId)),
    ).toEqual([]);
    const [cHeld] = await allocationsOf(c.paymentId);
    expect(cHeld).toMatchObject({ status: 'Allocated', allocatedAmount: '23.0000' });
    // The web hook events of the moves: each payment's in the order of its moves, each payload
    // the payment as its own move left it (the group reads them together: at its end, or before
    // the payment moves again), the last one what the payment's page says now; none of C's refund.
    const eventsOf = (paymentId: string) =>
      ctx.database.db
        .select()
        .from(webHookEvents)
        .where(eq(webHookEvents.recordId, paymentId))
        .orderBy(webHookEvents.seq);
    const pageOf = async (paymentId: string) =>
      JSON.parse(
        (
          await ctx.app.inject({
            method: 'GET',
            url: `/api/v0/payment-transactions/${paymentId}`,
            headers: admin.headers({ 'dataset-id': '1' }),
          })
        ).body,
      ) as unknown;
    const aEvents = await eventsOf(a.paymentId);
    expect(aEvents.map((e) => e.type)).toEqual(['payment.succeeded', 'payment.refunded']);
    expect(aEvents[1]!.payload).toMatchObject({
      status: 'Paid',
      refunds: [{ totalAmount: 5 }],
      paymentAllocations: [{ status: 'Allocated', allocatedAmount: 16 }],
    });
    expect(aEvents[1]!.payload).toEqual(await pageOf(a.paymentId));
    const bEvents = await eventsOf(b.paymentId);
    expect(bEvents.map((e) => e.type)).toEqual([
      'payment.succeeded',
      'payment.disputed',
      'payment.dispute-lost',
    ]);
    expect(bEvents[1]!.payload).toMatchObject({
      status: 'Disputed',
      disputes: [{ stage: 'Opened' }],
      paymentAllocations: [{ status: 'Allocated', allocatedAmount: 22 }],
    });
    expect(bEvents[2]!.payload).toMatchObject({
      status: 'Disputed',
      disputes: [{ stage: 'Lost' }],
      paymentAllocations: [{ status: 'Cancelled', allocatedAmount: 0 }],
    });
    expect(bEvents[2]!.payload).toEqual(await pageOf(b.paymentId));
    expect((await eventsOf(c.paymentId)).map((e) => e.type)).toEqual(['payment.succeeded']);
  });

  it('a failure event fails the payment with its message and leaves the request open', async () => {
    const { paymentId, requestId } = await startedPayment('12');
    const failed = event(paymentId, 'Failed');
    await notify(failed);
    await waitFor(() => processed(failed.id));
    expect(await payment(paymentId)).toMatchObject({
      status: 'Failed',
      allocatedStatus: 'NotApplicable',
    });
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/pay/${requestId}/payments/${paymentId}`,
    });
    expect(status.json()).toMatchObject({ outcome: 'Failed', message: 'The bank refused it' });
    const [request] = await ctx.database.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.id, requestId));
    expect(request!.requestStatus).toBe('Open');
  });

  it('refuses a move whose amount or currency differs from the payment: event and activity kept, payment unchanged', async () => {
    const wrongAmount = await startedPayment('44');
    const wrongCurrency = await startedPayment('45');
    // As the intake stores a provider's event that carries its amount and currency.
    const stored = [
      { paymentId: wrongAmount.paymentId, amount: '4.40', currency: 'GBP' },
      { paymentId: wrongCurrency.paymentId, amount: '45.00', currency: 'EUR' },
    ].map(({ paymentId, amount, currency }) => ({
      body: event(paymentId, 'Paid'),
      amount,
      currency,
    }));
    await ctx.database.db.insert(providerNotifications).values(
      stored.map(({ body, amount, currency }) => ({
        tenantId: admin.tenantId,
        datasetId: 1,
        id: uuidv7(),
        providerName: 'Sandbox',
        eventId: body.id,
        configurationId: sandboxId,
        eventType: body.type,
        summary: {
          paymentTransactionId: body.data.paymentId,
          providerReference: null,
          status: 'Paid',
          errorMessage: null,
          amount,
          currency,
        },
        payload: JSON.stringify(body),
      })),
    );
    // Any new notification starts the drain, which takes the stored ones.
    const nudge = await startedPayment('46');
    await notify(event(nudge.paymentId, 'Paid'));
    for (const { body } of stored) await waitFor(() => processed(body.id));
    const [amountRow] = await notificationsOf(stored[0]!.body.id);
    expect(amountRow!.outcome).toBe(
      'The provider reported 4.40 GBP, but the payment is for 44.00 GBP: the payment is left unchanged.',
    );
    const [currencyRow] = await notificationsOf(stored[1]!.body.id);
    expect(currencyRow!.outcome).toBe(
      'The provider reported EUR, but the payment is in GBP: the payment is left unchanged.',
    );
    for (const { paymentId, requestId } of [wrongAmount, wrongCurrency]) {
      expect((await payment(paymentId)).status).toBe('Processing');
      expect(await allocationsOf(paymentId)).toHaveLength(0);
      const kept = await ctx.database.db
        .select()
        .from(providerEvents)
        .where(eq(providerEvents.paymentTransactionId, paymentId));
      expect(kept.filter((e) => e.recordType === 'notification')).toHaveLength(1);
      const activities = await ctx.database.db
        .select()
        .from(auditActivities)
        .where(eq(auditActivities.resourceId, paymentId));
      expect(activities.map((a) => [a.operation, a.status])).toContainEqual([
        'ChangePaymentStatus',
        409,
      ]);
      const [request] = await ctx.database.db
        .select()
        .from(paymentRequests)
        .where(eq(paymentRequests.id, requestId));
      expect(request!.requestStatus).toBe('Open');
    }
  });

  it("never moves another configuration's or another tenant's payment", async () => {
    const rival = await signIn(ctx, { tenantName: 'Rival Notified Ltd' });
    // The Sandbox test provider belongs to demo companies.
    await makeDemoCompany(ctx, rival);
    const rivalAccount = await insertAccount(ctx, rival);
    const rivalProvider = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/providers',
        headers: rival.headers({ 'dataset-id': '1' }),
        payload: {
          providerName: 'Sandbox',
          name: 'Rival sandbox',
          enabled: true,
          displayPriority: 1,
          isTest: true,
        },
      })
    ).json().id as string;
    const rivalRequest = await insertRequest(ctx, rival, {
      accountId: rivalAccount,
      amountToPay: '9',
    });
    const rivalPayment = (
      await ctx.app.inject({
        method: 'POST',
        url: `/api/v0/pay/${rivalRequest}/payments`,
        payload: { configurationId: rivalProvider },
      })
    ).json().paymentId as string;
    // Our configuration, signed with our secret, naming their payment.
    const sneaky = event(rivalPayment, 'Paid');
    expect((await notify(sneaky)).statusCode).toBe(200);
    const [row] = await waitFor(() => processed(sneaky.id));
    expect(row!.outcome).toBe('No payment of this configuration matches it');
    expect((await payment(rivalPayment)).status).toBe('Processing');
  });
});
