import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { emailAddressMessage, paymentRequestMessages as m } from '@ledgerline/contract';
import {
  accounts,
  paymentFeeTransactions,
  paymentRequestAllocations,
  paymentRequests,
  paymentTransactions,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import { auditActivities, users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext, byKey, type Caller } from '../../../test/app.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let merchantKey: Caller;
let rivalKey: Caller;
const size = { accounts: 6, transactions: 12, paymentRequests: 12, paymentTransactions: 30, banks: 0 };

const call = (who: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1', ...headers }),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function createKey(who: SignedIn, name: string): Promise<Caller> {
  const response = await ctx.app.inject({ method: 'POST', url: '/api/v0/access-keys', headers: who.headers(), payload: { name } });
  return byKey(response.json().accessKey as string);
}

const rowsOf = (who: SignedIn) =>
  ctx.database.withTenant(who.tenantId, (tx) =>
    tx.select().from(paymentRequests).where(and(eq(paymentRequests.tenantId, who.tenantId), eq(paymentRequests.datasetId, 1))),
  );
const accountsOf = (who: SignedIn) =>
  ctx.database.withTenant(who.tenantId, (tx) => tx.select().from(accounts).where(eq(accounts.tenantId, who.tenantId)).orderBy(accounts.accountReference));

/** The New Request dialog's body with its defaults (spec 2 §2). */
const dialogBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
  requestType: 'Transaction',
  accountId,
  currency: 'GBP',
  amount: 100,
  transactionDate: '2026-11-01',
  dueDate: '2026-12-01',
  description: '  Goods and/or services.  ',
  paymentTerms: '30 days from transaction date',
  ...extra,
});
const accountBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
  requestType: 'Account',
  captureType: 'Reserve',
  currency: 'USD',
  amountToPay: 250.5,
  description: 'Deposit',
  customerName: 'Acme Ltd',
  customerReference: 'ACC000001',
  accountId,
  validFrom: '2026-11-01T00:00:00.000Z',
  validUntil: '2026-11-30T00:00:00.000Z',
  paymentRequiredBy: '',
  billingContact: { firstNames: ' Alice ', surname: 'Smith', companyName: 'Acme Ltd', emailAddress: 'alice@example.com', address: { address1: '1 High St', city: 'Leeds', postCode: 'LS1 1AA', country: 'UK' } },
  test: false,
  ...extra,
});

async function createDialogRequest(who: Caller = merchant, accountId?: string) {
  const id = accountId ?? (await accountsOf(merchant))[0]!.id;
  const response = await call(who, 'POST', 'payment-requests', dialogBody(id));
  expect(response.statusCode).toBe(201);
  return response.json();
}

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Merchant Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Ltd' });
  for (const who of [merchant, rival, viewer]) {
    await ctx.database.withTenant(who.tenantId, (tx) => generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size));
  }
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  merchantKey = await createKey(merchant, 'ERP');
  rivalKey = await createKey(rival, 'Rival ERP');
});
afterAll(() => ctx.close());

