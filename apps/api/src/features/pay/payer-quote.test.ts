import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import { paymentTransactions, transactions } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';

// What the payer page offered is shown on the merchant's payment transaction detail.

let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let sandboxId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-payer-quote-'));

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });
const card = (cardNumber: string) => ({
  cardholderName: 'Pat Payer',
  cardNumber,
  expiry: '12/30',
  cvc: '123',
});

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir, RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Payer Quote Ltd' });
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, admin);
  const sandbox = await call(admin, 'POST', 'providers', {
    providerName: 'Sandbox',
    name: 'Card (test)',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  expect(sandbox.statusCode, sandbox.body).toBe(201);
  sandboxId = sandbox.json().id;
  const late = await call(admin, 'POST', 'late-payment-configurations', {
    type: 'Uk',
    name: 'UK statutory',
    gracePeriodInDays: 0,
  });
  await call(admin, 'PUT', 'company-settings/preferences', {
    defaultLatePaymentConfigurationId: late.json().id,
  });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the payment transaction detail: what the payer page offered', () => {
  it('shows each invoice with its outstanding amount, offer, fee lines and amount, and the totals', async () => {
    const account = await insertAccount(ctx, admin, { name: 'Late And Early Ltd' });
    const early = await insertInvoice(ctx, admin, account, {
      amount: '500',
      transactionDate: day(-2),
      dueDate: day(28),
    });
    const overdue = await insertInvoice(ctx, admin, account, {
      amount: '900',
      transactionDate: day(-60),
      dueDate: day(-30),
    });
    const offer = await call(admin, 'POST', `transactions/${early}/settlement-offers`, {
      type: 'AbsoluteDiscount',
      amount: 25,
      description: '£25 off for paying this week',
      validUntil: day(5),
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const id = await insertRequest(ctx, admin, { accountId: account }, [early, overdue]);
    const page = (await pay('GET', id)).json();
    const [lateInvoice, earlyInvoice] = page.invoices;
    expect(lateInvoice.fees).toHaveLength(2);

    const before = Date.now();
    const started = await pay('POST', `${id}/payments`, { configurationId: sandboxId });
    expect(started.statusCode, started.body).toBe(201);
    const { paymentId } = started.json();
    const paid = await pay(
      'POST',
      `${id}/payments/${paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    expect(paid.json().status).toBe('Paid');

    const detail = await call(admin, 'GET', `payment-transactions/${paymentId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const { payerQuote } = detail.json();
    const references = new Map(
      (
        await ctx.database.db
          .select({ id: transactions.id, reference: transactions.transactionReference })
          .from(transactions)
          .where(eq(transactions.accountId, account))
      ).map((row) => [row.id, row.reference]),
    );
    const interest = lateInvoice.fees[0].amount as number;
    expect(interest).toBeGreaterThan(0);
    expect(payerQuote).toEqual({
      quotedAt: expect.any(String),
      quotedOn: day(0),
      currency: 'GBP',
      invoices: [
        {
          transactionId: overdue,
          reference: references.get(overdue),
          outstandingAmount: 900,
          discount: 0,
          offer: null,
          fees: [
            {
              type: 'StatutoryInterest',
              amount: interest,
              description: lateInvoice.fees[0].description,
            },
            { type: 'FixedSum', amount: 40, description: 'Fixed-sum debt recovery cost' },
          ],
          feesReason: lateInvoice.feesReason,
          chosenAmount: null,
          amountToPay: lateInvoice.amountToPay,
        },
        {
          transactionId: early,
          reference: references.get(early),
          outstandingAmount: 500,
          discount: 25,
          offer: {
            id: offer.json().id,
            source: 'Manual',
            description: '£25 off for paying this week',
            validUntil: day(5),
          },
          fees: [],
          feesReason: null,
          chosenAmount: null,
          amountToPay: 475,
        },
      ],
      discountTotal: 25,
      feeTotal: page.feeTotal,
      total: page.amountToPay,
      amountChosen: page.amountToPay,
    });
    expect(lateInvoice.feesReason).toMatch(/^This invoice was due on /);
    expect(earlyInvoice.amountToPay).toBe(475);
    expect(page.amountToPay).toBeCloseTo(475 + 900 + interest + 40, 2);
    // Quoted when the payer started: between the call and now, the payment's own creation.
    const quotedAt = Date.parse(payerQuote.quotedAt);
    expect(quotedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(quotedAt).toBeLessThanOrEqual(Date.now());
    // The rest of the detail is as before.
    expect(detail.json().paymentAllocations).toHaveLength(2);
    expect(detail.json().paymentFeeTransactions).toHaveLength(1);

    // Another tenant's staff: the same 404 as for any unknown payment.
    const other = await signIn(ctx, { tenantName: 'Other Quote Ltd' });
    const theirs = await call(other, 'GET', `payment-transactions/${paymentId}`);
    expect(theirs.statusCode).toBe(404);
    const unknown = await call(other, 'GET', `payment-transactions/${crypto.randomUUID()}`);
    const { instance: _theirs, ...theirProblem } = theirs.json();
    const { instance: _unknown, ...unknownProblem } = unknown.json();
    expect(theirProblem).toEqual(unknownProblem);
  });

  it('a part payment of an Account request: the amount the payer chose beside the full total', async () => {
    const account = await insertAccount(ctx, admin, { name: 'Account Payer Ltd' });
    const id = await insertRequest(ctx, admin, {
      accountId: account,
      usageType: 'Multiple',
      amountToPay: '100',
    });
    const started = await pay('POST', `${id}/payments`, { configurationId: sandboxId, amount: 30 });
    expect(started.statusCode, started.body).toBe(201);
    const detail = await call(admin, 'GET', `payment-transactions/${started.json().paymentId}`);
    expect(detail.json().status).toBe('Processing');
    expect(detail.json().payerQuote).toMatchObject({
      currency: 'GBP',
      invoices: [],
      discountTotal: 0,
      feeTotal: 0,
      total: 100,
      amountChosen: 30,
    });
  });

  it('is null for a payment not made on the payer page', async () => {
    const paymentId = crypto.randomUUID();
    await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx.insert(paymentTransactions).values({
        tenantId: admin.tenantId,
        datasetId: 1,
        id: paymentId,
        type: 'Payment',
        status: 'Paid',
        allocatedStatus: 'Unallocated',
        ledgerlineReference: 'LL-ERP-1',
        statusDateTime: new Date(),
        totalAmount: '10',
        currency: 'GBP',
      }),
    );
    const detail = await call(admin, 'GET', `payment-transactions/${paymentId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().payerQuote).toBeNull();
  });
});
