import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  documentLimits,
  documentMessages,
  emailAddressMessage,
  idempotencyRetentionHours,
  transactionMessages as messages,
} from '@ledgerline/contract';
import { auditActivities, users } from '../../db/schema.js';
import {
  accounts,
  idempotencyKeys,
  paymentAllocations,
  paymentFeeTransactions,
  paymentTransactions,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { purgeExpiredIdempotencyKeys } from '../../platform/idempotency.js';
import { buildTestApp, signIn, type SignedIn, type TestContext, byKey, type Caller } from '../../../test/app.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let merchantKey: Caller;
let rivalKey: Caller;
let merchantAccount: { id: string; accountReference: string; name: string };
let rivalAccount: { id: string; accountReference: string };
const size = {
  accounts: 6,
  transactions: 40,
  paymentRequests: 2,
  paymentTransactions: 4,
  banks: 0,
};

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(
  who: Caller,
  method: Method,
  url: string,
  payload?: object,
  headers: Record<string, string> = { 'dataset-id': '1' },
) {
  return ctx.app.inject({ method, url: `/api/v0/${url}`, headers: who.headers(headers), payload });
}

async function createKey(who: SignedIn, name: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/access-keys',
    headers: who.headers(),
    payload: { name },
  });
  expect(response.statusCode).toBe(201);
  return byKey(response.json().accessKey as string);
}

async function rowsOf(who: SignedIn) {
  return ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.tenantId, who.tenantId), eq(transactions.datasetId, 1))),
  );
}

async function accountOf(who: SignedIn) {
  const [account] = await ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.tenantId, who.tenantId), eq(accounts.datasetId, 1)))
      .orderBy(accounts.accountReference),
  );
  return account!;
}

async function activitiesOf(operation: string, resourceId: string) {
  return ctx.database.db
    .select()
    .from(auditActivities)
    .where(
      and(eq(auditActivities.operation, operation), eq(auditActivities.resourceId, resourceId)),
    );
}

let counter = 0;
/** A new invoice of the merchant, pushed as the connector would. */
async function pushInvoice(extra: object = {}) {
  counter += 1;
  const response = await call(merchantKey, 'POST', 'transactions', {
    accountReference: merchantAccount.accountReference,
    transactionReference: `TST${String(counter).padStart(5, '0')}`,
    transactionType: 'Invoice',
    transactionDate: '2026-03-01',
    dueDate: '2026-03-31',
    currency: 'GBP',
    transactionAmount: 100.1,
    allocatedAmount: 30.03,
    discountedAmount: 0.07,
    paidStatus: 'PartPaid',
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; transactionReference: string };
}

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Merchant Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  for (const who of [merchant, rival, viewer]) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size),
    );
  }
  merchantKey = await createKey(merchant, 'ERP connector');
  rivalKey = await createKey(rival, 'Rival connector');
  merchantAccount = await accountOf(merchant);
  rivalAccount = await accountOf(rival);
});
afterAll(() => ctx.close());

