import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import { payQuotes } from '../../db/schema-pay.js';
import {
  paymentAllocations,
  paymentFeeTransactions,
  paymentRequestAllocations,
  paymentRequests,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import { editBoundsOf, mayEditAmount } from './edit-rule.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';

describe('the rule: may the payer edit an invoice amount', () => {
  const account = (editPaymentStatus: string, editPaymentOverrideStatus = 'UseAccountStatus') => ({
    editPaymentStatus,
    editPaymentOverrideStatus,
  });
  it.each([
    // [account, company default, canEditAmount, editable]
    [null, 'Disable', true, false],
    [null, 'Allow', null, true],
    [account('Default'), 'Disable', true, false],
    [account('Default'), 'Allow', false, true],
    [account('Allow'), 'Disable', false, true],
    [account('Disable'), 'Allow', true, false],
    [account('Default', 'UsePaymentRequest'), 'Allow', false, false],
    [account('Disable', 'UsePaymentRequest'), 'Disable', true, true],
    [account('Allow', 'UsePaymentRequest'), 'Allow', null, false],
    [account('Default'), undefined, true, false],
  ] as const)('account %o, company %s, canEditAmount %s → %s', (acc, company, can, expected) => {
    expect(mayEditAmount(acc, company, { canEditAmount: can })).toBe(expected);
  });

  it('bounds: minimum 0.01 by default, maximum the smaller of the allocation and the invoice', () => {
    const none = { canEditAmount: true, required: null, minimumAmount: null, maximumAmount: null };
    const plain = editBoundsOf(none, new Big('475.5'), 2);
    expect([
      plain.minimumAmount.toFixed(2),
      plain.maximumAmount.toFixed(2),
      plain.required,
    ]).toEqual(['0.01', '475.50', true]);
    const capped = editBoundsOf(
      { ...none, required: false, minimumAmount: '50', maximumAmount: '300' },
      new Big('475.5'),
      2,
    );
    expect([
      capped.minimumAmount.toFixed(2),
      capped.maximumAmount.toFixed(2),
      capped.required,
    ]).toEqual(['50.00', '300.00', false]);
    // A maximum above the invoice: the invoice; a minimum above the maximum: the maximum.
    const over = editBoundsOf(
      { ...none, minimumAmount: '600', maximumAmount: '900' },
      new Big('475.5'),
      2,
    );
    expect([over.minimumAmount.toFixed(2), over.maximumAmount.toFixed(2)]).toEqual([
      '475.50',
      '475.50',
    ]);
    expect(editBoundsOf(none, new Big('1000'), 0).minimumAmount.toFixed(0)).toBe('1');
  });
});

let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let sandboxId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-pay-edit-'));

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });

