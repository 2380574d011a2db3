import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reportMessages, sandboxCards } from '@ledgerline/contract';
import { users } from '../../db/schema.js';
import { parseCsv } from '../../platform/csv.js';
import { countbackDso } from './reports.service.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { day, insertRequest } from '../../../test/fixtures/pay.js';

/*
 * The aged receivables against a hand-computed set. Account A's invoices fall due 0, 1,
 * 30, 31, 60, 61, 90 and 91 days before today (raised 30 days before that); account C's are raised
 * those days before today (due 30 days later). Amounts 1, 2, 4 … 128, so a bucket's sum names its
 * invoices. Account B has the money: an invoice paid today, one paid and part refunded, a credit
 * note, an invoice part paid in the ERP and one whose payment is only reserved.
 */

let ctx: TestContext;
let admin: SignedIn;
let viewer: SignedIn;
let sandboxId: string;
const ages = [0, 1, 30, 31, 60, 61, 90, 91];
const ids: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };

const call = (who: SignedIn, method: 'GET' | 'POST', url: string, payload?: object, extra = {}) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1', ...extra }),
    payload,
  });

async function created(method: 'POST', url: string, payload: object) {
  const response = await call(admin, method, url, payload);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

async function transaction(
  accountId: string,
  reference: string,
  values: { type?: string; amount: number; raised: string; due: string; allocated?: number },
) {
  const body = await created('POST', 'transactions', {
    accountId,
    transactionReference: reference,
    transactionType: values.type ?? 'Invoice',
    transactionDate: values.raised,
    dueDate: values.due,
    currency: 'GBP',
    transactionAmount: values.amount,
    allocatedAmount: values.allocated ?? 0,
  });
  return body.id as string;
}

/** A request for one invoice paid on the payer page with the Sandbox card (reserved under Reserve). */
async function pay(
  accountId: string,
  invoiceId: string,
  amount: string,
  captureType = 'Immediate',
  cardNumber: string = sandboxCards.succeeds,
) {
  const requestId = await insertRequest(
    ctx,
    admin,
    { accountId, amountToPay: amount, captureType },
    [invoiceId],
  );
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: { configurationId: sandboxId },
  });
  expect(started.statusCode, started.body).toBe(201);
  const paymentId = started.json().paymentId as string;
  const paid = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments/${paymentId}/sandbox`,
    payload: { cardholderName: 'Pat Payer', cardNumber, expiry: '12/30', cvc: '123' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  if (cardNumber === sandboxCards.declined) expect(paid.json().status).not.toBe('Paid');
  else expect(paid.json().status).toBe(captureType === 'Reserve' ? 'Pending' : 'Paid');
  return paymentId;
}

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  admin = await signIn(ctx, { tenantName: 'Aged Ltd' });
  await makeDemoCompany(ctx, admin);
  viewer = await signIn(ctx, { tenantName: 'Aged Viewer Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  const provider = await created('POST', 'providers', {
    providerName: 'Sandbox',
    name: 'Sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  sandboxId = provider.id;
  for (const [key, name] of [
    ['A', 'Alpha Ltd'],
    ['B', 'Bravo Ltd'],
    ['C', 'Charlie Ltd'],
  ] as const)
    ids[key] = (await created('POST', 'accounts', { accountReference: `AGED-${key}`, name, currency: 'GBP' })).id;
  for (const [i, age] of ages.entries()) {
    await transaction(ids.A, `A-${age}`, { amount: 2 ** i, raised: day(-age - 30), due: day(-age) });
    await transaction(ids.C, `C-${age}`, { amount: 2 ** i, raised: day(-age), due: day(-age + 30) });
  }
  const paidToday = await transaction(ids.B, 'B1', { amount: 300, raised: day(-5), due: day(25) });
  await pay(ids.B, paidToday, '300');
  const refunded = await transaction(ids.B, 'B2', { amount: 200, raised: day(-40), due: day(-10) });
  const payment = await pay(ids.B, refunded, '200');
  const refund = await call(admin, 'POST', `payment-transactions/${payment}/refund`, { amount: 50 });
  expect(refund.statusCode, refund.body).toBeLessThan(300);
  await transaction(ids.B, 'B3', { type: 'CreditNote', amount: 40, raised: day(-45), due: day(-45) });
  const partPaid = await transaction(ids.B, 'B4', { amount: 500, raised: day(-100), due: day(-70), allocated: 120 });
  // A declined card: a failed payment, which settles nothing.
  await pay(ids.B, partPaid, '380', 'Immediate', sandboxCards.declined);
  const reserved = await transaction(ids.B, 'B5', { amount: 70, raised: day(-2), due: day(28) });
  await pay(ids.B, reserved, '70', 'Reserve');
  // Another tenant's debts never show.
  const rival = await signIn(ctx, { tenantName: 'Aged Rival Ltd' });
  const theirs = await call(rival, 'POST', 'accounts', { accountReference: 'AGED-A', name: 'Rival', currency: 'GBP' });
  await call(rival, 'POST', 'transactions', {
    accountId: theirs.json().id,
    transactionReference: 'R-1',
    transactionType: 'Invoice',
    transactionDate: day(-200),
    dueDate: day(-170),
    currency: 'GBP',
    transactionAmount: 9999,
  });
}, 180_000);
afterAll(() => ctx.close());

const report = async (query: string, who = admin) => {
  const response = await call(who, 'GET', `reports/aged-receivables?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const rowOf = (body: { items: { accountId: string }[] }, key: 'A' | 'B' | 'C') =>
  body.items.find((row) => row.accountId === ids[key]);