describe('GET payment-requests', () => {
  it('pages newest first with an exact total, the payment URL and the account', async () => {
    const response = await call(merchant, 'GET', 'payment-requests?page=1&itemsPerPage=5');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totalItems).toBe(size.paymentRequests);
    expect(body.totalItemsEstimated).toBe(false);
    expect(body.items).toHaveLength(5);
    const dates = body.items.map((item: { createdOn: string }) => item.createdOn);
    expect([...dates].sort().reverse()).toEqual(dates);
    const newest = (await rowsOf(merchant)).map((row) => row.createdOn.getTime()).sort((a, b) => b - a);
    expect(Date.parse(dates[0])).toBe(newest[0]);
    expect(body.items[0].requestUrl).toBe(`http://localhost:3000/pay/${body.items[0].id}`);
    expect(body.items[0].account).toMatchObject({ id: body.items[0].accountId, name: expect.any(String) });
    expect(body.items[0]).not.toHaveProperty('transactions');
  });

  it('includes transactions when asked, filters and sorts by the whitelist', async () => {
    await createDialogRequest();
    const withTransactions = (await call(merchant, 'GET', 'payment-requests?itemsPerPage=100&includeTransactions=true')).json();
    const created = withTransactions.items.find((item: { requestType: string; transactions: unknown[] }) => item.transactions.length > 0);
    expect(created.transactionAllocations).toHaveLength(1);
    expect(created.transactions[0].transactionReference).toMatch(/^INV\d{8}$/);
    const filter = encodeURIComponent('requestStatus eq Open,captureType eq Immediate');
    const filtered = (await call(merchant, 'GET', `payment-requests?itemsPerPage=100&filter=${filter}&sort=amountToPay`)).json();
    const expected = (await rowsOf(merchant)).filter((row) => row.requestStatus === 'Open' && row.captureType === 'Immediate');
    expect(filtered.totalItems).toBe(expected.length);
    const amounts = filtered.items.map((item: { amountToPay: number }) => item.amountToPay);
    expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
  });

  it('refuses unknown filter and sort fields with a 400 naming them', async () => {
    const bad = await call(merchant, 'GET', `payment-requests?filter=${encodeURIComponent('requestStatus eq Lost')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain('Lost');
    const sort = await call(merchant, 'GET', 'payment-requests?sort=-password');
    expect(sort.statusCode).toBe(400);
    expect(sort.json().detail).toContain('password');
  });
});

describe('GET payment-requests/count', () => {
  it('counts what the filter matches', async () => {
    const rows = await rowsOf(merchant);
    const open = rows.filter((row) => row.requestStatus === 'Open').length;
    expect((await call(merchant, 'GET', `payment-requests/count?filter=${encodeURIComponent('requestStatus eq Open')}`)).json()).toEqual({ count: open, estimated: false });
    expect((await call(merchant, 'GET', 'payment-requests/count')).json()).toEqual({ count: rows.length, estimated: false });
  });
});

describe('GET payment-requests/{id}', () => {
  it('answers the request with its payments newest first and its transactions when expanded', async () => {
    const [row] = (await rowsOf(merchant)).filter((r) => r.requestType === 'Transaction');
    const plain = (await call(merchant, 'GET', `payment-requests/${row!.id}`)).json();
    expect(plain).toMatchObject({ id: row!.id, amountToPay: Number(row!.amountToPay), requestUrl: `http://localhost:3000/pay/${row!.id}` });
    expect(plain).not.toHaveProperty('transactions');
    const payments = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select().from(paymentTransactions).where(eq(paymentTransactions.paymentRequestId, row!.id)),
    );
    expect(plain.paymentTransactions).toHaveLength(payments.length);
    const created = plain.paymentTransactions.map((p: { createdOn: string }) => p.createdOn);
    expect([...created].sort().reverse()).toEqual(created);

    const mine = await createDialogRequest();
    const expanded = (await call(merchant, 'GET', `payment-requests/${mine.id}?expand=transactions`)).json();
    expect(expanded.transactions).toHaveLength(1);
    expect(expanded.paymentTransactions).toEqual([]);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await call(merchant, 'GET', 'payment-requests/0199f0aa-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await call(merchant, 'GET', 'payment-requests/not-an-id')).statusCode).toBe(400);
  });
});