async function companyDefault(value: 'Allow' | 'Disable') {
  const response = await call(admin, 'PUT', 'company-settings/preferences', {
    defaultEditPaymentStatus: value,
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

async function allocation(
  requestId: string,
  transactionId: string,
  values: Partial<typeof paymentRequestAllocations.$inferInsert>,
) {
  await ctx.database.withTenant(admin.tenantId, (tx) =>
    tx
      .update(paymentRequestAllocations)
      .set(values)
      .where(
        and(
          eq(paymentRequestAllocations.tenantId, admin.tenantId),
          eq(paymentRequestAllocations.paymentRequestId, requestId),
          eq(paymentRequestAllocations.transactionId, transactionId),
        ),
      ),
  );
}

async function twoInvoices(accountChoice: Parameters<typeof insertAccount>[2] = {}) {
  const account = await insertAccount(ctx, admin, accountChoice);
  const first = await insertInvoice(ctx, admin, account, {
    amount: '500',
    transactionDate: day(-2),
    dueDate: day(10),
  });
  const second = await insertInvoice(ctx, admin, account, {
    amount: '300',
    transactionDate: day(-2),
    dueDate: day(20),
  });
  const id = await insertRequest(ctx, admin, { accountId: account, usageType: 'Multiple' }, [
    first,
    second,
  ]);
  return { account, first, second, id };
}

const editableOf = async (id: string) =>
  (await pay('GET', id)).json().invoices.map((i: { editable: unknown }) => i.editable);

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir, RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Pay Edit Ltd' });
  // The Sandbox test provider belongs to demo companies.
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
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the page shows which invoices the payer may edit', () => {
  it('follows the company default, the account status, and the request when the account says so', async () => {
    await companyDefault('Disable');
    const plain = await twoInvoices();
    expect(await editableOf(plain.id)).toEqual([null, null]);

    await companyDefault('Allow');
    expect(await editableOf(plain.id)).toEqual([
      { minimumAmount: 0.01, maximumAmount: 500, required: true },
      { minimumAmount: 0.01, maximumAmount: 300, required: true },
    ]);
    const disabled = await twoInvoices({ editPaymentStatus: 'Disable' });
    expect(await editableOf(disabled.id)).toEqual([null, null]);

    await companyDefault('Disable');
    const allowed = await twoInvoices({ editPaymentStatus: 'Allow' });
    expect((await editableOf(allowed.id))[1]).toEqual({
      minimumAmount: 0.01,
      maximumAmount: 300,
      required: true,
    });

    // UsePaymentRequest: each allocation's canEditAmount decides, with its bounds.
    const byRequest = await twoInvoices({
      editPaymentStatus: 'Allow',
      editPaymentOverrideStatus: 'UsePaymentRequest',
    });
    await allocation(byRequest.id, byRequest.second, {
      canEditAmount: true,
      required: false,
      minimumAmount: '50',
      maximumAmount: '250',
    });
    expect(await editableOf(byRequest.id)).toEqual([
      null,
      { minimumAmount: 50, maximumAmount: 250, required: false },
    ]);
    // The request's own Transaction request shape is unchanged otherwise.
    const page = (await pay('GET', byRequest.id)).json();
    expect(page.amountToPay).toBe(800);
  });
});

describe('starting a payment with chosen amounts', () => {
  it('refuses amounts outside the bounds with clear messages', async () => {
    await companyDefault('Disable');
    const { id, first, second } = await twoInvoices({
      editPaymentOverrideStatus: 'UsePaymentRequest',
    });
    await allocation(id, second, {
      canEditAmount: true,
      minimumAmount: '50',
      maximumAmount: '250',
    });
    const reference = (await pay('GET', id)).json().invoices[1].reference as string;
    const start = (invoices: object[]) =>
      pay('POST', `${id}/payments`, { configurationId: sandboxId, invoices });
    const refused = async (invoices: object[], field: string, message: string) => {
      const response = await start(invoices);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().detail).toBe(message);
      expect(response.json().errors[field]).toEqual([message]);
    };

    await refused(
      [{ transactionId: first, amount: 100 }],
      'invoices.0.transactionId',
      'The amount of this invoice cannot be changed. Pay it in full.',
    );
    await refused(
      [{ transactionId: second, amount: 49.99 }],
      'invoices.0.amount',
      `Enter at least GBP 50.00 for invoice ${reference}.`,
    );
    await refused(
      [{ transactionId: second, amount: 250.01 }],
      'invoices.0.amount',
      `Enter at most GBP 250.00 for invoice ${reference}.`,
    );
    await refused(
      [{ transactionId: second, amount: 0 }],
      'invoices.0.amount',
      `Invoice ${reference} must be paid: enter at least GBP 50.00.`,
    );
    await refused(
      [{ transactionId: second, amount: 60.005 }],
      'invoices.0.amount',
      `Enter the amount for invoice ${reference} in whole pence or cents.`,
    );
    await refused(
      [
        { transactionId: second, amount: 60 },
        { transactionId: second, amount: 70 },
      ],
      'invoices.1.transactionId',
      'List each invoice once.',
    );
    // Another company's invoice (or any invoice not on this request) is never editable here.
    const other = await signIn(ctx, { tenantName: 'Other Payee Ltd' });
    const otherAccount = await insertAccount(ctx, other);
    const otherInvoice = await insertInvoice(ctx, other, otherAccount, {
      amount: '100',
      transactionDate: day(-2),
      dueDate: day(10),
    });
    await refused(
      [{ transactionId: otherInvoice, amount: 50 }],
      'invoices.0.transactionId',
      'The amount of this invoice cannot be changed. Pay it in full.',
    );
    const untouched = await ctx.database.withTenant(other.tenantId, (tx) =>
      tx.select().from(transactions).where(eq(transactions.id, otherInvoice)),
    );
    expect(untouched[0]).toMatchObject({ allocatedAmount: '0.0000', paidStatus: 'Unpaid' });
    const negative = await start([{ transactionId: second, amount: -1 }]);
    expect(negative.statusCode).toBe(400);
    expect(negative.json().errors['invoices.0.amount']).toEqual(['Amount cannot be negative']);

    // Nothing chosen: a not-required invoice left out when it is the only one to pay.
    const single = await twoInvoices({ editPaymentOverrideStatus: 'UsePaymentRequest' });
    await allocation(single.id, single.first, { canEditAmount: true, required: false });
    await allocation(single.id, single.second, { canEditAmount: true, required: false });
    const none = await pay('POST', `${single.id}/payments`, {
      configurationId: sandboxId,
      invoices: [
        { transactionId: single.first, amount: 0 },
        { transactionId: single.second, amount: 0 },
      ],
    });
    expect(none.statusCode, none.body).toBe(422);
    expect(none.json().errors.invoices).toEqual(['Choose at least one invoice to pay.']);
    // Nothing was started by any refusal.
    const after = (await pay('GET', id)).json();
    expect(after.state).toBe('Open');
  });

  it('stores and allocates the chosen amounts: a part gives up its discount, a left-out invoice gets nothing', async () => {
    await companyDefault('Allow');
    const { id, first, second } = await twoInvoices();
    await allocation(id, second, { required: false });
    const offer = await call(admin, 'POST', `transactions/${first}/settlement-offers`, {
      type: 'AbsoluteDiscount',
      amount: 20,
      description: '£20 off',
      validUntil: day(5),
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const page = (await pay('GET', id)).json();
    expect(page.invoices[0]).toMatchObject({ discount: 20, amountToPay: 480 });
    expect(page.invoices[0].editable).toEqual({
      minimumAmount: 0.01,
      maximumAmount: 480,
      required: true,
    });
    expect(page.invoices[1].editable).toEqual({
      minimumAmount: 0.01,
      maximumAmount: 300,
      required: false,
    });

    const started = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      invoices: [
        { transactionId: first, amount: 200 },
        { transactionId: second, amount: 0 },
      ],
    });
    expect(started.statusCode, started.body).toBe(201);
    const { paymentId, amount } = started.json();
    expect(amount).toBe(200);
    const [quote] = await ctx.database.db
      .select()
      .from(payQuotes)
      .where(eq(payQuotes.paymentTransactionId, paymentId));
    expect(quote!.offered).toMatchObject({
      invoices: [
        {
          transactionId: first,
          outstandingAmount: '500',
          discount: '0',
          offer: null,
          fees: [],
          amountToPay: '200',
          paidAmount: '200',
        },
      ],
      discountTotal: '0',
      feeTotal: '0',
      total: '200',
    });

    const paid = await pay('POST', `${id}/payments/${paymentId}/sandbox`, {
      cardholderName: 'Pat Payer',
      cardNumber: sandboxCards.succeeds,
      expiry: '12/30',
      cvc: '123',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().outcome).toBe('Succeeded');
    const allocations = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, paymentId));
    expect(allocations).toHaveLength(1);
    expect(allocations[0]).toMatchObject({
      transactionId: first,
      allocatedAmount: '200.0000',
      discountedAmount: '0.0000',
      settlementOfferId: null,
    });
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.tenantId, admin.tenantId)));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(first)).toMatchObject({ allocatedAmount: '200.0000', paidStatus: 'PartPaid' });
    expect(byId.get(second)).toMatchObject({ allocatedAmount: '0.0000', paidStatus: 'Unpaid' });
    const [kept] = await ctx.database.db
      .select()
      .from(settlementOffers)
      .where(eq(settlementOffers.id, offer.json().id));
    expect(kept!.status).not.toBe('Used');
    const [request] = await ctx.database.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.id, id));
    expect(request!.requestStatus).toBe('PartCompleted');

    // What is left: 300 of the first (the offer still applies), all of the second, paid in full.
    const left = (await pay('GET', id)).json();
    expect(left.invoices[0]).toMatchObject({
      outstandingAmount: 300,
      discount: 20,
      amountToPay: 280,
    });
    const rest = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      invoices: [{ transactionId: first, amount: 280 }],
    });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().amount).toBe(580);
    await pay('POST', `${id}/payments/${rest.json().paymentId}/sandbox`, {
      cardholderName: 'Pat Payer',
      cardNumber: sandboxCards.succeeds,
      expiry: '12/30',
      cvc: '123',
    });
    const restAllocations = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, rest.json().paymentId));
    const byInvoice = new Map(restAllocations.map((row) => [row.transactionId, row]));
    // Paid in full: the discount applies.
    expect(byInvoice.get(first)).toMatchObject({
      allocatedAmount: '280.0000',
      discountedAmount: '20.0000',
    });
    expect(byInvoice.get(second)).toMatchObject({
      allocatedAmount: '300.0000',
      discountedAmount: '0.0000',
    });
    const [done] = await ctx.database.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.id, id));
    expect(done!.requestStatus).toBe('Completed');
  });

  it('late fees go only with the whole invoice: a part is at most what it owes before fees, and records no fees', async () => {
    const late = await call(admin, 'POST', 'late-payment-configurations', {
      type: 'Uk',
      name: 'UK statutory',
      gracePeriodInDays: 0,
    });
    await call(admin, 'PUT', 'company-settings/preferences', {
      defaultLatePaymentConfigurationId: late.json().id,
      defaultEditPaymentStatus: 'Allow',
    });
    const account = await insertAccount(ctx, admin, { name: 'Late Ltd' });
    const overdue = await insertInvoice(ctx, admin, account, {
      amount: '900',
      transactionDate: day(-60),
      dueDate: day(-30),
    });
    const id = await insertRequest(ctx, admin, { accountId: account }, [overdue]);
    const invoice = (await pay('GET', id)).json().invoices[0];
    expect(invoice.fees.length).toBeGreaterThan(0);
    expect(invoice.editable.maximumAmount).toBe(invoice.amountToPay);
    const full = `GBP ${invoice.amountToPay.toFixed(2)}`;
    const between = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      invoices: [{ transactionId: overdue, amount: 920 }],
    });
    expect(between.statusCode, between.body).toBe(422);
    expect(between.json().detail).toBe(
      `Pay invoice ${invoice.reference} in full (${full}) or at most GBP 900.00: late fees are paid only with the whole invoice.`,
    );
    const part = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      invoices: [{ transactionId: overdue, amount: 900 }],
    });
    expect(part.statusCode, part.body).toBe(201);
    await pay('POST', `${id}/payments/${part.json().paymentId}/sandbox`, {
      cardholderName: 'Pat Payer',
      cardNumber: sandboxCards.succeeds,
      expiry: '12/30',
      cvc: '123',
    });
    const fees = await ctx.database.db
      .select()
      .from(paymentFeeTransactions)
      .where(eq(paymentFeeTransactions.paymentTransactionId, part.json().paymentId));
    expect(fees).toEqual([]);
    const [allocated] = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentTransactionId, part.json().paymentId));
    expect(allocated).toMatchObject({ transactionId: overdue, allocatedAmount: '900.0000' });
  });
});
