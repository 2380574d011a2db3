import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import { transactions } from '../../db/schema-receivables.js';
import { providerNotifications } from '../../db/schema-pay.js';
import {
  sandboxNotificationSecret,
  signSandboxNotification,
} from '../../providers/sandbox/sandbox.checkout.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';
import { day, insertAccount, insertInvoice, insertRequest, mailsIn } from '../../../test/fixtures/pay.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

/*
 * Disputes, chargebacks and late failures from signed Sandbox notifications
 * (`data.dispute`, `data.lateFailure`), through the payment lifecycle; GET disputes.
 */

const notificationKey = 'test-sandbox-notification-key-disputes-01';
let ctx: TestContext;
let admin: SignedIn;
let accountId: string;
let sandboxId: string;
let secret: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-disputes-'));
const outbox = join(dataDir, 'mail');

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: admin.headers({ 'dataset-id': '1' }),
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  ctx = await buildTestApp({
    DATA_DIR: dataDir,
    SANDBOX_NOTIFICATION_KEY: notificationKey,
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
  });
  admin = await signIn(ctx, { tenantName: 'Disputes Ltd' });
  await makeDemoCompany(ctx, admin);
  accountId = await insertAccount(ctx, admin);
  const created = await call('POST', 'providers', {
    providerName: 'Sandbox',
    name: 'Sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  expect(created.statusCode, created.body).toBe(201);
  sandboxId = created.json().id;
  secret = sandboxNotificationSecret(notificationKey, sandboxId)!;
  const recipient = await call('POST', 'notifications/users', {
    type: 'EmailAddress',
    emailAddress: 'ops@disputes.example',
  });
  const set = await call('PUT', 'notifications/users', {
    id: recipient.json().id,
    notificationSettings: [
      { notificationName: 'TenantPaymentDisputed', isEnabled: true },
      { notificationName: 'TenantPaymentFailed', isEnabled: true },
    ],
  });
  expect(set.statusCode, set.body).toBe(200);
}, 180_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

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
  expect(paid.json().status).toBe('Paid');
  return { invoice, requestId, paymentId };
}