describe('POST payment-requests', () => {
  it('from the dialog: creates an invoice and a Transaction request paying it, trimmed, audited', async () => {
    const [account] = await accountsOf(merchant);
    const response = await call(merchant, 'POST', 'payment-requests', dialogBody(account!.id, { currency: 'YEN', amount: 100 }));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      requestType: 'Transaction',
      requestStatus: 'Open',
      captureType: 'Immediate',
      currency: 'JPY',
      amountToPay: 100,
      description: 'Goods and/or services.',
      paymentTerms: '30 days from transaction date',
      customerName: account!.name,
      customerReference: account!.accountReference,
      accountId: account!.id,
      paymentRequiredBy: '2026-12-01',
      options: { usage: 'Single' },
      canEdit: true,
      canChangeUsage: true,
    });
    expect(body.transactionAllocations).toEqual([
      { transactionId: body.transactions[0].id, amount: 100, required: true, canEditAmount: false, minimumAmount: null, maximumAmount: null },
    ]);
    expect(body.transactions[0]).toMatchObject({ transactionType: 'Invoice', transactionAmount: 100, currency: 'JPY', transactionDate: '2026-11-01', dueDate: '2026-12-01' });
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'CreatePaymentRequest'), eq(auditActivities.resourceId, body.id)));
    expect(activity).toMatchObject({ status: 201, userId: merchant.userId, datasetId: 1 });
  });

  it('from an account page: an Account request with its billing contact, trimmed', async () => {
    const [account] = await accountsOf(merchant);
    const response = await call(merchant, 'POST', 'payment-requests', accountBody(account!.id));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      requestType: 'Account',
      captureType: 'Reserve',
      currency: 'USD',
      amountToPay: 250.5,
      validFrom: '2026-11-01T00:00:00.000Z',
      validUntil: '2026-11-30T00:00:00.000Z',
      paymentRequiredBy: null,
      test: false,
      billingContact: { firstNames: 'Alice', surname: 'Smith', address: { address1: '1 High St', address2: null } },
      transactionAllocations: [],
      canChangeUsage: false,
    });
  });

  it('replays a create with the same Idempotency-Key instead of creating twice', async () => {
    const [account] = await accountsOf(merchant);
    const headers = { 'idempotency-key': 'pr-create-1' };
    const first = await call(merchantKey, 'POST', 'payment-requests', dialogBody(account!.id), headers);
    const again = await call(merchantKey, 'POST', 'payment-requests', dialogBody(account!.id), headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect((await rowsOf(merchant)).filter((row) => row.id === first.json().id)).toHaveLength(1);
    const other = await call(merchantKey, 'POST', 'payment-requests', dialogBody(account!.id, { amount: 5 }), headers);
    expect(other.statusCode).toBe(422);
  });

  it.each([
    ['no account', { accountId: undefined }, 'accountId', m.accountRequired],
    ['no currency', { currency: '' }, 'currency', m.currencyRequired],
    ['an unknown currency', { currency: 'XYZ' }, 'currency', m.currencyUnknown],
    ['no amount', { amount: undefined }, 'amount', m.amountRequired],
    ['a text amount', { amount: 'ten' }, 'amount', m.amountNumber],
    ['a zero amount', { amount: 0 }, 'amount', m.amountPositive],
    ['a 101-character description', { description: 'd'.repeat(101) }, 'description', m.tooLong('Description', 100)],
    ['101-character terms', { paymentTerms: 't'.repeat(101) }, 'paymentTerms', m.tooLong('Payment terms', 100)],
    ['a due date before the transaction date', { dueDate: '2026-10-01' }, 'dueDate', m.dueDateBeforeTransactionDate],
  ])('dialog: refuses %s with its message', async (_name, change, field, message) => {
    const [account] = await accountsOf(merchant);
    const before = (await rowsOf(merchant)).length;
    const response = await call(merchant, 'POST', 'payment-requests', dialogBody(account!.id, change));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
    expect((await rowsOf(merchant)).length).toBe(before);
  });

  const billingLimits: [string, number][] = [
    ['firstNames', 100],
    ['surname', 100],
    ['companyName', 100],
    ['emailAddress', 200],
  ];
  const addressLimits: [string, number][] = [
    ['address1', 100],
    ['address2', 100],
    ['city', 100],
    ['state', 100],
    ['postCode', 20],
    ['country', 100],
  ];
  const labels: Record<string, string> = {
    firstNames: 'First name',
    surname: 'Last name',
    companyName: 'Company name',
    emailAddress: 'Email',
    address1: 'Address 1',
    address2: 'Address 2',
    city: 'City',
    state: 'State',
    postCode: 'Post code',
    country: 'Country',
  };

  it.each([
    ['no capture type', { captureType: undefined }, 'captureType', m.captureTypeRequired],
    ['a text amount', { amountToPay: '12a' }, 'amountToPay', m.amountNumber],
    ['a negative amount', { amountToPay: -1 }, 'amountToPay', m.amountPositive],
    ['no amount', { amountToPay: undefined }, 'amountToPay', m.amountRequired],
    ['a 1001-character description', { description: 'd'.repeat(1001) }, 'description', m.tooLong('Description', 1000)],
    ['valid to before valid from', { validFrom: '2026-11-10', validUntil: '2026-11-09' }, 'validUntil', m.validUntilBeforeValidFrom],
    ['a bad date', { paymentRequiredBy: 'tomorrow' }, 'paymentRequiredBy', m.dateInvalid],
    ['a billing e-mail that is not one', { billingContact: { emailAddress: 'not-an-email' } }, 'billingContact.emailAddress', emailAddressMessage],
    ...billingLimits.map(([field, max]) => [
      `a billing ${field} over ${max}`,
      { billingContact: { [field]: 'x'.repeat(max + 1) } },
      `billingContact.${field}`,
      m.tooLong(labels[field]!, max),
    ]),
    ...addressLimits.map(([field, max]) => [
      `a billing ${field} over ${max}`,
      { billingContact: { address: { [field]: 'x'.repeat(max + 1) } } },
      `billingContact.address.${field}`,
      m.tooLong(labels[field]!, max),
    ]),
  ] as [string, Record<string, unknown>, string, string][])('account page: refuses %s with its message', async (_name, change, field, message) => {
    const [account] = await accountsOf(merchant);
    const response = await call(merchant, 'POST', 'payment-requests', accountBody(account!.id, change));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('accepts the billing maximums exactly', async () => {
    const [account] = await accountsOf(merchant);
    const billingContact = {
      ...Object.fromEntries(billingLimits.map(([field, max]) => [field, 'x'.repeat(max)])),
      // An e-mail field takes an e-mail address: one of exactly 200 characters.
      emailAddress: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.example`,
      address: Object.fromEntries(addressLimits.map(([field, max]) => [field, 'y'.repeat(max)])),
    };
    const response = await call(merchant, 'POST', 'payment-requests', accountBody(account!.id, { billingContact, description: 'd'.repeat(1000) }));
    expect(response.statusCode).toBe(201);
  });

  it("refuses another tenant's account as unknown and creates nothing", async () => {
    const [theirs] = await accountsOf(rival);
    const before = (await rowsOf(rival)).length;
    const response = await call(merchant, 'POST', 'payment-requests', dialogBody(theirs!.id));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.accountId).toEqual([m.accountNotFound]);
    const byKeyResponse = await call(merchantKey, 'POST', 'payment-requests', accountBody(theirs!.id));
    expect(byKeyResponse.json().errors.accountId).toEqual([m.accountNotFound]);
    expect((await rowsOf(rival)).length).toBe(before);
  });
});

describe('PATCH payment-requests', () => {
  it('updates details and contacts of an Open request, trimmed, audited', async () => {
    const created = await createDialogRequest();
    const response = await call(merchant, 'PATCH', 'payment-requests', {
      id: created.id,
      description: ' New words ',
      validFrom: '2026-11-01',
      validUntil: '2026-11-01',
      paymentRequiredBy: '',
      usageType: 'Multiple',
      deliveryContact: { companyName: 'Depot', address: { type: 'Delivery', address3: 'Unit 4' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      description: 'New words',
      validFrom: '2026-11-01T00:00:00.000Z',
      // A valid-until day lasts to the end of that day.
      validUntil: '2026-11-01T23:59:59.999Z',
      paymentRequiredBy: null,
      options: { usage: 'Multiple' },
      deliveryContact: { companyName: 'Depot', firstNames: null, address: { type: 'Delivery', address3: 'Unit 4' } },
      billingContact: created.billingContact,
      paymentTerms: created.paymentTerms,
    });
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'UpdatePaymentRequest'), eq(auditActivities.resourceId, created.id)));
    expect(activity).toMatchObject({ status: 200, userId: merchant.userId });
  });

  it.each([
    ['a 1001-character description', { description: 'd'.repeat(1001) }, 'description', m.tooLong('Description', 1000)],
    ['valid to before valid from', { validFrom: '2026-11-02', validUntil: '2026-11-01' }, 'validUntil', m.validUntilBeforeValidFrom],
    ['a bad date', { validFrom: '31/12/2026' }, 'validFrom', m.dateInvalid],
    ['a 256-character surname', { billingContact: { surname: 's'.repeat(256) } }, 'billingContact.surname', m.tooLong('Surname', 255)],
    ['a 501-character company name', { deliveryContact: { companyName: 'c'.repeat(501) } }, 'deliveryContact.companyName', m.tooLong('Company name', 500)],
    ['a 1001-character e-mail', { billingContact: { emailAddress: 'e'.repeat(1001) } }, 'billingContact.emailAddress', m.tooLong('Email address', 1000)],
    ['a delivery e-mail that is not one', { deliveryContact: { emailAddress: 'not-an-email' } }, 'deliveryContact.emailAddress', emailAddressMessage],
    ['a 256-character address type', { billingContact: { address: { type: 't'.repeat(256) } } }, 'billingContact.address.type', m.tooLong('Type', 255)],
    ['a 256-character post code', { billingContact: { address: { postCode: 'p'.repeat(256) } } }, 'billingContact.address.postCode', m.tooLong('Post code', 255)],
  ])('refuses %s with its message', async (_name, change, field, message) => {
    const created = await createDialogRequest();
    const response = await call(merchant, 'PATCH', 'payment-requests', { id: created.id, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('keeps the stored dates in order when only one side changes', async () => {
    const created = await createDialogRequest();
    await call(merchant, 'PATCH', 'payment-requests', { id: created.id, validUntil: '2026-11-20' });
    const response = await call(merchant, 'PATCH', 'payment-requests', { id: created.id, validFrom: '2026-11-21' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.validUntil).toEqual([m.validUntilBeforeValidFrom]);
  });

  it('edits only Open requests (409) and leaves others unchanged', async () => {
    const [closed] = (await rowsOf(merchant)).filter((row) => row.requestStatus === 'Completed');
    const response = await call(merchant, 'PATCH', 'payment-requests', { id: closed!.id, description: 'Changed' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ detail: m.notOpen, errorCode: 'paymentRequestNotOpen' });
    expect((await rowsOf(merchant)).find((row) => row.id === closed!.id)!.description).toBe(closed!.description);
    expect((await call(merchant, 'GET', `payment-requests/${closed!.id}`)).json().canEdit).toBe(false);
  });

  it('refuses edits once a settlement discount is used or a late payment applied', async () => {
    const discounted = await createDialogRequest();
    const transactionId = discounted.transactions[0].id as string;
    await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.insert(settlementOffers).values({ tenantId: merchant.tenantId, datasetId: 1, id: crypto.randomUUID(), transactionId, type: 'PercentageDiscount', status: 'Used', currency: 'GBP', percentageDiscount: '5' }),
    );
    const late = await createDialogRequest();
    await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      const paymentId = crypto.randomUUID();
      await tx.insert(paymentTransactions).values({
        tenantId: merchant.tenantId, datasetId: 1, id: paymentId, type: 'Payment', status: 'Paid', ledgerlineReference: 'LLTEST1',
        statusDateTime: new Date(), totalAmount: '105', currency: 'GBP', paymentRequestId: late.id,
      });
      await tx.insert(paymentFeeTransactions).values({ tenantId: merchant.tenantId, datasetId: 1, id: crypto.randomUUID(), paymentTransactionId: paymentId, transactionId: late.transactions[0].id, feeDetails: [{ type: 'Fixed', currency: 'GBP', amount: 5 }] });
    });
    for (const request of [discounted, late]) {
      const response = await call(merchant, 'PATCH', 'payment-requests', { id: request.id, description: 'Changed' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ detail: m.discountsApplied, errorCode: 'paymentRequestDiscountsApplied' });
      const allocations = await call(merchant, 'PATCH', `payment-requests/${request.id}/transaction-allocation-info`, [{ transactionId: request.transactions[0].id, amount: 50 }]);
      expect(allocations.statusCode).toBe(409);
      expect((await call(merchant, 'GET', `payment-requests/${request.id}`)).json()).toMatchObject({ canEdit: false, description: 'Goods and/or services.' });
    }
  });

  it('changes the usage type only of an Open Immediate Transaction request without payments', async () => {
    const paid = await createDialogRequest();
    await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.insert(paymentTransactions).values({
        tenantId: merchant.tenantId, datasetId: 1, id: crypto.randomUUID(), type: 'Payment', status: 'Failed', ledgerlineReference: 'LLTEST2',
        statusDateTime: new Date(), totalAmount: '100', currency: 'GBP', paymentRequestId: paid.id,
      }),
    );
    const [account] = await accountsOf(merchant);
    const onAccount = (await call(merchant, 'POST', 'payment-requests', accountBody(account!.id, { captureType: 'Immediate' }))).json();
    const reserve = await createDialogRequest();
    await ctx.database.withTenant(merchant.tenantId, (tx) => tx.update(paymentRequests).set({ captureType: 'Reserve' }).where(eq(paymentRequests.id, reserve.id)));
    for (const request of [paid, onAccount, reserve]) {
      const response = await call(merchant, 'PATCH', 'payment-requests', { id: request.id, usageType: 'Multiple' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ detail: m.usageTypeLocked, errorCode: 'usageTypeLocked' });
      // Sending the usage it already has is no change and passes.
      expect((await call(merchant, 'PATCH', 'payment-requests', { id: request.id, usageType: 'Single', description: 'Same usage' })).statusCode).toBe(200);
    }
  });
});

describe('PATCH payment-requests/{id}/transaction-allocation-info', () => {
  const patchAllocations = (who: Caller, id: string, payload: unknown) => call(who, 'PATCH', `payment-requests/${id}/transaction-allocation-info`, payload);

  it('updates the allocation info, keeps an absent amount, audited', async () => {
    const created = await createDialogRequest();
    const transactionId = created.transactions[0].id;
    const response = await patchAllocations(merchant, created.id, [{ transactionId, required: false, canEditAmount: true, minimumAmount: 10, maximumAmount: 100 }]);
    expect(response.statusCode).toBe(200);
    expect(response.json().transactionAllocations).toEqual([
      { transactionId, amount: 100, required: false, canEditAmount: true, minimumAmount: 10, maximumAmount: 100 },
    ]);
    const again = await patchAllocations(merchant, created.id, [{ transactionId, amount: 60.25 }]);
    expect(again.json().transactionAllocations[0]).toMatchObject({ amount: 60.25, canEditAmount: null, minimumAmount: null });
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'UpdatePaymentRequestAllocations'), eq(auditActivities.resourceId, created.id)));
    expect(activity).toMatchObject({ status: 200 });
  });

  it.each([
    ['a zero amount', { amount: 0 }, '0.amount', m.amountPositive],
    ['a negative minimum', { canEditAmount: true, minimumAmount: -1 }, '0.minimumAmount', m.minimumPositive],
    ['a zero maximum', { canEditAmount: true, maximumAmount: 0 }, '0.maximumAmount', m.maximumPositive],
    ['a maximum equal to the minimum', { canEditAmount: true, minimumAmount: 20, maximumAmount: 20 }, '0.maximumAmount', m.maximumNotAboveMinimum],
    ['a maximum below the minimum', { canEditAmount: true, minimumAmount: 20, maximumAmount: 10 }, '0.maximumAmount', m.maximumNotAboveMinimum],
    ['a minimum without canEditAmount', { minimumAmount: 5 }, '0.minimumAmount', m.minMaxNeedCanEditAmount],
    ['a maximum with canEditAmount false', { canEditAmount: false, maximumAmount: 5 }, '0.maximumAmount', m.minMaxNeedCanEditAmount],
    ['a text amount', { amount: 'ten' }, '0.amount', m.amountNumber],
    // The amount within its limits and not above what the invoice (£100) owes.
    ['an amount below the minimum', { amount: 5, canEditAmount: true, minimumAmount: 10, maximumAmount: 90 }, '0.amount', m.amountBelowMinimum],
    ['an amount above the maximum', { amount: 999_999, canEditAmount: true, minimumAmount: 10, maximumAmount: 90 }, '0.amount', m.amountAboveMaximum],
    ['a maximum below the amount kept', { canEditAmount: true, maximumAmount: 90 }, '0.amount', m.amountAboveMaximum],
    ['an amount above what the invoice owes', { amount: 100.01 }, '0.amount', m.amountAboveOutstanding],
  ])('refuses %s with its message', async (_name, change, field, message) => {
    const created = await createDialogRequest();
    const response = await patchAllocations(merchant, created.id, [{ transactionId: created.transactions[0].id, ...change }]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('refuses an empty list', async () => {
    const created = await createDialogRequest();
    const response = await patchAllocations(merchant, created.id, []);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.body).toEqual([m.allocationsRequired]);
  });

  it('refuses an allocation the request does not have and changes nothing', async () => {
    const created = await createDialogRequest();
    const [other] = await ctx.database.withTenant(merchant.tenantId, (tx) => tx.select().from(transactions).where(eq(transactions.tenantId, merchant.tenantId)).limit(1));
    const response = await patchAllocations(merchant, created.id, [
      { transactionId: created.transactions[0].id, amount: 1 },
      { transactionId: other!.id, amount: 5 },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail: m.allocationNotFound, errors: { '1.transactionId': [m.allocationNotFound] } });
    expect((await call(merchant, 'GET', `payment-requests/${created.id}`)).json().transactionAllocations[0].amount).toBe(100);
  });

  it('edits only Open requests', async () => {
    const created = await createDialogRequest();
    await ctx.database.withTenant(merchant.tenantId, (tx) => tx.update(paymentRequests).set({ requestStatus: 'Expired' }).where(eq(paymentRequests.id, created.id)));
    const response = await patchAllocations(merchant, created.id, [{ transactionId: created.transactions[0].id, amount: 5 }]);
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe(m.notOpen);
  });
});

describe('permissions', () => {
  it('lets a Viewer read but not write (403), and nothing changes', async () => {
    const [row] = (await rowsOf(viewer)).filter((r) => r.requestStatus === 'Open');
    const [account] = await accountsOf(viewer);
    expect((await call(viewer, 'GET', 'payment-requests')).statusCode).toBe(200);
    expect((await call(viewer, 'GET', `payment-requests/${row!.id}`)).statusCode).toBe(200);
    expect((await call(viewer, 'GET', 'payment-requests/count')).statusCode).toBe(200);
    const before = await rowsOf(viewer);
    expect((await call(viewer, 'POST', 'payment-requests', dialogBody(account!.id))).statusCode).toBe(403);
    expect((await call(viewer, 'PATCH', 'payment-requests', { id: row!.id, description: 'No' })).statusCode).toBe(403);
    const allocations = await call(viewer, 'PATCH', `payment-requests/${row!.id}/transaction-allocation-info`, [{ transactionId: account!.id, amount: 1 }]);
    expect(allocations.statusCode).toBe(403);
    expect(await rowsOf(viewer)).toEqual(before);
    const [refused] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'UpdatePaymentRequest'), eq(auditActivities.userId, viewer.userId)));
    expect(refused).toMatchObject({ status: 403 });
  });
});

describe('company and tenant scope', () => {
  it('needs the Dataset-Id header', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v0/payment-requests', headers: merchant.headers() });
    expect(response.statusCode).toBe(400);
  });

  it("never shows another tenant's requests to its users or access keys, by list, id, count or company", async () => {
    const theirs = await rowsOf(rival);
    const theirIds = new Set(theirs.map((row) => row.id));
    for (const who of [merchant, merchantKey]) {
      const mine = (await call(who, 'GET', 'payment-requests?itemsPerPage=1000')).json();
      expect(mine.items.length).toBeGreaterThan(0);
      expect(mine.items.some((item: { id: string }) => theirIds.has(item.id))).toBe(false);
      expect((await call(who, 'GET', `payment-requests/${theirs[0]!.id}`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `payment-requests/count?filter=${encodeURIComponent(`id eq ${theirs[0]!.id}`)}`)).json().count).toBe(0);
      for (const url of ['payment-requests', 'payment-requests/count', `payment-requests/${theirs[0]!.id}`]) {
        expect((await call(who, 'GET', url, undefined, { 'dataset-id': '2' })).statusCode).toBe(404);
      }
    }
  });

  it("never changes another tenant's request, by user or access key", async () => {
    const [theirs] = (await rowsOf(rival)).filter((row) => row.requestStatus === 'Open');
    const [allocation] = await ctx.database.withTenant(rival.tenantId, (tx) =>
      tx.select().from(paymentRequestAllocations).where(eq(paymentRequestAllocations.tenantId, rival.tenantId)).limit(1),
    );
    const [theirTransaction] = await ctx.database.withTenant(rival.tenantId, (tx) => tx.select().from(transactions).where(eq(transactions.tenantId, rival.tenantId)).limit(1));
    for (const who of [merchant, merchantKey]) {
      const update = await call(who, 'PATCH', 'payment-requests', { id: theirs!.id, description: 'Hijacked' });
      expect(update.statusCode).toBe(404);
      const allocations = await call(who, 'PATCH', `payment-requests/${theirs!.id}/transaction-allocation-info`, [
        { transactionId: allocation?.transactionId ?? theirTransaction!.id, amount: 1 },
      ]);
      expect(allocations.statusCode).toBe(404);
    }
    expect((await rowsOf(rival)).find((row) => row.id === theirs!.id)!.description).toBe(theirs!.description);
    // The rival's own key still sees its request.
    expect((await call(rivalKey, 'GET', `payment-requests/${theirs!.id}`)).statusCode).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents every payment-requests call', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v0/openapi.json' })).json();
    expect(Object.keys(doc.paths['/api/v0/payment-requests'])).toEqual(expect.arrayContaining(['get', 'post', 'patch']));
    for (const path of ['/api/v0/payment-requests/count', '/api/v0/payment-requests/{id}', '/api/v0/payment-requests/{id}/transaction-allocation-info']) {
      expect(doc.paths[path]).toBeDefined();
    }
  });
});
