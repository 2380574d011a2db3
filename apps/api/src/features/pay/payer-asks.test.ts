import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import { payQuotes } from '../../db/schema-pay.js';
import {
  paymentAllocations,
  paymentRequests,
  transactions,
} from '../../db/schema-receivables.js';
import { createPaymentRequestExpiry } from '../payment-requests/payment-requests.expiry.js';
import { createPaymentRequestsRepository } from '../payment-requests/payment-requests.repository.js';
import { createPaymentRequestsService } from '../payment-requests/payment-requests.service.js';
import { createJobs } from '../../platform/jobs.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

/**
 * The payer is asked what the request asks, links open on valid-from
 * and close on valid-until (payment-required-by only makes them overdue), and no default
 * provider means no payments.
 */
let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let sandboxId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-pay-asks-'));

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });

const card = {
  cardholderName: 'Pat Payer',
  cardNumber: sandboxCards.succeeds,
  expiry: '12/30',
  cvc: '123',
};

async function sandbox(who: SignedIn, name: string) {
  const response = await call(who, 'POST', 'providers', {
    providerName: 'Sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
    name,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

/** A Transaction request made through the API for part of one invoice. */
async function partRequest(
  amount: number | null,
  invoiceAmount = '500',
  extra: object = {},
  account: Parameters<typeof insertAccount>[2] = {},
) {
  const accountId = await insertAccount(ctx, admin, account);
  const invoice = await insertInvoice(ctx, admin, accountId, {
    amount: invoiceAmount,
    transactionDate: day(-2),
    dueDate: day(20),
  });
  const created = await call(admin, 'POST', 'payment-requests', {
    requestType: 'Transaction',
    accountId,
    transactionAllocations: [{ transactionId: invoice, amount }],
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json().id as string, invoice, accountId, staff: created.json() };
}

async function payWithCard(id: string, body: object = {}) {
  const started = await pay('POST', `${id}/payments`, { configurationId: sandboxId, ...body });
  expect(started.statusCode, started.body).toBe(201);
  const paid = await pay('POST', `${id}/payments/${started.json().paymentId}/sandbox`, card);
  expect(paid.statusCode, paid.body).toBe(200);
  expect(paid.json().outcome).toBe('Succeeded');
  return started.json() as { paymentId: string; amount: number };
}

async function invoiceRow(id: string) {
  const [row] = await ctx.database.db.select().from(transactions).where(eq(transactions.id, id));
  return row!;
}

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir, RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Payer Asks Ltd' });
  await makeDemoCompany(ctx, admin);
  // The first configuration is the company's default.
  sandboxId = await sandbox(admin, 'Card (test)');
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the payer is asked what the request asks', () => {
  it('a Transaction request for £200 of a £500 invoice shows "Total to pay" £200.00 and takes £200', async () => {
    const { id, invoice, staff } = await partRequest(200);
    expect(staff.amountToPay).toBe(200);
    const page = (await pay('GET', id)).json();
    expect(page.amountToPay).toBe(200);
    expect(page.invoices).toEqual([
      expect.objectContaining({
        transactionId: invoice,
        outstandingAmount: 500,
        amountToPay: 200,
        amountInFull: 500,
        discount: 0,
        fees: [],
        editable: null,
      }),
    ]);
    const { paymentId, amount } = await payWithCard(id);
    expect(amount).toBe(200);
    const [quote] = await ctx.database.db
      .select()
      .from(payQuotes)
      .where(eq(payQuotes.paymentTransactionId, paymentId));
    expect(quote!.offered).toMatchObject({
      invoices: [{ transactionId: invoice, amountToPay: '200', paidAmount: '200' }],
      total: '200',
      amountOffered: '200',
    });
    const allocations = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, paymentId));
    expect(allocations.map((a) => [a.transactionId, a.allocatedAmount])).toEqual([
      [invoice, '200.0000'],
    ]);
    expect(await invoiceRow(invoice)).toMatchObject({
      allocatedAmount: '200.0000',
      paidStatus: 'PartPaid',
    });
    expect((await pay('GET', id)).json().state).toBe('Completed');
  });

  it('asks for the whole invoice, with its discount, when the allocation is all it owes', async () => {
    const { id, invoice } = await partRequest(500);
    const offer = await call(admin, 'POST', `transactions/${invoice}/settlement-offers`, {
      type: 'AbsoluteDiscount',
      amount: 20,
      validUntil: day(5),
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const page = (await pay('GET', id)).json();
    expect(page.invoices[0]).toMatchObject({ discount: 20, amountToPay: 480, amountInFull: 480 });
    expect(page.amountToPay).toBe(480);
  });

  it('a Multiple request asks only what its own payments have not yet paid of the allocation', async () => {
    const { id, invoice } = await partRequest(
      200,
      '500',
      { usageType: 'Multiple' },
      { editPaymentOverrideStatus: 'UsePaymentRequest' },
    );
    const edited = await call(
      admin,
      'PATCH',
      `payment-requests/${id}/transaction-allocation-info`,
      [{ transactionId: invoice, canEditAmount: true, minimumAmount: 50, maximumAmount: 200 }],
    );
    expect(edited.statusCode, edited.body).toBe(200);
    await payWithCard(id, { invoices: [{ transactionId: invoice, amount: 80 }] });
    const page = (await pay('GET', id)).json();
    expect(page.state).toBe('PartCompleted');
    expect(page.invoices[0]).toMatchObject({ amountToPay: 120, amountInFull: 420 });
    expect(page.amountToPay).toBe(120);
    await payWithCard(id);
    expect(await invoiceRow(invoice)).toMatchObject({ allocatedAmount: '200.0000' });
    // Everything the request asked is paid: nothing more is asked of the payer.
    const after = (await pay('GET', id)).json();
    expect(after).toMatchObject({ state: 'Completed', amountToPay: 0, methods: [] });
  });

  it('editing the allocation info recomputes the amount to pay; the payer may change it within min and max', async () => {
    const { id, invoice, accountId } = await partRequest(
      200,
      '500',
      {},
      {
        editPaymentOverrideStatus: 'UsePaymentRequest',
      },
    );
    const second = await insertInvoice(ctx, admin, accountId, {
      amount: '300',
      transactionDate: day(-2),
      dueDate: day(25),
    });
    const edited = await call(
      admin,
      'PATCH',
      `payment-requests/${id}/transaction-allocation-info`,
      [
        {
          transactionId: invoice,
          amount: 150,
          canEditAmount: true,
          minimumAmount: 100,
          maximumAmount: 300,
        },
      ],
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().amountToPay).toBe(150);
    const [stored] = await ctx.database.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.id, id));
    expect(stored!.amountToPay).toBe('150.0000');
    // The audit trail has the edit; the page asks the new amount, editable within the bounds.
    const page = (await pay('GET', id)).json();
    expect(page.amountToPay).toBe(150);
    expect(page.invoices[0]).toMatchObject({
      amountToPay: 150,
      editable: { minimumAmount: 100, maximumAmount: 300, required: true },
    });
    const reference = page.invoices[0].reference as string;
    const refused = async (invoices: object[], field: string, message: string) => {
      const response = await pay('POST', `${id}/payments`, {
        configurationId: sandboxId,
        invoices,
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().detail).toBe(message);
      expect(response.json().errors[field]).toEqual([message]);
    };
    await refused(
      [{ transactionId: invoice, amount: 99.99 }],
      'invoices.0.amount',
      `Enter at least GBP 100.00 for invoice ${reference}.`,
    );
    await refused(
      [{ transactionId: invoice, amount: 300.01 }],
      'invoices.0.amount',
      `Enter at most GBP 300.00 for invoice ${reference}.`,
    );
    // Required: it cannot be left out.
    await refused(
      [{ transactionId: invoice, amount: 0 }],
      'invoices.0.amount',
      `Invoice ${reference} must be paid: enter at least GBP 100.00.`,
    );
    // An invoice the request does not ask for cannot be added.
    await refused(
      [{ transactionId: second, amount: 10 }],
      'invoices.0.transactionId',
      'The amount of this invoice cannot be changed. Pay it in full.',
    );
    const { paymentId, amount } = await payWithCard(id, {
      invoices: [{ transactionId: invoice, amount: 250 }],
    });
    expect(amount).toBe(250);
    const allocations = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, paymentId));
    expect(allocations.map((a) => a.allocatedAmount)).toEqual(['250.0000']);
  });

  it('an allocation without an amount counts what the invoice owes when the request is recomputed', async () => {
    const { id, invoice } = await partRequest(120);
    const edited = await call(
      admin,
      'PATCH',
      `payment-requests/${id}/transaction-allocation-info`,
      [{ transactionId: invoice, required: true }],
    );
    expect(edited.statusCode, edited.body).toBe(200);
    // An absent amount keeps the stored one.
    expect(edited.json().amountToPay).toBe(120);
  });
});