async function notify(data: object) {
  const raw = JSON.stringify({ id: `evt_${randomUUID()}`, type: 'dispute.updated', data });
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/webhooks/sandbox/${sandboxId}`,
    headers: {
      'content-type': 'application/json',
      'sandbox-signature': signSandboxNotification(secret, raw),
    },
    payload: raw,
  });
  expect(response.statusCode, response.body).toBe(200);
}

const detail = async (id: string) => (await call('GET', `payment-transactions/${id}`)).json();
const invoiceRow = async (id: string) =>
  (await ctx.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
const requestStatus = async (id: string) =>
  (await call('GET', `payment-requests/${id}`)).json().requestStatus as string;
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

describe('disputes', () => {
  it('opened holds the payment Disputed; lost gives the money back; won restores it and the payment is Paid again', async () => {
    const { invoice, requestId, paymentId } = await paidInvoice('120');
    const respondBy = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await notify({
      paymentId,
      dispute: {
        reference: 'dp_1',
        stage: 'Opened',
        amount: '120',
        currency: 'GBP',
        reason: 'fraudulent',
        respondBy,
      },
    });
    await waitFor(async () => (await detail(paymentId)).status === 'Disputed');
    let shown = await detail(paymentId);
    expect(shown.disputes).toEqual([
      expect.objectContaining({
        disputeReference: 'dp_1',
        stage: 'Opened',
        amount: 120,
        currency: 'GBP',
        reason: 'fraudulent',
        respondBy,
        closedOn: null,
      }),
    ]);
    // Opened holds the books as they are; the payment cannot be refunded meanwhile.
    expect((await invoiceRow(invoice)).paidStatus).toBe('FullyPaid');
    expect(shown.refundableAmount).toBe(0);
    expect(await hooks('payment.disputed', paymentId)).toHaveLength(1);
    const opened = await waitFor(async () => {
      const found = mailsIn(outbox).filter(
        (mail) =>
          mail.includes(shown.ledgerlineReference) && mail.includes('Subject: Payment disputed'),
      );
      return found.length > 0 ? found : undefined;
    });
    expect(opened[0]).toContain('To: ops@disputes.example');

    await notify({ paymentId, dispute: { reference: 'dp_1', stage: 'UnderReview' } });
    await waitFor(async () => (await detail(paymentId)).disputes[0].stage === 'UnderReview');
    expect((await detail(paymentId)).status).toBe('Disputed');

    await notify({ paymentId, dispute: { reference: 'dp_1', stage: 'Lost', amount: '120' } });
    await waitFor(async () => (await detail(paymentId)).disputes[0].stage === 'Lost');
    shown = await detail(paymentId);
    expect(shown.status).toBe('Disputed');
    expect(shown.disputes[0].closedOn).not.toBeNull();
    expect((await invoiceRow(invoice)).paidStatus).toBe('Unpaid');
    expect(await requestStatus(requestId)).toBe('Open');
    expect(await hooks('payment.dispute-lost', paymentId)).toHaveLength(1);
    await waitFor(async () =>
      mailsIn(outbox).some(
        (mail) =>
          mail.includes(shown.ledgerlineReference) && mail.includes('Subject: Dispute lost'),
      ),
    );

    await notify({ paymentId, dispute: { reference: 'dp_1', stage: 'Won' } });
    await waitFor(async () => (await detail(paymentId)).status === 'Paid');
    expect((await invoiceRow(invoice)).paidStatus).toBe('FullyPaid');
    expect(await requestStatus(requestId)).toBe('Completed');
    expect(await hooks('payment.dispute-won', paymentId)).toHaveLength(1);
  });

  it('a chargeback for part of a payment reverses that part only', async () => {
    const { invoice, paymentId } = await paidInvoice('200');
    await notify({
      paymentId,
      dispute: { reference: 'cb_part', stage: 'Lost', amount: '50', reason: 'charged_back' },
    });
    await waitFor(async () => (await detail(paymentId)).status === 'Disputed');
    const row = await invoiceRow(invoice);
    expect(Number(row.allocatedAmount)).toBe(150);
    expect(row.paidStatus).toBe('PartPaid');
  });

  it('a dispute won before it was lost only gives the payment back its Paid status', async () => {
    const { invoice, paymentId } = await paidInvoice('30');
    await notify({
      paymentId,
      dispute: { reference: 'dp_won', stage: 'Opened', reason: 'product_not_received' },
    });
    await waitFor(async () => (await detail(paymentId)).status === 'Disputed');
    await notify({ paymentId, dispute: { reference: 'dp_won', stage: 'Won' } });
    await waitFor(async () => (await detail(paymentId)).status === 'Paid');
    expect(Number((await invoiceRow(invoice)).allocatedAmount)).toBe(30);
  });

  it('an Opened delivered after the dispute was lost is an old event: the dispute stays Lost, its money given back', async () => {
    const { invoice, requestId, paymentId } = await paidInvoice('80');
    await notify({ paymentId, dispute: { reference: 'dp_late', stage: 'Lost', amount: '80' } });
    await waitFor(async () => (await detail(paymentId)).disputes[0]?.stage === 'Lost');
    await notify({ paymentId, dispute: { reference: 'dp_late', stage: 'Opened', amount: '80' } });
    const outcome = await waitFor(async () => {
      const [row] = await ctx.database.db
        .select({ outcome: providerNotifications.outcome })
        .from(providerNotifications)
        .where(like(providerNotifications.payload, '%dp_late%Opened%'));
      return row?.outcome ?? undefined;
    });
    expect(outcome).toBe('Dispute dp_late stays Lost: Opened is an earlier event delivered late');
    const shown = await detail(paymentId);
    expect(shown.status).toBe('Disputed');
    expect(shown.disputes).toEqual([
      expect.objectContaining({ stage: 'Lost', closedOn: expect.any(String) }),
    ]);
    expect((await invoiceRow(invoice)).paidStatus).toBe('Unpaid');
    expect(await requestStatus(requestId)).toBe('Open');
  });

  it('lists disputes newest first, filtered by stage', async () => {
    const all = await call('GET', 'disputes?itemsPerPage=100');
    expect(all.statusCode, all.body).toBe(200);
    const items = all.json().items as {
      openedOn: string;
      stage: string;
      paymentTransaction: { id: string };
    }[];
    expect(items.length).toBe(all.json().totalItems);
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect([...items].sort((a, b) => b.openedOn.localeCompare(a.openedOn))).toEqual(items);
    expect(items[0]!.paymentTransaction.id).toBeTruthy();
    const won = await call('GET', `disputes?filter=${encodeURIComponent('stage eq Won')}`);
    expect(won.json().items.every((item: { stage: string }) => item.stage === 'Won')).toBe(true);
    expect(won.json().totalItems).toBe(2);
    const bad = await call('GET', `disputes?filter=${encodeURIComponent('stage eq Closed')}`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('late failures', () => {
  it('a Paid payment whose money went back is Failed, its allocations reversed; without the flag nothing moves', async () => {
    const { invoice, requestId, paymentId } = await paidInvoice('75');
    await notify({ paymentId, status: 'Failed', message: 'late_failure_settled' });
    // A plain Failed after Paid is a replay or a late event: the status stays.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await detail(paymentId)).status).toBe('Paid');

    await notify({
      paymentId,
      status: 'Failed',
      lateFailure: true,
      message: 'The bank returned the debit',
    });
    await waitFor(async () => (await detail(paymentId)).status === 'Failed');
    expect((await invoiceRow(invoice)).paidStatus).toBe('Unpaid');
    expect(await requestStatus(requestId)).toBe('Open');
    expect(await hooks('payment.failed', paymentId)).toHaveLength(1);
    const reference = (await detail(paymentId)).ledgerlineReference as string;
    await waitFor(async () =>
      mailsIn(outbox).some(
        (mail) => mail.includes(reference) && mail.includes('Subject: Payment failed'),
      ),
    );
  });
});
