import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import {
  paymentAllocations,
  paymentTransactions,
  providerEvents,
  settlementOffers,
} from '../../db/schema-receivables.js';
import type {
  CheckoutAdapter,
  CheckoutPaymentStatus,
  CheckoutStatusInput,
} from '../../providers/checkout.js';
import {
  createSandboxCheckout,
  sandboxNotificationSecret,
  signSandboxNotification,
} from '../../providers/sandbox/sandbox.checkout.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { waitFor } from '../../../test/wait.js';
import { day, insertAccount, insertInvoice, insertRequest, mailsIn } from '../../../test/fixtures/pay.js';

/*
 * The provider side of the payer page through a test-only checkout adapter (named as the OPPWA
 * configuration kind, whose real checkout the checkout branch adds): a redirect start, a status
 * the test sets, a provider that cannot be reached. The Sandbox's own adapter is used as is.
 */
const notificationKey = 'checkout-status-notification-key-0123';
let providerSays: {
  status: CheckoutPaymentStatus;
  errorMessage?: string;
  /** The payment id the provider's answer names (its metadata), when it names one. */
  paymentTransactionId?: string;
} = {
  status: 'Processing',
};
/** The provider's start answer carried no id (it was lost): the payment has no reference. */
let startWithoutReference = false;
let statusCalls: CheckoutStatusInput[] = [];
let unreachable = false;
const testCheckout: CheckoutAdapter = {
  name: 'Oppwa',
  async start(input) {
    if (unreachable) throw new Error('connect ECONNREFUSED');
    return {
      next: { kind: 'redirect', url: `https://provider.example/pay/${input.paymentTransactionId}` },
      providerReference: startWithoutReference
        ? null
        : `ref_${input.paymentTransactionId.slice(0, 8)}`,
      exchange: {
        eventType: 'checkout.created',
        recordType: 'checkout',
        recordId: null,
        status: 'created',
        payload: '{}',
      },
    };
  },
  async status(input) {
    statusCalls.push(input);
    return {
      status: providerSays.status,
      errorMessage: providerSays.errorMessage ?? null,
      paymentTransactionId: providerSays.paymentTransactionId ?? null,
      paymentMethodType: 'Card',
      exchange: {
        eventType: 'payment.status',
        recordType: 'payment',
        recordId: input.providerReference,
        status: providerSays.status,
        payload: '{}',
      },
    };
  },
};

let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let accountId: string;
let oppwaId: string;
let sandboxId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-checkout-'));
const outbox = join(dataDir, 'mail');

