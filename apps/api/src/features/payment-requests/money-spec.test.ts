import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  minorUnitsMessage,
  settlementStatusOf,
  settlementStatuses,
  paymentTransactionStatuses,
} from '@ledgerline/contract';
import { accounts, paymentTransactions } from '../../db/schema-receivables.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { generateReceivables } from '../datasets/demo-data.js';
import {
  buildTestApp,
  signIn,
  type SignedIn,
  type TestContext,
  byKey,
  type Caller,
} from '../../../test/app.js';
import { setFeatureFlag } from '../../../test/feature-gates.js';

/** Spec 2 items 14–22: every row of the spec, exactly. */
let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let merchantKey: Caller;
const size = {
  accounts: 6,
  transactions: 12,
  paymentRequests: 6,
  paymentTransactions: 12,
  banks: 0,
};

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
const call = (who: Caller, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const accountsOf = (who: SignedIn) =>
  ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .select()
      .from(accounts)
      .where(eq(accounts.tenantId, who.tenantId))
      .orderBy(accounts.accountReference),
  );

const dialogBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
  requestType: 'Transaction',
  accountId,
  currency: 'GBP',
  amount: 100,
  transactionDate: '2026-11-01',
  dueDate: '2026-12-01',
  description: 'Goods and/or services.',
  paymentTerms: '30 days from transaction date',
  ...extra,
});
const accountBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
  requestType: 'Account',
  captureType: 'Immediate',
  currency: 'GBP',
  amountToPay: 250,
  accountId,
  ...extra,
});

let counter = 0;
async function pushInvoice(accountReference: string, currency: string, transactionAmount: number) {
  counter += 1;
  const response = await call(merchantKey, 'POST', 'transactions', {
    accountReference,
    transactionReference: `MS${String(counter).padStart(5, '0')}`,
    transactionType: 'Invoice',
    transactionDate: '2026-03-01',
    dueDate: '2026-03-31',
    currency,
    transactionAmount,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Money Spec Ltd' });
  rival = await signIn(ctx, { tenantName: 'Money Spec Rival Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size),
    );
  }
  const key = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/access-keys',
    headers: merchant.headers(),
    payload: { name: 'ERP' },
  });
  merchantKey = byKey(key.json().accessKey as string);
  await setFeatureFlag(ctx, 'settlementConfigurations', true);
});
afterAll(() => ctx.close());

