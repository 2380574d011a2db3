import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionQuote } from '@ledgerline/contract';
import { tenantSettings } from '../../db/schema.js';
import {
  paymentFeeTransactions,
  paymentTransactions,
  transactions,
} from '../../db/schema-receivables.js';
import {
  quoteTransactions,
  recordLatePaymentFees,
} from './money-rules.service.js';
import { setBankRate } from './set-bank-rate.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller, insertAccount, insertInvoice } from '../../../test/fixtures/money-rules.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let call: ReturnType<typeof caller>;
let groupId: string;
let latePaymentId: string;
let onDefault: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  call = caller(ctx);
  merchant = await signIn(ctx, { tenantName: 'Quotes Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Quotes Ltd' });
  const group = await call(merchant, 'POST', 'settlement-configuration-groups', {
    name: 'Two in ten',
  });
  groupId = (group.json() as { id: string }).id;
  await call(merchant, 'POST', `settlement-configuration-groups/${groupId}/configurations`, {
    type: 'PercentageDiscount',
    dateType: 'TransactionDate',
    numberOfDays: 10,
    percentageDiscount: 2,
  });
  const late = await call(merchant, 'POST', 'late-payment-configurations', {
    type: 'Uk',
    name: 'UK statutory',
    gracePeriodInDays: 5,
  });
  latePaymentId = (late.json() as { id: string }).id;
  const preferences = await call(merchant, 'PUT', 'company-settings/preferences', {
    defaultSettlementConfigurationGroupId: groupId,
    defaultLatePaymentConfigurationId: latePaymentId,
  });
  expect(preferences.statusCode).toBe(200);
  onDefault = await insertAccount(ctx, merchant);
});
afterAll(() => ctx.close());