beforeAll(async () => {
  ctx = await buildTestApp(
    {
      DATA_DIR: dataDir,
      RATE_LIMIT_PAY_PER_MINUTE: '100000',
      SANDBOX_NOTIFICATION_KEY: notificationKey,
    },
    {},
    { checkouts: [createSandboxCheckout({ notificationKey }), testCheckout] },
  );
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Checkout Ltd' });
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, admin);
  accountId = await insertAccount(ctx, admin);
  const oppwa = await call(admin, 'POST', 'providers', {
    providerName: 'Oppwa',
    name: 'Cards',
    enabled: true,
    displayPriority: 10,
    isTest: true,
    credentials: { entityId: 'entity', accessToken: 'token', useSandbox: true },
  });
  expect(oppwa.statusCode, oppwa.body).toBe(201);
  oppwaId = oppwa.json().id;
  const sandbox = await call(admin, 'POST', 'providers', {
    providerName: 'Sandbox',
    name: 'Sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  sandboxId = sandbox.json().id;
  const recipient = await call(admin, 'POST', 'notifications/users', {
    type: 'EmailAddress',
    emailAddress: 'ops@checkout.example',
  });
  await call(admin, 'PUT', 'notifications/users', {
    id: recipient.json().id,
    notificationSettings: [{ notificationName: 'TenantPaymentProcessing', isEnabled: true }],
  });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });

describe('a provider checkout', () => {
  it('lists the provider, starts with its redirect, and settles from a status poll at most every few seconds', async () => {
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '80' });
    const methods = (await pay('GET', id)).json().methods;
    expect(methods.map((m: { configurationId: string }) => m.configurationId)).toEqual([
      oppwaId,
      sandboxId,
    ]);
    const started = await pay('POST', `${id}/payments`, { configurationId: oppwaId });
    expect(started.statusCode, started.body).toBe(201);
    const { paymentId, next } = started.json();
    expect(next).toEqual({ kind: 'redirect', url: `https://provider.example/pay/${paymentId}` });
    const [row] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paymentId));
    expect(row).toMatchObject({
      status: 'Processing',
      paymentProviderName: 'Oppwa',
      paymentProviderReference: `ref_${paymentId.slice(0, 8)}`,
    });

    statusCalls = [];
    providerSays = { status: 'Processing' };
    const waiting = await pay(
      'GET',
      `${id}/payments/${paymentId}?resourcePath=%2Fv1%2Fcheckouts%2Fabc%2Fpayment`,
    );
    expect(waiting.json()).toMatchObject({ outcome: 'Waiting' });
    expect(statusCalls).toHaveLength(1);
    expect(statusCalls[0]).toMatchObject({
      paymentTransactionId: paymentId,
      providerReference: `ref_${paymentId.slice(0, 8)}`,
      returnQuery: { resourcePath: '/v1/checkouts/abc/payment' },
      configuration: {
        id: oppwaId,
        isTest: true,
        credentials: { entityId: 'entity', accessToken: 'token' },
      },
    });
    // Polled again at once: the provider is not asked again yet.
    providerSays = { status: 'Paid' };
    expect((await pay('GET', `${id}/payments/${paymentId}`)).json().outcome).toBe('Waiting');
    expect(statusCalls).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    const paid = await pay('GET', `${id}/payments/${paymentId}`);
    expect(paid.json()).toMatchObject({
      status: 'Paid',
      outcome: 'Succeeded',
      receipt: { paymentId, amount: 80 },
    });
    expect(statusCalls).toHaveLength(2);
    const allocations = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, paymentId));
    expect(allocations.map((a) => [a.entityType, a.accountId, Number(a.allocatedAmount)])).toEqual([
      ['Account', accountId, 80],
    ]);
    // Paid: the provider is not asked any more.
    await new Promise((resolve) => setTimeout(resolve, 3100));
    await pay('GET', `${id}/payments/${paymentId}`);
    expect(statusCalls).toHaveLength(2);
  });

  // An id from the return URL only finds the provider's answer; it settles only
  // when that answer names this payment.
  it('settles a payment without a reference only on an answer that names it, and records the others', async () => {
    startWithoutReference = true;
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '84' });
    const started = await pay('POST', `${id}/payments`, { configurationId: oppwaId });
    startWithoutReference = false;
    expect(started.statusCode, started.body).toBe(201);
    const { paymentId } = started.json();
    const other = await insertRequest(ctx, admin, { accountId, amountToPay: '85' });
    const otherPayment = (
      await pay('POST', `${other}/payments`, { configurationId: oppwaId })
    ).json().paymentId as string;
    const poll = async (says: typeof providerSays) => {
      providerSays = says;
      statusCalls = [];
      const answer = await pay('GET', `${id}/payments/${paymentId}?id=chk_someone_else`);
      expect(statusCalls, JSON.stringify(says)).toHaveLength(1);
      expect(statusCalls[0]).toMatchObject({
        providerReference: null,
        returnQuery: { id: 'chk_someone_else' },
      });
      await new Promise((resolve) => setTimeout(resolve, 3100));
      return answer.json();
    };
    // Another payment's checkout (a payer replaying a paid one's return link), then one that names
    // no payment at all: neither settles this one.
    expect(await poll({ status: 'Paid', paymentTransactionId: otherPayment })).toMatchObject({
      outcome: 'Waiting',
    });
    expect(await poll({ status: 'Paid' })).toMatchObject({ outcome: 'Waiting' });
    const [row] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paymentId));
    expect(row!.status).toBe('Processing');
    const ignored = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(
        and(
          eq(providerEvents.paymentTransactionId, paymentId),
          eq(providerEvents.status, 'ignored: not this payment'),
        ),
      );
    expect(ignored).toHaveLength(2);
    // The provider's answer for this very payment settles it.
    expect(await poll({ status: 'Paid', paymentTransactionId: paymentId })).toMatchObject({
      status: 'Paid',
      outcome: 'Succeeded',
    });
  });

  it('a failure the provider reports reaches the payer', async () => {
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '81' });
    const { paymentId } = (
      await pay('POST', `${id}/payments`, { configurationId: oppwaId })
    ).json();
    providerSays = { status: 'Rejected', errorMessage: 'Your bank rejected the payment' };
    const failed = (await pay('GET', `${id}/payments/${paymentId}`)).json();
    expect(failed).toMatchObject({
      status: 'Rejected',
      outcome: 'Failed',
      message: 'Your bank rejected the payment',
    });
  });

  it('a provider that cannot be reached: 503, the attempt Failed, the request still payable', async () => {
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '82' });
    unreachable = true;
    try {
      const started = await pay('POST', `${id}/payments`, { configurationId: oppwaId });
      expect(started.statusCode).toBe(503);
      expect(started.json().detail).toBe(
        'The payment provider could not be reached. Please try again in a moment.',
      );
    } finally {
      unreachable = false;
    }
    const [row] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.paymentRequestId, id));
    expect(row!.status).toBe('Failed');
    expect((await pay('POST', `${id}/payments`, { configurationId: oppwaId })).statusCode).toBe(
      201,
    );
  });

  it('records a generated offer it allocated as a Used offer of the invoice', async () => {
    const group = await call(admin, 'POST', 'settlement-configuration-groups', {
      name: 'Early',
      customerEnabled: true,
    });
    await call(admin, 'POST', `settlement-configuration-groups/${group.json().id}/configurations`, {
      type: 'PercentageDiscount',
      dateType: 'TransactionDate',
      numberOfDays: 10,
      percentageDiscount: 2,
    });
    await call(admin, 'PUT', 'company-settings/preferences', {
      defaultSettlementConfigurationGroupId: group.json().id,
    });
    const account = await insertAccount(ctx, admin);
    const invoice = await insertInvoice(ctx, admin, account, {
      amount: '1000',
      transactionDate: day(-1),
      dueDate: day(29),
    });
    const id = await insertRequest(ctx, admin, { accountId: account }, [invoice]);
    const page = (await pay('GET', id)).json();
    expect(page.invoices[0]).toMatchObject({
      discount: 20,
      offer: { source: 'Generated', validUntil: day(9) },
      amountToPay: 980,
    });
    const { paymentId, amount } = (
      await pay('POST', `${id}/payments`, { configurationId: sandboxId })
    ).json();
    expect(amount).toBe(980);
    await pay('POST', `${id}/payments/${paymentId}/sandbox`, {
      cardholderName: 'G',
      cardNumber: sandboxCards.succeeds,
      expiry: '01/30',
      cvc: '999',
    });
    const [allocation] = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, paymentId));
    expect(allocation).toMatchObject({
      transactionId: invoice,
      allocatedAmount: '980.0000',
      discountedAmount: '20.0000',
    });
    const [offer] = await ctx.database.db
      .select()
      .from(settlementOffers)
      .where(
        and(
          eq(settlementOffers.tenantId, admin.tenantId),
          eq(settlementOffers.id, allocation!.settlementOfferId!),
        ),
      );
    expect(offer).toMatchObject({
      transactionId: invoice,
      status: 'Used',
      type: 'PercentageDiscount',
      amount: '20.0000',
      validUntil: day(9),
    });
    // The money rules see the invoice paid: nothing more is offered on it.
    expect((await call(admin, 'GET', `transactions/${invoice}/quote`)).json()).toMatchObject({
      outstandingAmount: 0,
    });
  });

  it("mails TenantPaymentProcessing once when the provider's notification says it is processing", async () => {
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '83' });
    const { paymentId } = (
      await pay('POST', `${id}/payments`, { configurationId: sandboxId })
    ).json();
    const secret = sandboxNotificationSecret(notificationKey, sandboxId)!;
    for (const eventId of ['evt_processing_1', 'evt_processing_2']) {
      const body = JSON.stringify({
        id: `${eventId}_${paymentId}`,
        type: 'payment.processing',
        data: { paymentId, status: 'Processing' },
      });
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/v0/webhooks/sandbox/${sandboxId}`,
        headers: {
          'content-type': 'application/json',
          'sandbox-signature': signSandboxNotification(secret, body),
        },
        payload: body,
      });
      expect(response.statusCode).toBe(200);
    }
    const [row] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paymentId));
    const processing = await waitFor(async () => {
      const found = mailsIn(outbox).filter((mail) => mail.includes(row!.ledgerlineReference));
      return found.length > 0 ? found : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(mailsIn(outbox).filter((mail) => mail.includes(row!.ledgerlineReference))).toHaveLength(
      1,
    );
    expect(processing[0]).toContain('Subject: Payment processing');
    expect(processing[0]).toContain('To: ops@checkout.example');
    const events = await ctx.database.db
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.paymentTransactionId, paymentId));
    expect(events.filter((e) => e.recordType === 'notification')).toHaveLength(2);
    expect((await pay('GET', `${id}/payments/${paymentId}`)).json().status).toBe('Processing');
  });
});