describe('item 15: amounts follow the currency’s minor units (refused, not rounded)', () => {
  it('refuses a JPY request of 100.50 and a KWD one of 1.2345, accepts ¥101 and KWD 1.234', async () => {
    const [account] = await accountsOf(merchant);
    const jpy = await call(
      merchant,
      'POST',
      'payment-requests',
      accountBody(account!.id, { currency: 'JPY', amountToPay: 100.5 }),
    );
    expect(jpy.statusCode).toBe(400);
    expect(jpy.json().errors.amountToPay).toEqual(['Amount must be a whole number in JPY']);
    // The dialog's 'YEN' is JPY too.
    const yen = await call(
      merchant,
      'POST',
      'payment-requests',
      dialogBody(account!.id, { currency: 'YEN', amount: 100.5 }),
    );
    expect(yen.statusCode).toBe(400);
    expect(yen.json().errors.amount).toEqual(['Amount must be a whole number in JPY']);
    const kwd = await call(
      merchant,
      'POST',
      'payment-requests',
      accountBody(account!.id, { currency: 'KWD', amountToPay: 1.2345 }),
    );
    expect(kwd.statusCode).toBe(400);
    expect(kwd.json().errors.amountToPay).toEqual([
      'Amount can have at most 3 decimal places in KWD',
    ]);
    const gbp = await call(
      merchant,
      'POST',
      'payment-requests',
      accountBody(account!.id, { amountToPay: 10.005 }),
    );
    expect(gbp.json().errors.amountToPay).toEqual([minorUnitsMessage('Amount', 'GBP', 2)]);

    const whole = await call(
      merchant,
      'POST',
      'payment-requests',
      accountBody(account!.id, { currency: 'JPY', amountToPay: 101 }),
    );
    expect(whole.statusCode, whole.body).toBe(201);
    expect(whole.json()).toMatchObject({ currency: 'JPY', amountToPay: 101 });
    const fils = await call(
      merchant,
      'POST',
      'payment-requests',
      accountBody(account!.id, { currency: 'KWD', amountToPay: 1.234 }),
    );
    expect(fils.statusCode, fils.body).toBe(201);
    expect(fils.json()).toMatchObject({ currency: 'KWD', amountToPay: 1.234 });
  });

  it('refuses allocation amounts, limits and invoice requests finer than JPY’s minor unit', async () => {
    const [account] = await accountsOf(merchant);
    const invoice = await pushInvoice(account!.accountReference, 'JPY', 5000);
    const invoices = await call(merchant, 'POST', 'payment-requests', {
      requestType: 'Transaction',
      accountId: account!.id,
      transactionAllocations: [{ transactionId: invoice.id, amount: 1000.5 }],
    });
    expect(invoices.statusCode).toBe(422);
    expect(invoices.json().errors['transactionAllocations.0.amount']).toEqual([
      'Amount must be a whole number in JPY',
    ]);

    const created = await call(merchant, 'POST', 'payment-requests', {
      requestType: 'Transaction',
      accountId: account!.id,
      transactionAllocations: [{ transactionId: invoice.id, amount: 1000 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const requestId = created.json().id as string;
    const edit = (entry: Record<string, unknown>) =>
      call(merchant, 'PATCH', `payment-requests/${requestId}/transaction-allocation-info`, [
        { transactionId: invoice.id, ...entry },
      ]);
    const amount = await edit({ amount: 999.9 });
    expect(amount.statusCode).toBe(400);
    expect(amount.json().errors['0.amount']).toEqual(['Amount must be a whole number in JPY']);
    const minimum = await edit({ canEditAmount: true, minimumAmount: 0.5, maximumAmount: 2000 });
    expect(minimum.json().errors['0.minimumAmount']).toEqual([
      'Minimum Amount must be a whole number in JPY',
    ]);
    const maximum = await edit({ canEditAmount: true, minimumAmount: 1, maximumAmount: 2000.25 });
    expect(maximum.json().errors['0.maximumAmount']).toEqual([
      'Maximum Amount must be a whole number in JPY',
    ]);
    // Nothing of the refused edits was kept.
    const after = (await call(merchant, 'GET', `payment-requests/${requestId}`)).json();
    expect(after.transactionAllocations[0]).toMatchObject({
      amount: 1000,
      minimumAmount: null,
      maximumAmount: null,
    });
    expect(after.amountToPay).toBe(1000);
  });

  it('refuses a settlement offer amount finer than KWD’s minor unit, accepts three decimals', async () => {
    const [account] = await accountsOf(merchant);
    const invoice = await pushInvoice(account!.accountReference, 'KWD', 100);
    const offer = (amount: number) =>
      call(merchant, 'POST', `transactions/${invoice.id}/settlement-offers`, {
        type: 'AbsoluteDiscount',
        description: 'Early payment',
        amount,
      });
    const refused = await offer(1.2345);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.amount).toEqual([
      'Amount can have at most 3 decimal places in KWD',
    ]);
    const accepted = await offer(1.234);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ currency: 'KWD', amount: 1.234 });
  });
});

describe('item 16: request dates', () => {
  it('editing only the description keeps valid-from and valid-until to the millisecond', async () => {
    const [account] = await accountsOf(merchant);
    const created = await call(
      merchant,
      'POST',
      'payment-requests',
      accountBody(account!.id, {
        validFrom: '2026-06-01T15:45:12.345Z',
        validUntil: '2026-06-30T21:30:00.000Z',
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const edited = await call(merchant, 'PATCH', 'payment-requests', {
      id,
      description: 'New words',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      description: 'New words',
      validFrom: '2026-06-01T15:45:12.345Z',
      validUntil: '2026-06-30T21:30:00.000Z',
    });
  });

  it("a valid-until given as a day ('Valid to 30 June') lasts to the end of that day", async () => {
    const [account] = await accountsOf(merchant);
    const created = await call(
      merchant,
      'POST',
      'payment-requests',
      accountBody(account!.id, { validFrom: '2026-06-01', validUntil: '2026-06-30' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      validFrom: '2026-06-01T00:00:00.000Z',
      validUntil: '2026-06-30T23:59:59.999Z',
    });
    const edited = await call(merchant, 'PATCH', 'payment-requests', {
      id: created.json().id,
      validUntil: '2026-07-15',
    });
    expect(edited.json().validUntil).toBe('2026-07-15T23:59:59.999Z');
    // A one-day link: from the start to the end of the same day.
    const oneDay = await call(merchant, 'PATCH', 'payment-requests', {
      id: created.json().id,
      validFrom: '2026-07-15',
      validUntil: '2026-07-15',
    });
    expect(oneDay.statusCode, oneDay.body).toBe(200);
    const backwards = await call(merchant, 'PATCH', 'payment-requests', {
      id: created.json().id,
      validFrom: '2026-07-16',
      validUntil: '2026-07-15',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors.validUntil).toEqual(['Valid To must be less than Valid From']);
  });
});

describe('item 19: usage type default — the request’s own, else the account’s, else the company’s, else Single', () => {
  it('saves an account default, keeps it when a body leaves it out, and refuses an unknown one', async () => {
    const [, account] = await accountsOf(merchant);
    const base = {
      disableAutoApplySettlements: false,
      disableLatePayments: false,
      editPaymentStatus: 'Default',
      editPaymentOverrideStatus: 'UseAccountStatus',
    };
    const saved = await call(merchant, 'PUT', `accounts/${account!.id}/settings`, {
      ...base,
      defaultUsageType: 'Multiple',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().accountSettings.defaultUsageType).toBe('Multiple');
    const kept = await call(merchant, 'PUT', `accounts/${account!.id}/settings`, {
      ...base,
      editPaymentStatus: 'Allow',
    });
    expect(kept.json().accountSettings).toMatchObject({
      defaultUsageType: 'Multiple',
      editPaymentStatus: 'Allow',
    });
    const bad = await call(merchant, 'PUT', `accounts/${account!.id}/settings`, {
      ...base,
      defaultUsageType: 'Twice',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.defaultUsageType).toEqual([
      "Default usage type must be one of Single, Multiple, or null for the company's default.",
    ]);

    // New requests of the account take its default; the request's own choice still wins.
    const dialog = await call(merchant, 'POST', 'payment-requests', dialogBody(account!.id));
    expect(dialog.json().options.usage).toBe('Multiple');
    expect(dialog.json().account.defaultUsageType).toBe('Multiple');
    const fromAccount = await call(merchant, 'POST', 'payment-requests', accountBody(account!.id));
    expect(fromAccount.json().options.usage).toBe('Multiple');
    const invoice = await pushInvoice(account!.accountReference, 'GBP', 40);
    const own = await call(merchant, 'POST', 'payment-requests', {
      requestType: 'Transaction',
      accountId: account!.id,
      transactionAllocations: [{ transactionId: invoice.id }],
      usageType: 'Single',
    });
    expect(own.json().options.usage).toBe('Single');

    // null goes back to the company's default (Single unless its preferences say otherwise).
    const cleared = await call(merchant, 'PUT', `accounts/${account!.id}/settings`, {
      ...base,
      defaultUsageType: null,
    });
    expect(cleared.json().accountSettings.defaultUsageType).toBeNull();
    const companyDefault = await call(
      merchant,
      'POST',
      'payment-requests',
      dialogBody(account!.id),
    );
    expect(companyDefault.json().options.usage).toBe('Single');
  });
});

describe('item 20: allocation edit keeps unset required / canEditAmount unset', () => {
  it('null stays null (not false) through an edit, and true/false are kept as sent', async () => {
    const [account] = await accountsOf(merchant);
    const invoice = await pushInvoice(account!.accountReference, 'GBP', 80);
    const created = await call(merchant, 'POST', 'payment-requests', {
      requestType: 'Transaction',
      accountId: account!.id,
      transactionAllocations: [{ transactionId: invoice.id }],
    });
    const id = created.json().id as string;
    const edit = (entry: Record<string, unknown>) =>
      call(merchant, 'PATCH', `payment-requests/${id}/transaction-allocation-info`, [
        { transactionId: invoice.id, ...entry },
      ]);
    const unset = await edit({ required: null, canEditAmount: null, amount: 50 });
    expect(unset.statusCode, unset.body).toBe(200);
    expect(unset.json().transactionAllocations[0]).toMatchObject({
      required: null,
      canEditAmount: null,
      amount: 50,
    });
    const again = (await call(merchant, 'GET', `payment-requests/${id}`)).json();
    expect(again.transactionAllocations[0]).toMatchObject({ required: null, canEditAmount: null });
    const set = await edit({ required: false, canEditAmount: true });
    expect(set.json().transactionAllocations[0]).toMatchObject({
      required: false,
      canEditAmount: true,
      amount: 50,
    });
  });
});

describe('item 21: transactionTypeName and the settlement status', () => {
  it("answers the ERP's own type name, else the type in words", async () => {
    const [account] = await accountsOf(merchant);
    const named = await call(merchantKey, 'POST', 'transactions', {
      accountReference: account!.accountReference,
      transactionReference: `NAMED-${randomUUID().slice(0, 6)}`,
      transactionType: 'BalanceIncreasingTransaction',
      transactionTypeName: '  Sales Invoice (SOP)  ',
      transactionDate: '2026-03-01',
      currency: 'GBP',
      transactionAmount: 12,
    });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().transactionTypeName).toBe('Sales Invoice (SOP)');
    const unnamed = await pushInvoice(account!.accountReference, 'GBP', 12);
    expect(
      (await call(merchant, 'GET', `transactions/${unnamed.id}`)).json().transactionTypeName,
    ).toBe('Invoice');
    const list = (
      await call(merchant, 'GET', 'transactions?itemsPerPage=100&expand=account')
    ).json();
    for (const item of list.items as { transactionType: string; transactionTypeName: string }[]) {
      expect(typeof item.transactionTypeName).toBe('string');
    }
    expect(
      list.items.find((item: { id: string }) => item.id === named.json().id).transactionTypeName,
    ).toBe('Sales Invoice (SOP)');
    const tooLong = await call(merchantKey, 'POST', 'transactions', {
      accountReference: account!.accountReference,
      transactionReference: 'NAMED-LONG',
      transactionType: 'Invoice',
      transactionTypeName: 'x'.repeat(101),
      transactionDate: '2026-03-01',
      currency: 'GBP',
      transactionAmount: 12,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors.transactionTypeName).toEqual([
      'Transaction type name must be at most 100 characters.',
    ]);
  });

  it('names the settlement statuses as spec 2 §3 does and answers each payment’s', async () => {
    expect([...settlementStatuses]).toEqual(['Closed', 'Processing', 'Reserved', 'Scheduled']);
    expect(settlementStatusOf('Pending', 'Card')).toBe('Reserved');
    expect(settlementStatusOf('Processing', 'BankDebit')).toBe('Scheduled');
    expect(settlementStatusOf('Processing', 'Card')).toBe('Processing');
    for (const status of paymentTransactionStatuses.filter(
      (s) => s !== 'Pending' && s !== 'Processing',
    )) {
      expect(settlementStatusOf(status, 'Card')).toBe('Closed');
    }
    const page = (await call(merchant, 'GET', 'payment-transactions?itemsPerPage=100')).json();
    for (const item of page.items as {
      status: 'Paid';
      paymentMethodType: 'Card';
      settlementStatus: string;
    }[]) {
      expect(item.settlementStatus).toBe(settlementStatusOf(item.status, item.paymentMethodType));
    }
  });
});

describe('item 22: GET payment-transactions/{id} honours its flags and answers account and paymentProvider', () => {
  async function paymentWithProvider() {
    const [row] = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx
        .select()
        .from(paymentTransactions)
        .where(
          and(
            eq(paymentTransactions.tenantId, merchant.tenantId),
            eq(paymentTransactions.datasetId, 1),
          ),
        )
        .limit(1),
    );
    const providerId = randomUUID();
    await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.insert(paymentProviders).values({
        tenantId: merchant.tenantId,
        datasetId: 1,
        id: providerId,
        providerName: 'Stripe',
        name: `Card payments ${providerId.slice(0, 8)}`,
        enabled: true,
        credentialsSealed: 'v1.test.not-read.by.this-call',
      });
      await tx
        .update(paymentTransactions)
        .set({ paymentProviderId: providerId })
        .where(
          and(
            eq(paymentTransactions.tenantId, merchant.tenantId),
            eq(paymentTransactions.id, row!.id),
          ),
        );
    });
    return { payment: row!, providerId };
  }

  it('answers everything by default, with the account and the provider as objects', async () => {
    const { payment, providerId } = await paymentWithProvider();
    const response = await call(merchant, 'GET', `payment-transactions/${payment.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const [account] = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx
        .select()
        .from(accounts)
        .where(and(eq(accounts.tenantId, merchant.tenantId), eq(accounts.id, payment.accountId!))),
    );
    expect(body.account).toEqual({
      id: account!.id,
      accountReference: account!.accountReference,
      name: account!.name,
      currency: account!.currency,
    });
    expect(body.paymentProvider).toEqual({
      id: providerId,
      name: `Card payments ${providerId.slice(0, 8)}`,
      providerName: 'Stripe',
      isTest: false,
      enabled: true,
    });
    expect(body).toHaveProperty('paymentRequest');
    expect(Array.isArray(body.paymentAllocations)).toBe(true);
    expect(Array.isArray(body.paymentFeeTransactions)).toBe(true);
    expect(body).not.toHaveProperty('credentialsSealed');
  });

  it('leaves out each part whose flag is false', async () => {
    const { payment } = await paymentWithProvider();
    const url = `payment-transactions/${payment.id}`;
    const lean = (
      await call(
        merchant,
        'GET',
        `${url}?includeAccount=false&includePaymentRequest=false&includePaymentAllocations=false&includeLatePaymentTransactions=false`,
      )
    ).json();
    for (const part of [
      'account',
      'paymentRequest',
      'paymentAllocations',
      'paymentFeeTransactions',
    ])
      expect(lean).not.toHaveProperty(part);
    expect(lean.paymentProvider).toMatchObject({ providerName: 'Stripe' });
    const onlyAccount = (
      await call(merchant, 'GET', `${url}?includeAccount=true&includePaymentRequest=false`)
    ).json();
    expect(onlyAccount.account).toMatchObject({ id: payment.accountId });
    expect(onlyAccount).not.toHaveProperty('paymentRequest');
    expect(onlyAccount).toHaveProperty('paymentAllocations');
    const bad = await call(merchant, 'GET', `${url}?includeAccount=yes`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.includeAccount).toEqual(['includeAccount must be true or false']);
  });

  it("another tenant's payment is not found, flags or not", async () => {
    const { payment } = await paymentWithProvider();
    for (const query of ['', '?includeAccount=true']) {
      const response = await call(rival, 'GET', `payment-transactions/${payment.id}${query}`);
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('item 14: the settings tab’s settlement groups and late-payment configurations', () => {
  it("saves a group and a configuration chosen by id, answered by their ids; another tenant's are refused", async () => {
    const [, , account] = await accountsOf(merchant);
    const group = await call(merchant, 'POST', 'settlement-configuration-groups', {
      name: `Group ${randomUUID().slice(0, 8)}`,
    });
    const rivalGroup = await call(rival, 'POST', 'settlement-configuration-groups', {
      name: 'Theirs',
    });
    expect(group.statusCode, group.body).toBe(201);
    const base = {
      disableAutoApplySettlements: false,
      disableLatePayments: false,
      editPaymentStatus: 'Default',
      editPaymentOverrideStatus: 'UseAccountStatus',
    };
    const saved = await call(merchant, 'PUT', `accounts/${account!.id}/settings`, {
      ...base,
      settlementConfigurationGroupId: group.json().id,
    });
    expect(saved.json().accountSettings.settlementConfigurationGroupId).toBe(group.json().id);
    const refused = await call(merchant, 'PUT', `accounts/${account!.id}/settings`, {
      ...base,
      settlementConfigurationGroupId: rivalGroup.json().id,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.settlementConfigurationGroupId).toEqual([
      'No settlement configuration group of this company has this id.',
    ]);
    const both = await call(merchant, 'PUT', `accounts/${account!.id}/settings`, {
      ...base,
      disableAutoApplySettlements: true,
      settlementConfigurationGroupId: group.json().id,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors.settlementConfigurationGroupId).toEqual([
      'Choose either auto-apply disabled or a settlement configuration group, not both.',
    ]);
  });
});
