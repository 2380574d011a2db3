import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { paymentRequestMessages as m } from '@ledgerline/contract';
import { accounts, paymentRequestAllocations, paymentRequests, transactions } from '../../db/schema-receivables.js';
import { auditActivities, users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, byKey, signIn, type Caller, type SignedIn, type TestContext } from '../../../test/app.js';

/** POST payment-requests with transactionAllocations: one request for several existing invoices (spec 2 §3). */
let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let merchantKey: Caller;
let account: { id: string; name: string; accountReference: string };
let otherAccount: { id: string };
const size = { accounts: 3, transactions: 0, paymentRequests: 0, paymentTransactions: 0, banks: 0 };

const call = (who: Caller, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/api/v0/payment-requests', headers: who.headers({ 'dataset-id': '1' }), payload: payload as object });

const accountsOf = (who: SignedIn) =>
  ctx.database.withTenant(who.tenantId, (tx) => tx.select().from(accounts).where(eq(accounts.tenantId, who.tenantId)).orderBy(accounts.accountReference));
const requestCount = (who: SignedIn) =>
  ctx.database.withTenant(who.tenantId, async (tx) => (await tx.select().from(paymentRequests).where(eq(paymentRequests.tenantId, who.tenantId))).length);

let sequence = 0;
/** An accounting transaction of `who`'s company; an invoice of 100 GBP owing 100 unless told. */
async function transaction(
  who: SignedIn,
  accountId: string,
  values: Partial<{ transactionType: string; currency: string; transactionAmount: string; allocatedAmount: string; discountedAmount: string; paidStatus: string }> = {},
) {
  const id = uuidv7();
  sequence += 1;
  await ctx.database.withTenant(who.tenantId, (tx) =>
    tx.insert(transactions).values({
      tenantId: who.tenantId,
      datasetId: 1,
      id,
      accountId,
      transactionReference: `MULTI${String(sequence).padStart(5, '0')}`,
      transactionType: 'Invoice',
      transactionDate: '2026-11-01',
      dueDate: '2026-12-01',
      currency: 'GBP',
      transactionAmount: '100',
      ...values,
    }),
  );
  return id;
}

const body = (allocations: unknown, extra: Record<string, unknown> = {}) => ({
  requestType: 'Transaction',
  accountId: account.id,
  currency: 'GBP',
  transactionAllocations: allocations,
  ...extra,
});

/** The request is refused with `status`, `message` at `field`, and nothing is created. */
async function refused(who: Caller, payload: unknown, status: number, field: string, message: string) {
  const before = await requestCount(merchant);
  const response = await call(who, payload);
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().errors[field]).toEqual([message]);
  expect(await requestCount(merchant)).toBe(before);
  return response.json();
}

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Merchant Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) => generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size));
  }
  const [first, second] = await accountsOf(merchant);
  account = first!;
  otherAccount = second!;
  const response = await ctx.app.inject({ method: 'POST', url: '/api/v0/access-keys', headers: merchant.headers(), payload: { name: 'ERP' } });
  merchantKey = byKey(response.json().accessKey as string);
});
afterAll(() => ctx.close());