describe('links: valid-from opens, valid-until closes, payment-required-by marks lateness', () => {
  it('says the link is not open before valid-from, and refuses a payment then', async () => {
    const accountId = await insertAccount(ctx, admin);
    const opensOn = new Date(Date.now() + 2 * 86_400_000);
    const id = await insertRequest(ctx, admin, { accountId, validFrom: opensOn });
    const page = (await pay('GET', id)).json();
    expect(page).toMatchObject({
      state: 'NotYetOpen',
      validFrom: opensOn.toISOString(),
      methods: [],
    });
    const start = await pay('POST', `${id}/payments`, { configurationId: sandboxId });
    expect(start.statusCode).toBe(409);
    expect(start.json().detail).toBe(
      'This payment link is not open yet. You can pay from the time it shows.',
    );
    // Opened a minute ago: payable.
    const opened = await insertRequest(ctx, admin, {
      accountId,
      validFrom: new Date(Date.now() - 60_000),
    });
    expect((await pay('GET', opened)).json()).toMatchObject({ state: 'Open', overdue: false });
  });

  it('an overdue request stays payable until valid-until, says so and quotes the late fees', async () => {
    const late = await call(admin, 'POST', 'late-payment-configurations', {
      type: 'Uk',
      name: 'UK statutory',
      gracePeriodInDays: 0,
    });
    expect(late.statusCode, late.body).toBe(201);
    await call(admin, 'PUT', 'company-settings/preferences', {
      defaultLatePaymentConfigurationId: late.json().id,
    });
    const accountId = await insertAccount(ctx, admin);
    const invoice = await insertInvoice(ctx, admin, accountId, {
      amount: '900',
      transactionDate: day(-60),
      dueDate: day(-30),
    });
    const id = await insertRequest(
      ctx,
      admin,
      {
        accountId,
        paymentRequiredBy: day(-1),
        validUntil: new Date(Date.now() + 10 * 86_400_000),
      },
      [invoice],
    );
    const page = (await pay('GET', id)).json();
    expect(page).toMatchObject({ state: 'Open', overdue: true, paymentRequiredBy: day(-1) });
    expect(page.feeTotal).toBeGreaterThan(0);
    expect(page.amountToPay).toBeGreaterThan(900);
    expect(page.methods.map((m: { configurationId: string }) => m.configurationId)).toContain(
      sandboxId,
    );
    // Staff see it Open, and the expiry sweep leaves it so; past valid-until it expires.
    const expired = await insertRequest(ctx, admin, {
      accountId,
      paymentRequiredBy: day(5),
      validUntil: new Date(Date.now() - 60_000),
    });
    const expiry = createPaymentRequestExpiry({
      database: ctx.database,
      jobs: createJobs(ctx.database, ctx.app.log),
      service: createPaymentRequestsService({
        repository: createPaymentRequestsRepository(),
        publicUrl: ctx.config.publicUrl,
      }),
      log: ctx.app.log,
      afterExpired: async () => undefined,
    });
    await expiry.expire();
    const status = async (requestId: string) =>
      (await call(admin, 'GET', `payment-requests/${requestId}`)).json().requestStatus;
    expect(await status(id)).toBe('Open');
    expect(await status(expired)).toBe('Expired');
    expect((await pay('GET', expired)).json()).toEqual({ state: 'Expired' });
    const { amount } = await payWithCard(id);
    expect(amount).toBe(page.amountToPay);
  });
});