const buckets = (current: number, d30: number, d60: number, d90: number, over: number) => ({
  current,
  days1to30: d30,
  days31to60: d60,
  days61to90: d90,
  over90: over,
  total: current + d30 + d60 + d90 + over,
});

describe('GET reports/aged-receivables', () => {
  it('ages by due date at the boundary days 0, 1, 30, 31, 60, 61, 90 and 91', async () => {
    const body = await report(`asOf=${day(0)}&basis=DueDate`);
    expect(body).toMatchObject({ asOf: day(0), basis: 'DueDate', currency: 'GBP', currencies: ['GBP'] });
    // Due 0 days ago: 1 (current); 1 and 30: 2 + 4; 31 and 60: 8 + 16; 61 and 90: 32 + 64; 91: 128.
    expect(rowOf(body, 'A')).toEqual({
      accountId: ids.A,
      accountReference: 'AGED-A',
      name: 'Alpha Ltd',
      ...buckets(1, 6, 24, 96, 128),
    });
    // C's fall due 30 days after they were raised: -30, -29 and 0 are current.
    expect(rowOf(body, 'C')).toMatchObject(buckets(7, 24, 96, 128, 0));
  });

  it('ages by transaction date on the TransactionDate basis', async () => {
    const body = await report(`asOf=${day(0)}&basis=TransactionDate`);
    expect(rowOf(body, 'C')).toMatchObject(buckets(1, 6, 24, 96, 128));
    expect(rowOf(body, 'A')).toMatchObject(buckets(0, 1, 6, 24, 224));
  });

  it('counts payments, a refund, a credit note, ERP allocations and never reserved money', async () => {
    const body = await report(`asOf=${day(0)}`);
    // B1 paid: 0. B2 200 − 200 paid + 50 refunded: 50, due 10 days ago. B3 credit −40, 45 days.
    // B4 500 − 120 allocated in the ERP: 380, 70 days. B5 70 reserved, not paid: current.
    expect(rowOf(body, 'B')).toMatchObject(buckets(70, 50, -40, 380, 0));
    expect(body.totals).toEqual({
      current: 1 + 7 + 70,
      days1to30: 6 + 24 + 50,
      days31to60: 24 + 96 - 40,
      days61to90: 96 + 128 + 380,
      over90: 128,
      total: 255 + 255 + 460,
    });
    expect(body.totalItems).toBe(3);
  });

  it('gives back what was allocated after the day, and leaves out what was raised after it', async () => {
    const body = await report(`asOf=${day(-1)}`);
    // Yesterday B1 (300) and B2 (its 150 still allocated, plus the 50 refunded) were unpaid.
    expect(rowOf(body, 'B')).toMatchObject(buckets(370, 200, -40, 380, 0));
    const early = await report(`asOf=${day(-120)}`);
    // 120 days ago only A's oldest two had been raised (121 and 120 days ago), due 29 and 30 days on.
    expect(rowOf(early, 'B')).toBeUndefined();
    expect(early.items.map((row: { accountId: string }) => row.accountId)).toEqual([ids.A]);
    expect(rowOf(early, 'A')).toMatchObject(buckets(64 + 128, 0, 0, 0, 0));
  });

  it('sorts and pages, with the totals over every account', async () => {
    const first = await report('sort=name&itemsPerPage=2&page=1');
    expect(first.items.map((row: { name: string }) => row.name)).toEqual(['Alpha Ltd', 'Bravo Ltd']);
    const second = await report('sort=name&itemsPerPage=2&page=2');
    expect(second.items.map((row: { name: string }) => row.name)).toEqual(['Charlie Ltd']);
    expect(second.totals).toEqual(first.totals);
    expect(second.totalItems).toBe(3);
    const byTotal = await report('');
    expect(byTotal.items.map((row: { total: number }) => row.total)).toEqual([460, 255, 255]);
    const overdueFirst = await report('sort=-over90');
    expect(overdueFirst.items[0].accountId).toBe(ids.A);
  });

  it('reports another currency on its own', async () => {
    const body = await report('currency=EUR');
    expect(body).toMatchObject({ currency: 'EUR', items: [], totalItems: 0, currencies: ['GBP'] });
    expect(body.totals.total).toBe(0);
  });

  it('downloads CSV with format=csv or Accept: text/csv, every account and a Total line', async () => {
    for (const response of [
      await call(admin, 'GET', `reports/aged-receivables?asOf=${day(0)}&format=csv&itemsPerPage=1`),
      await call(admin, 'GET', `reports/aged-receivables?asOf=${day(0)}`, undefined, { accept: 'text/csv' }),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="AgedReceivables-GBP-${day(0)}.csv"`,
      );
      const rows = parseCsv(response.body);
      expect(rows[0]).toEqual(['AccountId', 'AccountReference', 'Name', 'Current', 'Days1To30', 'Days31To60', 'Days61To90', 'Over90', 'Total']);
      expect(rows.slice(1, 4).map((row) => row[1])).toEqual(['AGED-B', 'AGED-A', 'AGED-C']);
      expect(rows[1]).toEqual([ids.B, 'AGED-B', 'Bravo Ltd', '70.00', '50.00', '-40.00', '380.00', '0.00', '460.00']);
      expect(rows[4]).toEqual(['', '', 'Total', '78.00', '80.00', '80.00', '604.00', '128.00', '970.00']);
      expect(rows).toHaveLength(5);
    }
  });

  it('is read by a Viewer too', async () => {
    const body = await report('', viewer);
    expect(body.items).toEqual([]);
  });

  it.each([
    ['asOf=yesterday', 'asOf', reportMessages.asOf],
    ['asOf=2026-02-30', 'asOf', reportMessages.asOf],
    ['basis=DocumentDate', 'basis', reportMessages.basis],
    ['currency=pounds', 'currency', reportMessages.currency],
    ['sort=colour', 'sort', reportMessages.sort],
    ['format=pdf', 'format', reportMessages.format],
    ['itemsPerPage=5000', 'itemsPerPage', reportMessages.itemsPerPage],
  ])('refuses %s with the message', async (query, field, message) => {
    const response = await call(admin, 'GET', `reports/aged-receivables?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().errors[field]).toEqual([message]);
  });

  it("answers 404 for another tenant's company", async () => {
    const response = await call(admin, 'GET', 'reports/aged-receivables', undefined, { 'dataset-id': '7' });
    expect(response.statusCode).toBe(404);
  });
});

describe('GET dashboard/figures', () => {
  it('answers outstanding, overdue, the overdue invoices, DSO and the months', async () => {
    const response = await call(admin, 'GET', 'dashboard/figures?months=3');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ asOf: day(0), currency: 'GBP', outstanding: 970, overdue: 970 - 78 });
    // A: 7 past due; C: 5 (due 1, 30, 31, 60, 61 days ago… and 0 is not past); B2 and B4.
    expect(body.overdueInvoices).toBe(7 + 5 + 2);
    expect(body).toMatchObject({ failedPayments: 1, failedAmount: 380 });
    expect(body.months).toHaveLength(3);
    expect(body.months.at(-1).month).toBe(day(0).slice(0, 7));
    // Collected this month: B1's 300 and what is left of B2's 200 after the refund (150).
    expect(body.months.at(-1).collected).toBe(450);
    expect(typeof body.dso).toBe('number');
  });

  it('sums the invoices falling due in each month of the window, this month to its last day', async () => {
    const body = (await call(admin, 'GET', 'dashboard/figures')).json();
    expect(body.months).toHaveLength(12);
    const today = new Date(`${day(0)}T00:00:00Z`);
    const lastDay = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    // Every invoice's due day and amount (the credit note is not a debt).
    const invoices: [string, number][] = [
      ...ages.map((age, i): [string, number] => [day(-age), 2 ** i]),
      ...ages.map((age, i): [string, number] => [day(-age + 30), 2 ** i]),
      [day(25), 300],
      [day(-10), 200],
      [day(-70), 500],
      [day(28), 70],
    ];
    const byMonth = new Map<string, number>();
    for (const [due, amount] of invoices)
      if (due <= lastDay) byMonth.set(due.slice(0, 7), (byMonth.get(due.slice(0, 7)) ?? 0) + amount);
    for (const month of body.months as { month: string; fallingDue: number }[])
      expect([month.month, month.fallingDue]).toEqual([month.month, byMonth.get(month.month) ?? 0]);
  });

  it('refuses months outside 1 to 24', async () => {
    const response = await call(admin, 'GET', 'dashboard/figures?months=30');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.months).toEqual([reportMessages.months]);
  });
});

describe('countbackDso', () => {
  const month = (name: string, sales: number) => ({ month: name, sales, collected: 0, fallingDue: 0 });
  it('counts back whole months, then a share of the one the debt runs out in', () => {
    // 15 days into November: November's 1,000 covered (15 days), October's 3,100 covered (31),
    // then 500 of September's 3,000: 30 × 1/6 = 5 days.
    const months = [month('2026-09', 3000), month('2026-10', 3100), month('2026-11', 1000)];
    expect(countbackDso(4600, months, '2026-11-15')).toBe(51);
    expect(countbackDso(500, months, '2026-11-15')).toBe(7.5);
    expect(countbackDso(0, months, '2026-11-15')).toBe(0);
    expect(countbackDso(100, [month('2026-11', 0)], '2026-11-15')).toBeNull();
    // More owed than the window sold: the window's days.
    expect(countbackDso(99999, months, '2026-11-15')).toBe(76);
  });
});