describe('POST payment-requests with transactionAllocations', () => {
  it('asks for several invoices: amounts given or outstanding, their sum, required allocations, audited', async () => {
    const whole = await transaction(merchant, account.id, { transactionAmount: '250.10', allocatedAmount: '50', discountedAmount: '0.05', paidStatus: 'PartPaid' });
    const part = await transaction(merchant, account.id, { transactionAmount: '80' });
    const increase = await transaction(merchant, account.id, { transactionType: 'BalanceIncreasingTransaction', transactionAmount: '19.99' });
    const response = await call(merchant, body([{ transactionId: whole }, { transactionId: part, amount: 30.5 }, { transactionId: increase, amount: null }], { description: '  November invoices  ', customerReference: 'PO-7' }));
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      requestType: 'Transaction',
      requestStatus: 'Open',
      captureType: 'Immediate',
      currency: 'GBP',
      amountToPay: 250.54,
      description: 'November invoices',
      customerName: account.name,
      customerReference: 'PO-7',
      accountId: account.id,
      options: { usage: 'Single' },
      requestUrl: `http://localhost:3000/pay/${created.id}`,
      canEdit: true,
    });
    expect(created.billingContact).toMatchObject({ companyName: account.name });
    const byId = new Map(created.transactionAllocations.map((x: { transactionId: string }) => [x.transactionId, x]));
    expect(byId.get(whole)).toEqual({ transactionId: whole, amount: 200.05, required: true, canEditAmount: false, minimumAmount: null, maximumAmount: null });
    expect(byId.get(part)).toMatchObject({ amount: 30.5, required: true });
    expect(byId.get(increase)).toMatchObject({ amount: 19.99, required: true });
    expect(created.transactions.map((x: { id: string }) => x.id).sort()).toEqual([whole, part, increase].sort());
    const stored = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select().from(paymentRequestAllocations).where(and(eq(paymentRequestAllocations.tenantId, merchant.tenantId), eq(paymentRequestAllocations.paymentRequestId, created.id))),
    );
    expect(stored.map((x) => Number(x.amount)).sort((a, b) => a - b)).toEqual([19.99, 30.5, 200.05]);
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'CreatePaymentRequest'), eq(auditActivities.resourceId, created.id)));
    expect(activity).toMatchObject({ status: 201, userId: merchant.userId, datasetId: 1 });
    // The detail shows the same allocations.
    const detail = await ctx.app.inject({ method: 'GET', url: `/api/v0/payment-requests/${created.id}`, headers: merchant.headers({ 'dataset-id': '1' }) });
    expect(detail.json().transactionAllocations).toHaveLength(3);
  });

  it('takes capture, usage, dates, billing contact and the currency of the invoices when none is sent, from an access key', async () => {
    const invoice = await transaction(merchant, account.id, { currency: 'EUR', transactionAmount: '42' });
    const payload = {
      requestType: 'Transaction',
      accountId: account.id,
      transactionAllocations: [{ transactionId: invoice }],
      captureType: 'Reserve',
      usageType: 'Multiple',
      validUntil: '2026-12-31T00:00:00.000Z',
      paymentRequiredBy: '2026-12-15',
      billingContact: { firstNames: ' Ann ', surname: 'Lee', emailAddress: 'ann@example.com' },
    };
    const response = await call(merchantKey, payload);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      currency: 'EUR',
      amountToPay: 42,
      captureType: 'Reserve',
      options: { usage: 'Multiple' },
      validUntil: '2026-12-31T00:00:00.000Z',
      paymentRequiredBy: '2026-12-15',
      billingContact: { firstNames: 'Ann', surname: 'Lee', emailAddress: 'ann@example.com' },
    });
  });

  it('refuses a transaction of another company of its own tenant or of another tenant as not found, the same answer', async () => {
    const [theirAccount] = await accountsOf(rival);
    const theirs = await transaction(rival, theirAccount!.id);
    const unknown = uuidv7();
    const mine = await transaction(merchant, account.id);
    const a = await refused(merchant, body([{ transactionId: mine }, { transactionId: theirs }]), 422, 'transactionAllocations.1.transactionId', m.transactionNotFound);
    const b = await refused(merchantKey, body([{ transactionId: mine }, { transactionId: unknown }]), 422, 'transactionAllocations.1.transactionId', m.transactionNotFound);
    expect(a).toEqual(b);
    expect(a.detail).toBe(m.transactionNotFound);
    // Nothing of the rival's changed either.
    expect(await requestCount(rival)).toBe(0);
  });

  it('refuses a transaction of another account', async () => {
    const elsewhere = await transaction(merchant, otherAccount.id);
    await refused(merchant, body([{ transactionId: elsewhere }]), 422, 'transactionAllocations.0.transactionId', m.transactionOtherAccount);
  });

  it('refuses a transaction in another currency than the request', async () => {
    const pounds = await transaction(merchant, account.id);
    const dollars = await transaction(merchant, account.id, { currency: 'USD' });
    await refused(merchant, body([{ transactionId: pounds }, { transactionId: dollars }]), 422, 'transactionAllocations.1.transactionId', m.transactionOtherCurrency);
    await refused(merchant, body([{ transactionId: pounds }], { currency: 'EUR' }), 422, 'transactionAllocations.0.transactionId', m.transactionOtherCurrency);
  });

  it('refuses a transaction that is not invoice-like', async () => {
    for (const transactionType of ['CreditNote', 'Payment', 'Receipt', 'Quotation']) {
      const credit = await transaction(merchant, account.id, { transactionType });
      await refused(merchant, body([{ transactionId: credit }]), 422, 'transactionAllocations.0.transactionId', m.transactionNotInvoice);
    }
  });

  it('refuses a fully paid transaction or one owing nothing', async () => {
    const paid = await transaction(merchant, account.id, { allocatedAmount: '100', paidStatus: 'FullyPaid' });
    await refused(merchant, body([{ transactionId: paid }]), 422, 'transactionAllocations.0.transactionId', m.transactionNothingOutstanding);
    const markedPaid = await transaction(merchant, account.id, { allocatedAmount: '10', paidStatus: 'FullyPaid' });
    await refused(merchant, body([{ transactionId: markedPaid }]), 422, 'transactionAllocations.0.transactionId', m.transactionNothingOutstanding);
    const discounted = await transaction(merchant, account.id, { allocatedAmount: '90', discountedAmount: '10', paidStatus: 'PartPaid' });
    await refused(merchant, body([{ transactionId: discounted }]), 422, 'transactionAllocations.0.transactionId', m.transactionNothingOutstanding);
  });

  it('refuses an amount above what the transaction owes; accepts exactly what it owes', async () => {
    const invoice = await transaction(merchant, account.id, { allocatedAmount: '40', paidStatus: 'PartPaid' });
    // One penny over (a GBP amount has at most 2 decimals).
    await refused(merchant, body([{ transactionId: invoice, amount: 60.01 }]), 422, 'transactionAllocations.0.amount', m.amountAboveOutstanding);
    const exact = await call(merchant, body([{ transactionId: invoice, amount: 60 }]));
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json().amountToPay).toBe(60);
  });

  it('refuses a zero, negative, non-number or over-precise amount (400)', async () => {
    const invoice = await transaction(merchant, account.id);
    await refused(merchant, body([{ transactionId: invoice, amount: 0 }]), 400, 'transactionAllocations.0.amount', m.amountPositive);
    await refused(merchant, body([{ transactionId: invoice, amount: -5 }]), 400, 'transactionAllocations.0.amount', m.amountPositive);
    await refused(merchant, body([{ transactionId: invoice, amount: '5' }]), 400, 'transactionAllocations.0.amount', m.amountNumber);
    await refused(merchant, body([{ transactionId: invoice, amount: 1.00001 }]), 400, 'transactionAllocations.0.amount', m.amountDecimals);
  });

  it('refuses an empty, oversized or repeating list and a malformed id (400)', async () => {
    const invoice = await transaction(merchant, account.id);
    await refused(merchant, body([]), 400, 'transactionAllocations', m.allocationsRequired);
    await refused(merchant, body(null), 400, 'transactionAllocations', m.allocationsRequired);
    const many = Array.from({ length: 101 }, () => ({ transactionId: uuidv7() }));
    await refused(merchant, body(many), 400, 'transactionAllocations', m.allocationsTooMany);
    await refused(merchant, body([{ transactionId: invoice }, { transactionId: invoice.toUpperCase() }]), 400, 'transactionAllocations', m.allocationDuplicated);
    await refused(merchant, body([{ transactionId: 'INV0001' }]), 400, 'transactionAllocations.0.transactionId', m.allocationTransactionId);
    await refused(merchant, body([{ transactionId: invoice }], { accountId: 'nope' }), 400, 'accountId', m.accountRequired);
    await refused(merchant, body([{ transactionId: invoice }], { captureType: 'Later' }), 400, 'captureType', m.captureTypeRequired);
  });

  it('takes a transaction id in capitals as the same id', async () => {
    const invoice = await transaction(merchant, account.id);
    const response = await call(merchant, body([{ transactionId: invoice.toUpperCase() }]));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().transactionAllocations).toEqual([expect.objectContaining({ transactionId: invoice, amount: 100 })]);
  });

  it('accepts 100 invoices in one request', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i += 1) ids.push(await transaction(merchant, account.id, { transactionAmount: '1.01' }));
    const response = await call(merchant, body(ids.map((transactionId) => ({ transactionId }))));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().amountToPay).toBe(101);
    expect(response.json().transactionAllocations).toHaveLength(100);
  });

  it("refuses another tenant's account as unknown", async () => {
    const [theirAccount] = await accountsOf(rival);
    const theirs = await transaction(rival, theirAccount!.id);
    await refused(merchant, body([{ transactionId: theirs }], { accountId: theirAccount!.id }), 400, 'accountId', m.accountNotFound);
  });

  it('keeps the dialog shape and its messages when transactionAllocations is absent', async () => {
    const response = await call(merchant, { requestType: 'Transaction', accountId: account.id, currency: 'GBP', transactionDate: '2026-11-01', dueDate: '2026-12-01' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ amount: [m.amountRequired] });
  });

  it('needs EditPaymentRequest: a Viewer is refused (403) and nothing is created', async () => {
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    const invoice = await transaction(merchant, account.id);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/payment-requests',
      headers: viewer.headers({ 'dataset-id': '1' }),
      payload: body([{ transactionId: invoice }]),
    });
    expect(response.statusCode).toBe(403);
  });
});