describe('GET transactions', () => {
  it('pages by transaction date, newest first, without the account unless expanded', async () => {
    const response = await call(merchant, 'GET', 'transactions?page=2&itemsPerPage=15');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totalItems).toBe(40);
    expect(body.totalItemsEstimated).toBe(false);
    expect(body.items).toHaveLength(15);
    const dates = body.items.map((item: { transactionDate: string }) => item.transactionDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    const newest = (await rowsOf(merchant)).map((row) => row.transactionDate).sort().reverse();
    expect(dates[0]).toBe(newest[15]);
    expect(body.items[0]).not.toHaveProperty('account');
  });

  it('expands the account', async () => {
    const body = (await call(merchant, 'GET', 'transactions?itemsPerPage=5&expand=account')).json();
    for (const item of body.items)
      expect(item.account).toMatchObject({ id: item.accountId, name: expect.any(String) });
  });

  it('filters by reference, type, account name, amount and paid status as the grid does', async () => {
    const rows = await rowsOf(merchant);
    const accountRows = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx
        .select()
        .from(accounts)
        .where(and(eq(accounts.tenantId, merchant.tenantId), eq(accounts.datasetId, 1))),
    );
    const name = accountRows[0]!.name;
    const part = name.slice(1, 5).toLowerCase();
    const matchingAccounts = new Set(
      accountRows.filter((a) => a.name.toLowerCase().includes(part)).map((a) => a.id),
    );
    const filter = encodeURIComponent(
      `transactionReference ct INV,transactionType eq Invoice,accountName ct ${part},transactionAmount ge 500,paidStatus eq Unpaid`,
    );
    const body = (
      await call(merchant, 'GET', `transactions?itemsPerPage=1000&filter=${filter}`)
    ).json();
    const expected = rows.filter(
      (row) =>
        row.transactionReference.includes('INV') &&
        row.transactionType === 'Invoice' &&
        matchingAccounts.has(row.accountId) &&
        Number(row.transactionAmount) >= 500 &&
        row.paidStatus === 'Unpaid',
    );
    expect(body.totalItems).toBe(expected.length);
    expect(body.items.map((item: { id: string }) => item.id).sort()).toEqual(
      expected.map((row) => row.id).sort(),
    );

    const credit = (
      await call(
        merchant,
        'GET',
        `transactions?itemsPerPage=1000&filter=${encodeURIComponent('transactionType eq CreditNote')}`,
      )
    ).json();
    expect(credit.totalItems).toBe(
      rows.filter((row) => row.transactionType === 'CreditNote').length,
    );
    expect(credit.totalItems).toBeGreaterThan(0);
  });

  it('counts with a filter', async () => {
    const rows = await rowsOf(merchant);
    const response = await call(
      merchant,
      'GET',
      `transactions/count?filter=${encodeURIComponent('paidStatus eq FullyPaid')}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      count: rows.filter((row) => row.paidStatus === 'FullyPaid').length,
      estimated: false,
    });
  });

  it.each([
    ['paidStatus eq Lost', 'Lost'],
    ['colour eq red', 'colour'],
    ['transactionAmount ct 5', 'ct'],
  ])('refuses the filter %s with a 400 naming %s', async (filter, named) => {
    const response = await call(
      merchant,
      'GET',
      `transactions?filter=${encodeURIComponent(filter)}`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain(named);
  });

  it('refuses sorting by account name (filter only)', async () => {
    expect((await call(merchant, 'GET', 'transactions?sort=accountName')).statusCode).toBe(400);
  });

  it('shows each tenant only its own transactions, to users and access keys alike', async () => {
    const mine = new Set((await rowsOf(merchant)).map((row) => row.id));
    for (const who of [rival, rivalKey]) {
      const body = (await call(who, 'GET', 'transactions?itemsPerPage=1000')).json();
      expect(body.items.length).toBeGreaterThan(0);
      for (const item of body.items) expect(mine.has(item.id)).toBe(false);
      const count = (await call(who, 'GET', 'transactions/count')).json();
      expect(count.count).toBe(body.totalItems);
    }
  });

  it('lets a Viewer read', async () => {
    expect((await call(viewer, 'GET', 'transactions')).statusCode).toBe(200);
  });
});

describe('GET transactions/{id}', () => {
  it('answers the transaction with account, contact, offers, documents, allocations, fees and the exact amount owed', async () => {
    const created = await pushInvoice({
      contact: {
        companyName: 'Acme',
        firstNames: 'Ann',
        surname: 'Lee',
        jobTitle: 'Buyer',
        emailAddresses: ['ann@acme.test'],
      },
    });
    const [payment] = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.tenantId, merchant.tenantId))
        .limit(1),
    );
    await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.insert(paymentAllocations).values({
        tenantId: merchant.tenantId,
        datasetId: 1,
        id: crypto.randomUUID(),
        paymentTransactionId: payment!.id,
        type: 'Payment',
        status: 'Allocated',
        entityType: 'Transaction',
        transactionId: created.id,
        allocatedAmount: '30.03',
      });
      await tx.insert(paymentFeeTransactions).values({
        tenantId: merchant.tenantId,
        datasetId: 1,
        id: crypto.randomUUID(),
        paymentTransactionId: payment!.id,
        transactionId: created.id,
        feeDetails: [{ type: 'Interest', currency: 'GBP', amount: 1.5 }],
      });
    });
    const response = await call(merchant, 'GET', `transactions/${created.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // 100.10 − 30.03 − 0.07 is 70.00 exactly; in binary floating point it is 69.99999999999999.
    expect(body.amountOwed).toBe(70);
    expect(body.account).toEqual({
      id: merchantAccount.id,
      accountReference: merchantAccount.accountReference,
      name: merchantAccount.name,
      currency: expect.anything(),
    });
    expect(body.contact).toMatchObject({
      companyName: 'Acme',
      jobTitle: 'Buyer',
      emailAddresses: ['ann@acme.test'],
    });
    expect(body.settlementOffers).toEqual([]);
    expect(body.documents).toEqual([]);
    expect(body.paymentAllocations).toEqual([
      expect.objectContaining({
        paymentTransactionId: payment!.id,
        allocatedAmount: 30.03,
        discountedAmount: 0,
      }),
    ]);
    expect(body.paymentFeeTransactions).toEqual([
      expect.objectContaining({ feeDetails: [{ type: 'Interest', currency: 'GBP', amount: 1.5 }] }),
    ]);
  });

  it('answers 404 to another tenant’s user and access key, and to an unknown id', async () => {
    const created = await pushInvoice();
    for (const who of [rival, rivalKey]) {
      const response = await call(who, 'GET', `transactions/${created.id}`);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain(created.transactionReference);
    }
    expect((await call(merchant, 'GET', `transactions/${crypto.randomUUID()}`)).statusCode).toBe(
      404,
    );
    expect((await call(merchant, 'GET', 'transactions/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('POST transactions (ERP connectors)', () => {
  const body = (reference: string, extra: object = {}) => ({
    accountReference: merchantAccount.accountReference,
    transactionReference: reference,
    transactionType: 'Invoice',
    transactionDate: '2026-04-01',
    currency: 'GBP',
    transactionAmount: 250,
    ...extra,
  });

  it('creates by account reference or id, defaults the amounts and paid status, and audits', async () => {
    const response = await call(merchantKey, 'POST', 'transactions', body('ERP-1'));
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      accountId: merchantAccount.id,
      transactionAmount: 250,
      allocatedAmount: 0,
      discountedAmount: 0,
      paidStatus: 'Unpaid',
      dueDate: null,
    });
    expect(await activitiesOf('PushTransaction', created.id)).toHaveLength(1);
    const byId = await call(
      merchant,
      'POST',
      'transactions',
      body('ERP-2', { accountReference: undefined, accountId: merchantAccount.id }),
    );
    expect(byId.statusCode).toBe(201);
  });

  it('refuses a second transaction with the same reference and type unless match-existing=true, which updates it', async () => {
    const first = (await call(merchantKey, 'POST', 'transactions', body('ERP-3'))).json();
    const again = await call(
      merchantKey,
      'POST',
      'transactions?match-existing=false',
      body('ERP-3'),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(messages.duplicate);
    const credit = await call(
      merchantKey,
      'POST',
      'transactions',
      body('ERP-3', { transactionType: 'CreditNote' }),
    );
    expect(credit.statusCode).toBe(201);
    const updated = await call(
      merchantKey,
      'POST',
      'transactions?match-existing=true',
      body('ERP-3', { transactionAmount: 260.5, paidStatus: 'PartPaid' }),
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      id: first.id,
      transactionAmount: 260.5,
      paidStatus: 'PartPaid',
    });
    const rows = (await rowsOf(merchant)).filter((row) => row.transactionReference === 'ERP-3');
    expect(rows).toHaveLength(2);
  });

  it('replays an answer for a repeated Idempotency-Key', async () => {
    const headers = { 'dataset-id': '1', 'idempotency-key': 'push-erp-4' };
    const first = await call(merchantKey, 'POST', 'transactions', body('ERP-4'), headers);
    const second = await call(merchantKey, 'POST', 'transactions', body('ERP-4'), headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
    const other = await call(merchantKey, 'POST', 'transactions', body('ERP-5'), headers);
    expect(other.statusCode).toBe(422);
    // match-existing changes what the call does: the same key and body with it is another request.
    const matching = await call(merchantKey, 'POST', 'transactions?match-existing=true', body('ERP-4'), headers);
    expect(matching.statusCode).toBe(422);
    expect(matching.json().detail).toBe(
      'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    );
  });

  it('forgets keys past the retention window (the hourly purge) and keeps the others', async () => {
    const aged = { 'dataset-id': '1', 'idempotency-key': 'push-erp-aged' };
    const fresh = { 'dataset-id': '1', 'idempotency-key': 'push-erp-fresh' };
    const first = await call(merchantKey, 'POST', 'transactions', body('ERP-AGED'), aged);
    expect((await call(merchantKey, 'POST', 'transactions', body('ERP-FRESH'), fresh)).statusCode).toBe(201);
    await ctx.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - (idempotencyRetentionHours + 1) * 3_600_000) })
      .where(eq(idempotencyKeys.key, 'push-erp-aged'));

    expect(await purgeExpiredIdempotencyKeys(ctx.database)).toBe(1);
    const left = await ctx.database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys);
    expect(left.map((row) => row.key)).toContain('push-erp-fresh');
    expect(left.map((row) => row.key)).not.toContain('push-erp-aged');
    // The purged key is free again: the retry is a new request (a duplicate reference here).
    const retry = await call(merchantKey, 'POST', 'transactions', body('ERP-AGED'), aged);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.statusCode).not.toBe(first.statusCode);
  });

  it.each([
    ['no account', { accountReference: undefined }, 'accountId', messages.accountRequired],
    [
      'both account fields',
      { accountId: '00000000-0000-4000-8000-000000000000' },
      'accountId',
      messages.accountRequired,
    ],
    [
      'no reference',
      { transactionReference: '' },
      'transactionReference',
      messages.referenceRequired,
    ],
    ['an unknown type', { transactionType: 'Bill' }, 'transactionType', messages.typeRequired],
    ['an unknown currency', { currency: 'XXY' }, 'currency', messages.currencyUnknown],
    [
      'an amount as text',
      { transactionAmount: 'lots' },
      'transactionAmount',
      messages.amountRequired,
    ],
    ['no date', { transactionDate: 'yesterday' }, 'transactionDate', messages.dateRequired],
    // A contact's e-mail addresses are e-mail addresses.
    [
      'a contact e-mail that is not one',
      { contact: { emailAddress: 'not-an-email' } },
      'contact.emailAddress',
      emailAddressMessage,
    ],
    [
      'a contact e-mail list entry that is not one',
      { contact: { emailAddresses: ['jo@acme.example', 'not-an-email'] } },
      'contact.emailAddresses.1',
      emailAddressMessage,
    ],
  ])('refuses %s with its message', async (_, extra, field, message) => {
    const response = await call(merchantKey, 'POST', 'transactions', body('ERP-BAD', extra));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toContain(message);
  });

  it('does not find an account of another tenant, nor an unknown reference', async () => {
    const byRivalId = await call(
      merchantKey,
      'POST',
      'transactions',
      body('ERP-X', { accountReference: undefined, accountId: rivalAccount.id }),
    );
    expect(byRivalId.statusCode).toBe(400);
    expect(byRivalId.json().errors.accountId).toEqual([messages.accountNotFound]);
    const byReference = await call(
      merchantKey,
      'POST',
      'transactions',
      body('ERP-X', { accountReference: 'NO-SUCH-ACCOUNT' }),
    );
    expect(byReference.statusCode).toBe(400);
    expect(byReference.json().errors.accountReference).toEqual([messages.accountNotFound]);
    expect((await rowsOf(rival)).some((row) => row.transactionReference === 'ERP-X')).toBe(false);
    expect((await rowsOf(merchant)).some((row) => row.transactionReference === 'ERP-X')).toBe(
      false,
    );
  });

  it('needs PushErpData: a Viewer gets 403 and nothing is written', async () => {
    const account = await accountOf(viewer);
    const response = await call(
      viewer,
      'POST',
      'transactions',
      body('ERP-VIEW', { accountReference: account.accountReference }),
    );
    expect(response.statusCode).toBe(403);
    expect((await rowsOf(viewer)).some((row) => row.transactionReference === 'ERP-VIEW')).toBe(
      false,
    );
  });
});

describe('settlement offers', () => {
  const amountOffer = { type: 'AbsoluteDiscount', amount: 10, description: '  Early payment  ' };

  async function offersOf(transactionId: string) {
    return ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select().from(settlementOffers).where(eq(settlementOffers.transactionId, transactionId)),
    );
  }

  it('adds an Open offer of priority 0 in the transaction’s currency, valid until the due date, and audits', async () => {
    const transaction = await pushInvoice({ currency: 'EUR' });
    const response = await call(
      merchant,
      'POST',
      `transactions/${transaction.id}/settlement-offers`,
      { ...amountOffer, currency: 'USD' },
    );
    expect(response.statusCode, response.body).toBe(201);
    const offer = response.json();
    expect(offer).toMatchObject({
      type: 'AbsoluteDiscount',
      status: 'Open',
      priority: 0,
      currency: 'EUR',
      amount: 10,
      percentageDiscount: null,
      description: 'Early payment',
      validUntil: '2026-03-31',
      transactionId: transaction.id,
    });
    expect(await activitiesOf('CreateSettlementOffer', offer.id)).toHaveLength(1);
    const detail = (await call(merchant, 'GET', `transactions/${transaction.id}`)).json();
    expect(detail.settlementOffers.map((o: { id: string }) => o.id)).toEqual([offer.id]);
  });

  it.each([
    [
      'an amount as text',
      { type: 'AbsoluteDiscount', amount: 'ten' },
      'amount',
      messages.offerAmountRequired,
    ],
    ['no amount', { type: 'ReplacementAmount' }, 'amount', messages.offerAmountRequired],
    [
      'a negative amount',
      { type: 'AbsoluteDiscount', amount: -1 },
      'amount',
      messages.offerAmountRange,
    ],
    [
      'no percentage',
      { type: 'PercentageDiscount' },
      'percentageDiscount',
      messages.offerPercentageRequired,
    ],
    [
      'a percentage over 100',
      { type: 'PercentageDiscount', percentageDiscount: 100.5 },
      'percentageDiscount',
      messages.offerPercentageRange,
    ],
    [
      'a negative percentage',
      { type: 'PercentageDiscount', percentageDiscount: -2 },
      'percentageDiscount',
      messages.offerPercentageRange,
    ],
    [
      'a long description',
      { ...amountOffer, description: 'x'.repeat(101) },
      'description',
      messages.offerDescriptionTooLong,
    ],
    [
      'Valid From after Valid To',
      { ...amountOffer, validFrom: '2026-03-10', validUntil: '2026-03-09' },
      'validUntil',
      messages.offerDates,
    ],
    ['an unknown type', { type: 'Bribe', amount: 1 }, 'type', messages.offerTypeRequired],
  ])('refuses %s with its message', async (_, offer, field, message) => {
    const transaction = await pushInvoice();
    const response = await call(
      merchant,
      'POST',
      `transactions/${transaction.id}/settlement-offers`,
      offer,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toContain(message);
    expect(await offersOf(transaction.id)).toHaveLength(0);
  });

  it('takes an amount up to the amount owed, exactly, and no more', async () => {
    const transaction = await pushInvoice();
    const over = await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, {
      type: 'ReplacementAmount',
      amount: 70.01,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().errors.amount).toEqual([messages.offerAmountRange]);
    const exact = await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, {
      type: 'ReplacementAmount',
      amount: 70,
    });
    expect(exact.statusCode).toBe(201);
  });

  it('checks Valid From against the defaulted Valid To (the due date)', async () => {
    const transaction = await pushInvoice();
    const response = await call(
      merchant,
      'POST',
      `transactions/${transaction.id}/settlement-offers`,
      { ...amountOffer, validFrom: '2026-04-15' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.validUntil).toEqual([messages.offerDates]);
  });

  it('gives a FullyPaid transaction no new offer', async () => {
    const transaction = await pushInvoice({ paidStatus: 'FullyPaid' });
    const response = await call(
      merchant,
      'POST',
      `transactions/${transaction.id}/settlement-offers`,
      amountOffer,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe(messages.offerFullyPaid);
  });

  it('adds only types already present once a transaction has offers', async () => {
    const transaction = await pushInvoice();
    expect(
      (
        await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, {
          type: 'PercentageDiscount',
          percentageDiscount: 2.5,
        })
      ).statusCode,
    ).toBe(201);
    const other = await call(
      merchant,
      'POST',
      `transactions/${transaction.id}/settlement-offers`,
      amountOffer,
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().detail).toBe(messages.offerTypeNotPresent);
    const same = await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, {
      type: 'PercentageDiscount',
      percentageDiscount: 5,
    });
    expect(same.statusCode).toBe(201);
    expect(same.json().percentageDiscount).toBe(5);
  });

  it('edits and deletes an offer, audited; a Used offer can be neither', async () => {
    const transaction = await pushInvoice();
    const offer = (
      await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, amountOffer)
    ).json();
    const edited = await call(merchant, 'PUT', `transactions/${transaction.id}/settlement-offers`, {
      id: offer.id,
      type: 'AbsoluteDiscount',
      amount: 12.5,
      validUntil: null,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      id: offer.id,
      amount: 12.5,
      validUntil: null,
      description: null,
      status: 'Open',
    });
    expect(await activitiesOf('UpdateSettlementOffer', offer.id)).toHaveLength(1);
    const tooMuch = await call(
      merchant,
      'PUT',
      `transactions/${transaction.id}/settlement-offers`,
      { id: offer.id, type: 'AbsoluteDiscount', amount: 500 },
    );
    expect(tooMuch.json().errors.amount).toEqual([messages.offerAmountRange]);

    const deleted = await call(
      merchant,
      'DELETE',
      `transactions/${transaction.id}/settlement-offers`,
      { id: offer.id },
    );
    expect(deleted.statusCode).toBe(204);
    expect(await offersOf(transaction.id)).toHaveLength(0);
    expect(await activitiesOf('DeleteSettlementOffer', offer.id)).toHaveLength(1);

    const used = (
      await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, amountOffer)
    ).json();
    await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.update(settlementOffers).set({ status: 'Used' }).where(eq(settlementOffers.id, used.id)),
    );
    const edit = await call(merchant, 'PUT', `transactions/${transaction.id}/settlement-offers`, {
      id: used.id,
      type: 'AbsoluteDiscount',
      amount: 1,
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().detail).toBe(messages.offerUsedEdit);
    const remove = await call(
      merchant,
      'DELETE',
      `transactions/${transaction.id}/settlement-offers`,
      { id: used.id },
    );
    expect(remove.statusCode).toBe(409);
    expect(remove.json().detail).toBe(messages.offerUsedDelete);
    expect((await offersOf(transaction.id)).map((row) => [row.id, Number(row.amount)])).toEqual([
      [used.id, 10],
    ]);
  });

  it('deletes by the offerId parameter too, and needs one of the two', async () => {
    const transaction = await pushInvoice();
    const offer = (
      await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, amountOffer)
    ).json();
    const none = await call(merchant, 'DELETE', `transactions/${transaction.id}/settlement-offers`);
    expect(none.statusCode).toBe(400);
    expect(none.json().errors.id).toEqual([messages.offerIdRequired]);
    expect(
      (
        await call(
          merchant,
          'DELETE',
          `transactions/${transaction.id}/settlement-offers?offerId=${offer.id}`,
        )
      ).statusCode,
    ).toBe(204);
    expect(await offersOf(transaction.id)).toHaveLength(0);
  });

  it('answers 404 for an offer of another transaction', async () => {
    const one = await pushInvoice();
    const two = await pushInvoice();
    const offer = (
      await call(merchant, 'POST', `transactions/${one.id}/settlement-offers`, amountOffer)
    ).json();
    const response = await call(merchant, 'PUT', `transactions/${two.id}/settlement-offers`, {
      id: offer.id,
      type: 'AbsoluteDiscount',
      amount: 1,
    });
    expect(response.statusCode).toBe(404);
    expect(
      (await call(merchant, 'DELETE', `transactions/${two.id}/settlement-offers`, { id: offer.id }))
        .statusCode,
    ).toBe(404);
  });

  it('keeps another tenant’s users and keys out: 404, nothing changes', async () => {
    const transaction = await pushInvoice();
    const offer = (
      await call(merchant, 'POST', `transactions/${transaction.id}/settlement-offers`, amountOffer)
    ).json();
    for (const who of [rival, rivalKey]) {
      const url = `transactions/${transaction.id}/settlement-offers`;
      expect((await call(who, 'POST', url, amountOffer)).statusCode).toBe(404);
      expect(
        (await call(who, 'PUT', url, { id: offer.id, type: 'AbsoluteDiscount', amount: 1 }))
          .statusCode,
      ).toBe(404);
      expect((await call(who, 'DELETE', url, { id: offer.id })).statusCode).toBe(404);
    }
    expect((await offersOf(transaction.id)).map((row) => [row.id, Number(row.amount)])).toEqual([
      [offer.id, 10],
    ]);
  });

  it('needs the settlement permissions: a Viewer gets 403 on add, edit and delete', async () => {
    const [transaction] = await rowsOf(viewer);
    const offerId = crypto.randomUUID();
    await ctx.database.withTenant(viewer.tenantId, (tx) =>
      tx.insert(settlementOffers).values({
        tenantId: viewer.tenantId,
        datasetId: 1,
        id: offerId,
        transactionId: transaction!.id,
        type: 'AbsoluteDiscount',
        currency: 'GBP',
        amount: '10',
      }),
    );
    const url = `transactions/${transaction!.id}/settlement-offers`;
    expect((await call(viewer, 'POST', url, amountOffer)).statusCode).toBe(403);
    expect(
      (await call(viewer, 'PUT', url, { id: offerId, type: 'AbsoluteDiscount', amount: 1 }))
        .statusCode,
    ).toBe(403);
    expect((await call(viewer, 'DELETE', url, { id: offerId })).statusCode).toBe(403);
    const offers = await ctx.database.withTenant(viewer.tenantId, (tx) =>
      tx.select().from(settlementOffers).where(eq(settlementOffers.transactionId, transaction!.id)),
    );
    expect(offers.map((row) => Number(row.amount))).toEqual([10]);
  });
});