async function quote(who: SignedIn, transactionId: string, paidOn: string) {
  const response = await call(who, 'GET', `transactions/${transactionId}/quote?paidOn=${paidOn}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as TransactionQuote;
}

describe('settlement offers in the quote', () => {
  it('generates the default group’s 2 % offer for an account on default, within 10 days', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '1500',
      transactionDate: '2026-03-02',
      dueDate: '2026-04-01',
    });
    const within = await quote(merchant, invoice, '2026-03-12');
    expect(within.offers).toEqual([
      expect.objectContaining({
        source: 'Generated',
        groupId,
        discount: 30,
        validUntil: '2026-03-12',
      }),
    ]);
    expect(within).toMatchObject({ discount: 30, amountToPay: 1470, fees: [] });
    expect((await quote(merchant, invoice, '2026-03-13')).offers).toEqual([]);
  });

  it('follows the account’s choice: none turns auto-apply off', async () => {
    const none = await insertAccount(ctx, merchant, {
      disableAutoApplySettlements: true,
      disableLatePayments: true,
    });
    const invoice = await insertInvoice(ctx, merchant, none, {
      amount: '1500',
      transactionDate: '2026-03-02',
      dueDate: '2026-04-01',
    });
    expect(await quote(merchant, invoice, '2026-03-03')).toMatchObject({
      offers: [],
      amountToPay: 1500,
    });
    expect((await quote(merchant, invoice, '2026-06-01')).fees).toEqual([]);
  });

  it('marks manual offers apart from generated ones and picks the larger', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '1000',
      transactionDate: '2026-03-02',
      dueDate: '2026-04-01',
    });
    const offer = await call(merchant, 'POST', `transactions/${invoice}/settlement-offers`, {
      type: 'AbsoluteDiscount',
      amount: 50,
      validUntil: '2026-03-20T00:00:00.000Z',
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const result = await quote(merchant, invoice, '2026-03-05');
    expect(result.offers.map((o) => o.source).sort()).toEqual(['Generated', 'Manual']);
    expect(result.bestOffer).toMatchObject({ source: 'Manual', discount: 50 });
    expect(result.amountToPay).toBe(950);
  });

  it('quotes a page of transactions with the list’s paging, each row with its figures', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '1000',
      transactionDate: '2026-03-02',
      dueDate: '2026-04-01',
    });
    const response = await call(
      merchant,
      'GET',
      'transactions/quotes?paidOn=2026-03-05&itemsPerPage=1000',
    );
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as {
      items: {
        id: string;
        quote: {
          discount: number;
          fees: number;
          amountToPay: number;
          bestOfferSource: string | null;
        };
      }[];
      totalItems: number;
    };
    expect(page.items.length).toBe(page.totalItems);
    const row = page.items.find((item) => item.id === invoice)!;
    expect(row.quote).toEqual({
      discount: 20,
      fees: 0,
      amountToPay: 980,
      bestOfferSource: 'Generated',
    });
    // Every row's figures equal its own quote.
    for (const item of page.items.slice(0, 5)) {
      const single = await quote(merchant, item.id, '2026-03-05');
      expect(item.quote.amountToPay).toBe(single.amountToPay);
      expect(item.quote.fees).toBe(single.fees.reduce((sum, fee) => sum + fee.amount, 0));
    }
  });
});

describe('a quoted page', () => {
  it('gives each row its own manual offers, held to their days, and its own account’s choice', async () => {
    const none = await insertAccount(ctx, merchant, { disableAutoApplySettlements: true });
    const invoice = (account: string) =>
      insertInvoice(ctx, merchant, account, {
        amount: '1000',
        transactionDate: '2026-05-02',
        dueDate: '2026-06-01',
      });
    const onNone = await invoice(none);
    const withOffer = await invoice(onDefault);
    const plain = await invoice(onDefault);
    const offer = await call(merchant, 'POST', `transactions/${withOffer}/settlement-offers`, {
      type: 'AbsoluteDiscount',
      amount: 50,
      validFrom: '2026-05-04',
      validUntil: '2026-05-06',
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const quotes = async (paidOn: string) => {
      const response = await call(
        merchant,
        'GET',
        `transactions/quotes?paidOn=${paidOn}&itemsPerPage=1000`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const items = (
        response.json() as {
          items: { id: string; quote: { discount: number; bestOfferSource: string | null } }[];
        }
      ).items;
      const of = (id: string) => items.find((item) => item.id === id)!.quote;
      return [of(onNone), of(withOffer), of(plain)].map(
        (row) => `${row.discount} ${row.bestOfferSource}`,
      );
    };
    expect(await quotes('2026-05-03')).toEqual(['0 null', '20 Generated', '20 Generated']);
    expect(await quotes('2026-05-04')).toEqual(['0 null', '50 Manual', '20 Generated']);
    expect(await quotes('2026-05-06')).toEqual(['0 null', '50 Manual', '20 Generated']);
    expect(await quotes('2026-05-07')).toEqual(['0 null', '20 Generated', '20 Generated']);
    // The same invoice twice (a caller's list with a repeat) still has its one manual offer.
    const [row] = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select().from(transactions).where(eq(transactions.id, withOffer)),
    );
    const twice = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      quoteTransactions(
        tx,
        { tenantId: merchant.tenantId, datasetId: 1 },
        [row!, row!],
        '2026-05-05',
      ),
    );
    expect(twice.map((q) => q.offers.filter((o) => o.source === 'Manual').length)).toEqual([1, 1]);
    const single = await quote(merchant, withOffer, '2026-05-05');
    expect(single.offers.find((o) => o.source === 'Manual')).toMatchObject({
      validUntil: '2026-05-06',
      discount: 50,
    });
  });
});

describe('late-payment fees in the quote', () => {
  it('charges a £5,000 invoice 40 days overdue (5 days grace): the £70 fixed sum and 35 days at 11.75 %', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '5000',
      transactionDate: '2026-01-05',
      dueDate: '2026-02-04',
    });
    const result = await quote(merchant, invoice, '2026-03-16');
    expect(result.latePayment).toMatchObject({
      configurationId: latePaymentId,
      interestStart: '2026-02-10',
      daysLate: 35,
      referenceRate: 3.75,
      annualRate: 11.75,
      notApplied: null,
    });
    expect(result.fees).toEqual([
      expect.objectContaining({ type: 'StatutoryInterest', amount: 56.34 }),
      expect.objectContaining({ type: 'FixedSum', amount: 70 }),
    ]);
    expect(result.amountToPay).toBe(5126.34);
  });

  it('charges nothing in another currency, and nothing when the tenant has late payments off', async () => {
    const euro = await insertInvoice(ctx, merchant, onDefault, {
      amount: '5000',
      transactionDate: '2026-01-05',
      dueDate: '2026-02-04',
      currency: 'EUR',
    });
    expect(await quote(merchant, euro, '2026-03-16')).toMatchObject({
      fees: [],
      amountToPay: 5000,
      latePayment: { notApplied: 'CurrencyNotGbp' },
    });
    const gbp = await insertInvoice(ctx, merchant, onDefault, {
      amount: '5000',
      transactionDate: '2026-01-05',
      dueDate: '2026-02-04',
    });
    const setting = and(
      eq(tenantSettings.tenantId, merchant.tenantId),
      eq(tenantSettings.name, 'AllowLatePayments'),
    );
    await ctx.database.db.update(tenantSettings).set({ value: 'false' }).where(setting);
    expect(await quote(merchant, gbp, '2026-03-16')).toMatchObject({
      fees: [],
      latePayment: { notApplied: 'LatePaymentsNotEnabled' },
    });
    await ctx.database.db.update(tenantSettings).set({ value: 'true' }).where(setting);
  });

  it('uses a Bank Rate the operator command added', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '10000',
      transactionDate: '2026-05-01',
      dueDate: '2026-06-25',
    });
    // Interest starts 2026-07-01: the reference rate is the Bank Rate on 30 June 2026.
    expect((await quote(merchant, invoice, '2026-07-30')).latePayment).toMatchObject({
      referenceRate: 3.75,
    });
    await setBankRate(ctx.database, '2026-05-07', '3.50');
    const result = await quote(merchant, invoice, '2026-07-30');
    expect(result.latePayment).toMatchObject({
      interestStart: '2026-07-01',
      referenceRate: 3.5,
      annualRate: 11.5,
      daysLate: 30,
    });
    // 10,000 × 11.5 % × 30 / 365 = 94.5205…
    expect(result.fees).toEqual([
      expect.objectContaining({ type: 'StatutoryInterest', amount: 94.52 }),
      expect.objectContaining({ type: 'FixedSum', amount: 100 }),
    ]);
    await expect(setBankRate(ctx.database, '2026-13-01', '3')).rejects.toThrow(
      '--from must be a date',
    );
    await expect(setBankRate(ctx.database, '2026-09-01', 'high')).rejects.toThrow(
      '--rate must be a percentage',
    );
  });

  it('records the fee lines with a payment, in the caller’s transaction (the payer page’s write path)', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '5000',
      transactionDate: '2026-01-05',
      dueDate: '2026-02-04',
    });
    const paymentId = randomUUID();
    const recorded = await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.insert(paymentTransactions).values({
        tenantId: merchant.tenantId,
        datasetId: 1,
        id: paymentId,
        type: 'Payment',
        status: 'Successful',
        ledgerlineReference: `LL-${paymentId.slice(0, 8)}`,
        statusDateTime: new Date('2026-03-16T10:00:00Z'),
        totalAmount: '5126.34',
        currency: 'GBP',
      });
      return recordLatePaymentFees(
        tx,
        { tenantId: merchant.tenantId, datasetId: 1 },
        { paymentTransactionId: paymentId, transactionId: invoice, paidOn: '2026-03-16' },
      );
    });
    expect(recorded?.feeDetails.map((fee) => fee.amount)).toEqual([56.34, 70]);
    const [row] = await ctx.database.db
      .select()
      .from(paymentFeeTransactions)
      .where(eq(paymentFeeTransactions.paymentTransactionId, paymentId));
    expect(row?.transactionId).toBe(invoice);
    const detail = await call(merchant, 'GET', `transactions/${invoice}`);
    expect(
      (detail.json() as { paymentFeeTransactions: object[] }).paymentFeeTransactions,
    ).toHaveLength(1);
  });
});

describe('cross-tenant', () => {
  it('answers 404 for another tenant’s transaction and leaves it out of the page', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '100',
      transactionDate: '2026-03-02',
      dueDate: null,
    });
    expect((await call(rival, 'GET', `transactions/${invoice}/quote`)).statusCode).toBe(404);
    const page = await call(rival, 'GET', 'transactions/quotes');
    expect((page.json() as { items: { id: string }[] }).items.map((item) => item.id)).not.toContain(
      invoice,
    );
    expect((await call(merchant, 'GET', `transactions/${invoice}/quote`)).statusCode).toBe(200);
  });

  it('refuses a malformed paidOn', async () => {
    const invoice = await insertInvoice(ctx, merchant, onDefault, {
      amount: '100',
      transactionDate: '2026-03-02',
      dueDate: null,
    });
    expect(
      (await call(merchant, 'GET', `transactions/${invoice}/quote?paidOn=2026-02-30`)).statusCode,
    ).toBe(400);
  });
});
