import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { paymentRequestMessages, transactionMessages } from '@ledgerline/contract';
import { accounts, transactions } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

// Transaction and due dates, offers' valid-from/until and requests' required-by
// dates are calendar days: stored as date, sent and answered as YYYY-MM-DD, never shifted.

let ctx: TestContext;
let merchant: SignedIn;
let account: { id: string; accountReference: string };

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Calendar Days Ltd' });
  account = { id: randomUUID(), accountReference: 'DAYS001' };
  await ctx.database.withTenant(merchant.tenantId, (tx) =>
    tx.insert(accounts).values({ tenantId: merchant.tenantId, datasetId: 1, id: account.id, accountReference: account.accountReference, name: 'Days Ltd' }),
  );
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/${url}`, headers: merchant.headers({ 'dataset-id': '1' }), payload });

let counter = 0;
const push = (transactionDate: string, dueDate: string | null = null) =>
  call('POST', 'transactions', {
    accountReference: account.accountReference,
    transactionReference: `DAY${++counter}`,
    transactionType: 'Invoice',
    transactionDate,
    dueDate,
    currency: 'GBP',
    transactionAmount: 100,
  });

describe('calendar days', () => {
  it('stores a transaction and due date as days and answers them as YYYY-MM-DD', async () => {
    const created = await push('2026-11-23', '2026-12-23');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ transactionDate: '2026-11-23', dueDate: '2026-12-23' });
    const detail = (await call('GET', `transactions/${created.json().id}`)).json();
    expect(detail).toMatchObject({ transactionDate: '2026-11-23', dueDate: '2026-12-23' });
    const [stored] = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select({ type: sql<string>`pg_typeof(${transactions.transactionDate})::text` }).from(transactions).where(eq(transactions.id, created.json().id)),
    );
    expect(stored!.type).toBe('date');
  });

  it.each([
    ['2026-11-23T00:30:00+09:00', '2026-11-23'],
    ['2026-11-23T23:30:00-08:00', '2026-11-23'],
    ['2026-11-23T00:00:00Z', '2026-11-23'],
  ])('takes the day of a connector’s date-time %s as written: %s', async (sent, day) => {
    const created = await push(sent, sent);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ transactionDate: day, dueDate: day });
  });

  it.each(['2026-13-45', '2026-02-30', '23/11/2026', 'yesterday'])('refuses %s as a transaction date with its message', async (sent) => {
    const response = await push(sent);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.transactionDate).toEqual([transactionMessages.dateRequired]);
  });

  it('filters transactions by a day, and refuses a date-time there', async () => {
    await push('2026-05-04', '2026-06-03');
    await push('2026-05-05', '2026-06-04');
    const sameDay = (await call('GET', `transactions?filter=${encodeURIComponent('transactionDate eq 2026-05-04')}`)).json();
    expect(sameDay.items.map((item: { transactionDate: string }) => item.transactionDate)).toEqual(['2026-05-04']);
    const fromDue = (await call('GET', `transactions?filter=${encodeURIComponent('dueDate ge 2026-06-04,dueDate le 2026-06-04')}`)).json();
    expect(fromDue.items.map((item: { dueDate: string }) => item.dueDate)).toEqual(['2026-06-04']);
    const instant = await call('GET', `transactions?filter=${encodeURIComponent('transactionDate eq 2026-05-04T00:00:00Z')}`);
    expect(instant.statusCode).toBe(400);
    expect(instant.json().detail).toContain('is not a valid date for \'transactionDate\'');
  });

  it('keeps a settlement offer’s valid-from and valid-until as days (valid-until defaults to the due date)', async () => {
    const invoice = (await push('2026-03-01', '2026-03-31')).json();
    const offer = await call('POST', `transactions/${invoice.id}/settlement-offers`, { type: 'AbsoluteDiscount', amount: 5, validFrom: '2026-03-02' });
    expect(offer.statusCode, offer.body).toBe(201);
    expect(offer.json()).toMatchObject({ validFrom: '2026-03-02', validUntil: '2026-03-31' });
    const oneDay = await call('POST', `transactions/${invoice.id}/settlement-offers`, { type: 'AbsoluteDiscount', amount: 5, validFrom: '2026-03-10', validUntil: '2026-03-10' });
    expect(oneDay.json()).toMatchObject({ validFrom: '2026-03-10', validUntil: '2026-03-10' });
    const backwards = await call('POST', `transactions/${invoice.id}/settlement-offers`, { type: 'AbsoluteDiscount', amount: 5, validFrom: '2026-03-11', validUntil: '2026-03-10' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors.validUntil).toEqual([transactionMessages.offerDates]);
    const rolledOver = await call('POST', `transactions/${invoice.id}/settlement-offers`, { type: 'AbsoluteDiscount', amount: 5, validFrom: '2026-13-45' });
    expect(rolledOver.statusCode).toBe(400);
    expect(rolledOver.json().errors.validFrom).toEqual(['Valid From must be a date (YYYY-MM-DD).']);
  });

  it('keeps a request’s required-by date as a day, from the dialog’s due date and from an edit', async () => {
    const created = await call('POST', 'payment-requests', {
      requestType: 'Transaction',
      accountId: account.id,
      currency: 'GBP',
      amount: 12.5,
      transactionDate: '2026-11-23',
      dueDate: '2026-12-23',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ paymentRequiredBy: '2026-12-23' });
    const edited = await call('PATCH', 'payment-requests', { id: created.json().id, paymentRequiredBy: '2027-01-31' });
    expect(edited.json()).toMatchObject({ paymentRequiredBy: '2027-01-31' });
    const bad = await call('PATCH', 'payment-requests', { id: created.json().id, paymentRequiredBy: '2026-13-45' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.paymentRequiredBy).toEqual([paymentRequestMessages.dateInvalid]);
  });
});