describe('no default provider, no payments (spec 3 §1)', () => {
  it('offers nothing without a default, or with a disabled one; only configurations that can take money', async () => {
    const company = await signIn(ctx, { tenantName: 'No Default Ltd' });
    await makeDemoCompany(ctx, company);
    const first = await sandbox(company, 'First card');
    const second = await sandbox(company, 'Second card');
    const accountId = await insertAccount(ctx, company);
    const id = await insertRequest(ctx, company, { accountId });
    const methods = async () =>
      (await pay('GET', id))
        .json()
        .methods.map((m: { configurationId: string }) => m.configurationId);
    expect(await methods()).toEqual([first, second]);

    // The default disabled: no payments, though another configuration is enabled.
    const disabled = await call(company, 'PUT', 'providers', {
      ...(await call(company, 'GET', `providers/${first}`)).json(),
      enabled: false,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(await methods()).toEqual([]);
    const refused = await pay('POST', `${id}/payments`, { configurationId: second });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe(
      'This way to pay is not available for this request. Please choose another.',
    );

    // The default deleted: still none.
    expect((await call(company, 'DELETE', `providers/${first}`)).statusCode).toBe(204);
    expect(await methods()).toEqual([]);
    expect((await pay('GET', id)).json().state).toBe('Open');

    // Made the default: offered again.
    const made = await call(company, 'PUT', 'providers/default', { paymentProviderId: second });
    expect(made.statusCode, made.body).toBeLessThan(300);
    expect(await methods()).toEqual([second]);
  });
});
