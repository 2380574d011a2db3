import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { sandboxCards, statementMessages } from '@ledgerline/contract';
import { auditActivities } from '../../db/schema.js';
import { statementLinks } from '../../db/schema-statements.js';
import {
  paymentAllocations,
  paymentRequestAllocations,
  paymentRequests,
  paymentTransactions,
  transactions,
} from '../../db/schema-receivables.js';
import { hashStatementToken } from './statement-links.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { caller, makeViewer } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice } from '../../../test/fixtures/pay.js';

let ctx: TestContext;
let admin: SignedIn;
let rival: SignedIn;
let call: ReturnType<typeof caller>;
let sandboxId: string;

const open = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/${url}`, ...(payload ? { payload } : {}) });

const card = (cardNumber: string) => ({ cardholderName: 'Pat Payer', cardNumber, expiry: '12/30', cvc: '123' });

/** A statement link of the account, issued by `who`: its token. */
async function linkOf(who: SignedIn, accountId: string): Promise<string> {
  const response = await call(who, 'POST', `accounts/${accountId}/statement-link`);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json().url as string).split('/statement/')[1]!;
}

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Statements Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Statements Ltd' });
  await makeDemoCompany(ctx, admin);
  const provider = await call(admin, 'POST', 'providers', {
    providerName: 'Sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
    name: 'Card (test)',
  });
  expect(provider.statusCode, provider.body).toBe(201);
  sandboxId = provider.json().id;
  await call(admin, 'PUT', 'company-settings', {
    companyDetails: {
      name: 'Statement Widgets Ltd',
      mainAddress: {
        firstNames: 'Sam',
        surname: 'Statement',
        email: 'accounts@statements.example',
        address1: '1 Ledger Lane',
        city: 'Leeds',
        state: 'England',
        postCode: 'LS1 1AA',
        country: 'United Kingdom',
      },
    },
  });
}, 60_000);
afterAll(() => ctx.close());

describe('POST accounts/{id}/statement-link', () => {
  it('answers a link and its expiry, with an audit activity naming the account', async () => {
    const accountId = await insertAccount(ctx, admin);
    const response = await call(admin, 'POST', `accounts/${accountId}/statement-link`);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toEqual({ url: expect.stringMatching(/^http:\/\/localhost:3000\/statement\/[A-Za-z0-9_-]{43}$/), expiresAt: null });
    const activities = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.tenantId, admin.tenantId), eq(auditActivities.operation, 'CreateStatementLink')));
    expect(activities.some((a) => a.resourceType === 'Account' && a.resourceId === accountId && a.status === 201)).toBe(true);
  });

  it("expires with the company's payment request link expiry", async () => {
    await call(admin, 'PUT', 'company-settings/payment-request', {
      validUntilAddition: { unit: 'Week', quantity: 2 },
      defaultUsageType: 'Single',
    });
    try {
      const accountId = await insertAccount(ctx, admin);
      const before = Date.now();
      const response = await call(admin, 'POST', `accounts/${accountId}/statement-link`);
      const expiresAt = new Date(response.json().expiresAt).getTime();
      expect(expiresAt).toBeGreaterThanOrEqual(before + 14 * 86_400_000 - 1000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 14 * 86_400_000);
    } finally {
      await call(admin, 'PUT', 'company-settings/payment-request', { validUntilAddition: null, defaultUsageType: 'Single' });
    }
  });

  it('is refused to a Viewer (403) and writes nothing', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Viewer Statements Ltd' });
    const accountId = await insertAccount(ctx, viewer);
    await makeViewer(ctx, viewer);
    const response = await call(viewer, 'POST', `accounts/${accountId}/statement-link`);
    expect(response.statusCode).toBe(403);
    expect(await ctx.database.db.select().from(statementLinks).where(eq(statementLinks.accountId, accountId))).toEqual([]);
  });

  it("answers 404 for another company's account (cross-tenant) and writes nothing", async () => {
    const theirs = await insertAccount(ctx, rival);
    const response = await call(admin, 'POST', `accounts/${theirs}/statement-link`);
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe(`Account ${theirs} was not found.`);
    expect(await ctx.database.db.select().from(statementLinks).where(eq(statementLinks.accountId, theirs))).toEqual([]);
  });
});

describe('the statement page', () => {
  it('answers 404 for an unknown token and 410 once the link has expired, as problem documents', async () => {
    const unknown = await open('GET', `statements/${'x'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect(unknown.json().detail).toBe(statementMessages.unknown);
    expect((await open('GET', 'statements/short')).statusCode).toBe(404);

    const accountId = await insertAccount(ctx, admin);
    const token = await linkOf(admin, accountId);
    await ctx.database.db
      .update(statementLinks)
      .set({ expiresOn: new Date(Date.now() - 1000) })
      .where(eq(statementLinks.tokenHash, hashStatementToken(token)));
    for (const response of [
      await open('GET', `statements/${token}`),
      await open('GET', `statements/${token}/pdf`),
      await open('POST', `statements/${token}/pay`, { transactionIds: [randomUUID()] }),
    ]) {
      expect(response.statusCode).toBe(410);
      expect(response.json()).toMatchObject({ detail: statementMessages.expired, errorCode: 'statementLinkExpired' });
    }
  });

  it('says when nothing is open', async () => {
    const accountId = await insertAccount(ctx, admin, { name: 'All Paid Ltd' });
    const token = await linkOf(admin, accountId);
    const page = (await open('GET', `statements/${token}`)).json();
    expect(page).toMatchObject({ accountName: 'All Paid Ltd', invoices: [], totals: [] });
    const pay = await open('POST', `statements/${token}/pay`, { transactionIds: [randomUUID()] });
    expect(pay.statusCode).toBe(422);
    expect(pay.json().errors['transactionIds.0']).toEqual([statementMessages.notOnStatement]);
  });

  it('pays THREE invoices in one Sandbox payment, allocated invoice by invoice, with discounts and late fees', async () => {
    const late = await call(admin, 'POST', 'late-payment-configurations', { type: 'Uk', name: 'UK statutory', gracePeriodInDays: 0 });
    await call(admin, 'PUT', 'company-settings/preferences', { defaultLatePaymentConfigurationId: late.json().id });
    const accountId = await insertAccount(ctx, admin, { name: 'Three Invoices Ltd', accountReference: 'THREE-1' });
    const overdue = await insertInvoice(ctx, admin, accountId, { amount: '900', transactionDate: day(-60), dueDate: day(-30) });
    const early = await insertInvoice(ctx, admin, accountId, { amount: '500', transactionDate: day(-10), dueDate: day(20) });
    const plain = await insertInvoice(ctx, admin, accountId, { amount: '120.50', transactionDate: day(-2), dueDate: day(28) });
    // Not open: a paid invoice and another currency's invoice still listed apart.
    const paid = await insertInvoice(ctx, admin, accountId, { amount: '70', transactionDate: day(-90), dueDate: day(-60) });
    await ctx.database.db.update(transactions).set({ allocatedAmount: '70', paidStatus: 'FullyPaid' }).where(eq(transactions.id, paid));
    const euro = await insertInvoice(ctx, admin, accountId, { amount: '30', transactionDate: day(-1), dueDate: day(29), currency: 'EUR' });
    const offer = await call(admin, 'POST', `transactions/${early}/settlement-offers`, {
      type: 'AbsoluteDiscount',
      amount: 25,
      description: '£25 off',
      validUntil: day(5),
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const token = await linkOf(admin, accountId);

    const response = await open('GET', `statements/${token}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const page = response.json();
    expect(page).toMatchObject({
      company: { name: 'Statement Widgets Ltd', addressLines: ['1 Ledger Lane', 'Leeds', 'England', 'LS1 1AA', 'United Kingdom'] },
      accountName: 'Three Invoices Ltd',
      accountReference: 'THREE-1',
      quotedOn: day(0),
      expiresAt: null,
    });
    // Oldest first; the paid invoice is not listed.
    expect(page.invoices.map((i: { transactionId: string }) => i.transactionId)).toEqual([overdue, early, plain, euro]);
    const [lateInvoice, earlyInvoice, plainInvoice] = page.invoices;
    expect(lateInvoice).toMatchObject({ outstandingAmount: 900, discount: 0, overdue: true });
    expect(lateInvoice.fees).toBeGreaterThan(40);
    expect(lateInvoice.feesReason).toContain('UK law lets the seller add');
    expect(lateInvoice.amountToPay).toBeCloseTo(900 + lateInvoice.fees, 2);
    expect(earlyInvoice).toMatchObject({ outstandingAmount: 500, discount: 25, fees: 0, amountToPay: 475, overdue: false });
    expect(plainInvoice).toMatchObject({ outstandingAmount: 120.5, discount: 0, fees: 0, amountToPay: 120.5 });
    expect(page.totals).toEqual([
      { currency: 'GBP', amountToPay: Number((lateInvoice.amountToPay + 475 + 120.5).toFixed(2)) },
      { currency: 'EUR', amountToPay: 30 },
    ]);

    // One currency per payment; each invoice once; only invoices on this statement.
    const mixed = await open('POST', `statements/${token}/pay`, { transactionIds: [overdue, euro] });
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().detail).toBe(statementMessages.oneCurrency);
    const twice = await open('POST', `statements/${token}/pay`, { transactionIds: [overdue, overdue] });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors['transactionIds.1']).toEqual([statementMessages.listedTwice]);
    const paidOne = await open('POST', `statements/${token}/pay`, { transactionIds: [paid] });
    expect(paidOne.json().errors['transactionIds.0']).toEqual([statementMessages.notOnStatement]);

    const chosen = [plain, overdue, early];
    const made = await open('POST', `statements/${token}/pay`, { transactionIds: chosen });
    expect(made.statusCode, made.body).toBe(201);
    const { paymentRequestId, payUrl, reused } = made.json();
    expect(payUrl).toBe(`/pay/${paymentRequestId}`);
    expect(reused).toBe(false);
    // The same set again reuses the Open request.
    const again = await open('POST', `statements/${token}/pay`, { transactionIds: [early, plain, overdue] });
    expect(again.json()).toMatchObject({ paymentRequestId, reused: true });
    // Another set is another request.
    const fewer = await open('POST', `statements/${token}/pay`, { transactionIds: [early] });
    expect(fewer.json().paymentRequestId).not.toBe(paymentRequestId);

    const [request] = await ctx.database.db.select().from(paymentRequests).where(eq(paymentRequests.id, paymentRequestId));
    expect(request).toMatchObject({ requestType: 'Transaction', requestStatus: 'Open', accountId, usageType: 'Single', currency: 'GBP' });
    const asked = await ctx.database.db
      .select()
      .from(paymentRequestAllocations)
      .where(eq(paymentRequestAllocations.paymentRequestId, paymentRequestId));
    expect(asked.map((a) => a.transactionId).sort()).toEqual([...chosen].sort());
    const activities = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.tenantId, admin.tenantId), eq(auditActivities.operation, 'PayStatement')));
    expect(activities.filter((a) => a.resourceId === paymentRequestId).map((a) => a.userName)).toEqual(['Payer', 'Payer']);

    // The payer page of the request asks what the statement showed.
    const payPage = (await open('GET', `pay/${paymentRequestId}`)).json();
    expect(payPage.amountToPay).toBeCloseTo(page.totals[0].amountToPay, 2);
    const started = await open('POST', `pay/${paymentRequestId}/payments`, {
      configurationId: sandboxId,
      payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@payer.example' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const { paymentId } = started.json();
    const done = await open('POST', `pay/${paymentRequestId}/payments/${paymentId}/sandbox`, card(sandboxCards.succeeds));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'Paid', outcome: 'Succeeded' });

    const [payment] = await ctx.database.db.select().from(paymentTransactions).where(eq(paymentTransactions.id, paymentId));
    expect(Number(payment!.totalAmount)).toBeCloseTo(page.totals[0].amountToPay, 2);
    const allocations = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, paymentId));
    expect(
      allocations
        .map((a) => [a.transactionId, a.status, Number(a.allocatedAmount), Number(a.discountedAmount)])
        .sort(),
    ).toEqual(
      [
        [overdue, 'Allocated', 900, 0],
        [early, 'Allocated', 475, 25],
        [plain, 'Allocated', 120.5, 0],
      ].sort(),
    );
    const rows = await ctx.database.db.select().from(transactions).where(eq(transactions.accountId, accountId));
    const status = new Map(rows.map((row) => [row.id, row.paidStatus]));
    expect([status.get(overdue), status.get(early), status.get(plain)]).toEqual(['FullyPaid', 'FullyPaid', 'FullyPaid']);
    const [completed] = await ctx.database.db.select().from(paymentRequests).where(eq(paymentRequests.id, paymentRequestId));
    expect(completed!.requestStatus).toBe('Completed');

    // The statement now lists only what is still open.
    const after = (await open('GET', `statements/${token}`)).json();
    expect(after.invoices.map((i: { transactionId: string }) => i.transactionId)).toEqual([euro]);
  });

  it("never reaches another company's invoice through a link (cross-tenant)", async () => {
    const mine = await insertAccount(ctx, admin);
    await insertInvoice(ctx, admin, mine, { amount: '10', transactionDate: day(-1), dueDate: day(10) });
    const theirs = await insertAccount(ctx, rival);
    const theirInvoice = await insertInvoice(ctx, rival, theirs, { amount: '99', transactionDate: day(-1), dueDate: day(10) });
    const token = await linkOf(admin, mine);
    const page = (await open('GET', `statements/${token}`)).json();
    expect(page.invoices.map((i: { transactionId: string }) => i.transactionId)).not.toContain(theirInvoice);
    const pay = await open('POST', `statements/${token}/pay`, { transactionIds: [theirInvoice] });
    expect(pay.statusCode).toBe(422);
    expect(pay.json().errors['transactionIds.0']).toEqual([statementMessages.notOnStatement]);
    const requests = await ctx.database.db.select().from(paymentRequests).where(eq(paymentRequests.accountId, theirs));
    expect(requests).toEqual([]);
  });

  it('downloads the statement as a PDF', async () => {
    const accountId = await insertAccount(ctx, admin, { name: 'Pdf Ltd', accountReference: 'PDF-1' });
    const invoice = await insertInvoice(ctx, admin, accountId, { amount: '42', transactionDate: day(-3), dueDate: day(27) });
    const [row] = await ctx.database.db.select().from(transactions).where(eq(transactions.id, invoice));
    const token = await linkOf(admin, accountId);
    const response = await open('GET', `statements/${token}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="statement-PDF-1-${day(0)}.pdf"`);
    const text = response.rawPayload.toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text).toContain(`(${row!.transactionReference})`);
    expect(text).toContain('(GBP 42.00)');
    expect(text).toContain('(Account: Pdf Ltd \\(PDF-1\\))');
  });
});
