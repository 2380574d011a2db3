import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { settlementMessages, type TransactionQuote } from '@ledgerline/contract';
import { settlementConfigurations } from '../../db/schema-money-rules.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller, insertAccount, insertInvoice } from '../../../test/fixtures/money-rules.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

/**
 * An absolute discount saved without a currency took 10 off a JPY or KWD invoice
 * alike. Its currency is now required, and the engine applies it to invoices of that currency only.
 */
let ctx: TestContext;
let merchant: SignedIn;
let call: ReturnType<typeof caller>;
let groupId: string;
let accountId: string;

const configurations = () => `settlement-configuration-groups/${groupId}/configurations`;
const absolute = {
  type: 'AbsoluteDiscount',
  dateType: 'TransactionDate',
  numberOfDays: 10,
  amount: 10,
};

async function discountOn(currency: string) {
  const invoice = await insertInvoice(ctx, merchant, accountId, {
    amount: '1000',
    transactionDate: '2026-03-02',
    dueDate: '2026-04-01',
    currency,
  });
  const response = await call(merchant, 'GET', `transactions/${invoice}/quote?paidOn=2026-03-05`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as TransactionQuote).discount;
}

beforeAll(async () => {
  ctx = await buildTestApp();
  call = caller(ctx);
  merchant = await signIn(ctx, { tenantName: 'Absolute Currency Ltd' });
  await makeDemoCompany(ctx, merchant);
  const group = await call(merchant, 'POST', 'settlement-configuration-groups', {
    name: 'Ten off',
  });
  groupId = group.json().id;
  const preferences = await call(merchant, 'PUT', 'company-settings/preferences', {
    defaultSettlementConfigurationGroupId: groupId,
  });
  expect(preferences.statusCode, preferences.body).toBe(200);
  accountId = await insertAccount(ctx, merchant);
});
afterAll(() => ctx.close());

describe('absolute discounts require their currency', () => {
  it.each([
    ['AbsoluteDiscount', settlementMessages.currencyRequired],
    ['ReplacementAmount', settlementMessages.replacementCurrencyRequired],
  ])('refuses a %s without a currency, on create and on edit', async (type, message) => {
    for (const currency of [undefined, null]) {
      const created = await call(merchant, 'POST', configurations(), {
        ...absolute,
        type,
        currency,
      });
      expect(created.statusCode).toBe(400);
      expect(created.json().errors.currency).toEqual([message]);
    }
    const saved = await call(merchant, 'POST', configurations(), {
      ...absolute,
      type,
      currency: 'gbp',
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const stored = (saved.json().configurations as { id: string; currency: string }[]).at(-1)!;
    expect(stored.currency).toBe('GBP');
    const edited = await call(merchant, 'PUT', configurations(), {
      ...absolute,
      type,
      id: stored.id,
      currency: null,
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().errors.currency).toEqual([message]);
    expect((await call(merchant, 'DELETE', `${configurations()}/${stored.id}`)).statusCode).toBe(
      204,
    );
  });

  it('applies a GBP discount only to GBP invoices; one stored without a currency to none', async () => {
    const saved = await call(merchant, 'POST', configurations(), { ...absolute, currency: 'GBP' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(await discountOn('GBP')).toBe(10);
    expect(await discountOn('JPY')).toBe(0);
    expect(await discountOn('KWD')).toBe(0);
    const id = (saved.json().configurations as { id: string }[]).at(-1)!.id;
    expect((await call(merchant, 'DELETE', `${configurations()}/${id}`)).statusCode).toBe(204);

    // A row saved before the rule (no currency) gives nothing, in any currency.
    await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.insert(settlementConfigurations).values({
        tenantId: merchant.tenantId,
        datasetId: 1,
        id: randomUUID(),
        groupId,
        type: 'AbsoluteDiscount',
        dateType: 'TransactionDate',
        numberOfDays: 10,
        amount: '10',
        currency: null,
      }),
    );
    for (const currency of ['GBP', 'JPY', 'KWD']) expect(await discountOn(currency)).toBe(0);
  });
});