describe('documents', () => {
  const pdf = Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  );
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b1d9c80000000049454e44ae426082',
    'hex',
  );

  function multipart(fileName: string, data: Buffer, field = 'file') {
    const boundary = '----ledgerline-test-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  function upload(
    who: Caller,
    transactionId: string,
    fileName: string,
    data: Buffer,
    field = 'file',
  ) {
    const body = multipart(fileName, data, field);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/v0/transactions/${transactionId}/documents`,
      headers: who.headers({ 'dataset-id': '1', ...body.headers }),
      payload: body.payload,
    });
  }

  it('uploads a PDF, lists it on the transaction, serves it inline, deletes it; all audited', async () => {
    const transaction = await pushInvoice();
    const response = await upload(merchant, transaction.id, 'Invoice copy.pdf', pdf);
    expect(response.statusCode, response.body).toBe(201);
    const document = response.json();
    expect(document).toMatchObject({
      fileName: 'Invoice copy.pdf',
      fileType: 'application/pdf',
      fileSize: pdf.length,
    });
    expect(await activitiesOf('UploadTransactionDocument', document.id)).toHaveLength(1);
    const detail = (await call(merchant, 'GET', `transactions/${transaction.id}`)).json();
    expect(detail.documents).toEqual([document]);

    const data = await call(
      merchant,
      'GET',
      `transactions/${transaction.id}/documents/${document.id}/data`,
    );
    expect(data.statusCode).toBe(200);
    expect(data.headers['content-type']).toBe('application/pdf');
    expect(data.headers['content-disposition']).toBe(
      `inline; filename="Invoice copy.pdf"; filename*=UTF-8''Invoice%20copy.pdf`,
    );
    expect(data.headers['x-content-type-options']).toBe('nosniff');
    expect(data.rawPayload.equals(pdf)).toBe(true);

    const removed = await call(
      merchant,
      'DELETE',
      `transactions/${transaction.id}/documents/${document.id}`,
    );
    expect(removed.statusCode).toBe(204);
    expect(await activitiesOf('DeleteTransactionDocument', document.id)).toHaveLength(1);
    expect(
      (await call(merchant, 'GET', `transactions/${transaction.id}/documents/${document.id}/data`))
        .statusCode,
    ).toBe(404);
  });

  it('sniffs the type from the bytes, whatever the name says, and offers non-PDFs as downloads', async () => {
    const transaction = await pushInvoice();
    const image = (await upload(merchant, transaction.id, '../../remittance.pdf', png)).json();
    expect(image).toMatchObject({ fileName: 'remittance.pdf', fileType: 'image/png' });
    const data = await call(
      merchant,
      'GET',
      `transactions/${transaction.id}/documents/${image.id}/data`,
    );
    expect(data.headers['content-type']).toBe('image/png');
    expect(data.headers['content-disposition']).toMatch(/^attachment; filename="remittance.pdf"/);
    const csv = (
      await upload(merchant, transaction.id, 'lines.csv', Buffer.from('a,b\n1,2\n'))
    ).json();
    expect(csv.fileType).toBe('text/csv');
  });

  it.each([
    [
      'an executable',
      'tool.pdf',
      Buffer.from(
        '4d5a90000300000004000000ffff0000b800000000000000400000000000000000000000',
        'hex',
      ),
      400,
      documentMessages.fileTypeNotAllowed,
    ],
    ['an empty file', 'empty.txt', Buffer.alloc(0), 400, documentMessages.fileEmpty],
    [
      'a file over 10 MB',
      'big.txt',
      Buffer.alloc(documentLimits.maxBytes + 1, 0x61),
      413,
      documentMessages.fileTooLarge,
    ],
  ])('refuses %s with its message and stores nothing', async (_, name, data, status, message) => {
    const transaction = await pushInvoice();
    const response = await upload(merchant, transaction.id, name, data);
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toBe(message);
    expect(
      (await call(merchant, 'GET', `transactions/${transaction.id}`)).json().documents,
    ).toEqual([]);
  });

  it('needs the field "file"', async () => {
    const transaction = await pushInvoice();
    const response = await upload(merchant, transaction.id, 'a.pdf', pdf, 'attachment');
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe(documentMessages.fileRequired);
  });

  it('keeps another tenant out (404) and a Viewer from writing (403)', async () => {
    const transaction = await pushInvoice();
    const document = (await upload(merchant, transaction.id, 'a.pdf', pdf)).json();
    for (const who of [rival, rivalKey]) {
      expect((await upload(who, transaction.id, 'b.pdf', pdf)).statusCode).toBe(404);
      expect(
        (await call(who, 'GET', `transactions/${transaction.id}/documents/${document.id}/data`))
          .statusCode,
      ).toBe(404);
      expect(
        (await call(who, 'DELETE', `transactions/${transaction.id}/documents/${document.id}`))
          .statusCode,
      ).toBe(404);
    }
    const [own] = await rowsOf(viewer);
    expect((await upload(viewer, own!.id, 'c.pdf', pdf)).statusCode).toBe(403);
    expect(
      (await call(viewer, 'DELETE', `transactions/${own!.id}/documents/${crypto.randomUUID()}`))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(merchant, 'GET', `transactions/${transaction.id}`))
        .json()
        .documents.map((d: { id: string }) => d.id),
    ).toEqual([document.id]);
  });
});
