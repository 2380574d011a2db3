import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';

// A method's payment amount filter (spec 3 §3) applies to the amount the payer chose.

let ctx: TestContext;
let company: SignedIn;
let call: ReturnType<typeof caller>;
let accountId: string;
const ids: Record<'upTo50' | 'from100' | 'any', string> = { upTo50: '', from100: '', any: '' };
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-method-amounts-'));

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });

async function provider(name: string, minimum: number | null, maximum: number | null) {
  const response = await call(company, 'POST', 'providers', {
    providerName: 'Sandbox',
    name,
    enabled: true,
    displayPriority: 1,
    isTest: true,
    ...(minimum !== null || maximum !== null
      ? {
          paymentMethodConfigurations: [
            {
              paymentMethodType: 'Card',
              enabled: true,
              filterGroup: {
                filterConfigurations: [
                  {
                    filterType: 'PaymentAmount',
                    minimumPaymentValue: minimum,
                    maximumPaymentValue: maximum,
                  },
                ],
              },
            },
          ],
        }
      : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir, RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  company = await signIn(ctx, { tenantName: 'Method Amounts Ltd' });
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, company);
  accountId = await insertAccount(ctx, company);
  ids.any = await provider('Any amount', null, null);
  ids.upTo50 = await provider('Up to 50', null, 50);
  ids.from100 = await provider('From 100', 100, null);
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const methodsOf = (page: { methods: object[] }) =>
  Object.fromEntries(
    (
      page.methods as {
        configurationId: string;
        minimumAmount?: number;
        maximumAmount?: number;
      }[]
    ).map(({ configurationId, minimumAmount, maximumAmount }) => [
      configurationId,
      { minimumAmount, maximumAmount },
    ]),
  );

describe('payment methods follow the amount the payer chooses', () => {
  it('a request paid in full lists only the methods that take its amount', async () => {
    const id = await insertRequest(ctx, company, { accountId, amountToPay: '150' });
    const page = (await pay('GET', id)).json();
    expect(page.partPayment).toBeNull();
    expect(methodsOf(page)).toEqual({
      [ids.any]: { minimumAmount: undefined, maximumAmount: undefined },
      [ids.from100]: { minimumAmount: 100, maximumAmount: undefined },
    });
    const refused = await pay('POST', `${id}/payments`, { configurationId: ids.upTo50 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.configurationId).toEqual([
      'This way to pay is not available for this request. Please choose another.',
    ]);
  });

  it('an Account request the payer may pay part of: every method that takes some amount up to the whole, with its bounds', async () => {
    const id = await insertRequest(ctx, company, {
      accountId,
      usageType: 'Multiple',
      amountToPay: '150',
    });
    const page = (await pay('GET', id)).json();
    expect(page.partPayment).toEqual({ minimumAmount: 0.01, maximumAmount: 150 });
    expect(methodsOf(page)).toEqual({
      [ids.any]: { minimumAmount: undefined, maximumAmount: undefined },
      [ids.upTo50]: { minimumAmount: undefined, maximumAmount: 50 },
      [ids.from100]: { minimumAmount: 100, maximumAmount: undefined },
    });

    const tooLittle = await pay('POST', `${id}/payments`, {
      configurationId: ids.from100,
      amount: 30,
    });
    expect(tooLittle.statusCode).toBe(422);
    expect(tooLittle.json().detail).toBe(
      'From 100 takes payments of at least GBP 100.00. Choose another way to pay or change the amount.',
    );
    expect(tooLittle.json().errors.configurationId).toEqual([tooLittle.json().detail]);
    const tooMuch = await pay('POST', `${id}/payments`, { configurationId: ids.upTo50 });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.configurationId).toEqual([
      'Up to 50 takes payments of at most GBP 50.00. Choose another way to pay or change the amount.',
    ]);
    // Nothing was started by the refusals: the request is free for the allowed choice.
    const allowed = await pay('POST', `${id}/payments`, {
      configurationId: ids.upTo50,
      amount: 30,
    });
    expect(allowed.statusCode, allowed.body).toBe(201);
    expect(allowed.json().amount).toBe(30);
  });

  it('editable invoice amounts: the chosen total decides, and the bounds are inclusive', async () => {
    const preferences = await call(company, 'PUT', 'company-settings/preferences', {
      defaultEditPaymentStatus: 'Allow',
    });
    expect(preferences.statusCode, preferences.body).toBe(200);
    const invoice = await insertInvoice(ctx, company, accountId, {
      amount: '200',
      transactionDate: day(-2),
      dueDate: day(28),
    });
    const id = await insertRequest(ctx, company, { accountId, amountToPay: '200' }, [invoice]);
    const page = (await pay('GET', id)).json();
    expect(page.invoices[0].editable).not.toBeNull();
    expect(Object.keys(methodsOf(page)).sort()).toEqual([ids.any, ids.upTo50, ids.from100].sort());
    const whole = await pay('POST', `${id}/payments`, { configurationId: ids.upTo50 });
    expect(whole.statusCode).toBe(422);
    expect(whole.json().errors.configurationId[0]).toMatch(/^Up to 50 takes payments of at most/);
    const fifty = await pay('POST', `${id}/payments`, {
      configurationId: ids.upTo50,
      invoices: [{ transactionId: invoice, amount: 50 }],
    });
    expect(fifty.statusCode, fifty.body).toBe(201);
    expect(fifty.json().amount).toBe(50);
  });
});
