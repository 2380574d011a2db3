import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryMessages } from '@ledgerline/contract';
import { generateReceivables } from '../../features/datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

// The search box of each list, and several statuses at once, on the server.
const company = { 'dataset-id': '1' };
const size = {
  accounts: 8,
  transactions: 12,
  paymentRequests: 8,
  paymentTransactions: 24,
  banks: 0,
};

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Searching Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Searching Ltd' });
  // The same demo data in both: the same names and references exist in each tenant.
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size),
    );
  }
});
afterAll(() => ctx.close());

type Item = Record<string, unknown> & { id: string };
const get = (who: SignedIn, path: string, query: Record<string, string>) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/v0/${path}?${new URLSearchParams({ itemsPerPage: '1000', ...query })}`,
    headers: who.headers(company),
  });
const items = async (who: SignedIn, path: string, query: Record<string, string> = {}) => {
  const response = await get(who, path, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items as Item[];
};

/** Each list: what its search reads (text fields and the amount). */
const lists = [
  {
    path: 'payment-transactions',
    text: ['ledgerlineReference', 'customerName', 'companyName'],
    amount: 'totalAmount',
  },
  { path: 'payment-requests', text: ['customerReference', 'customerName'], amount: 'amountToPay' },
  { path: 'accounts', text: ['accountReference', 'name'], amount: 'balance' },
  { path: 'transactions', text: ['transactionReference'], amount: 'transactionAmount' },
] as const;

const contains = (value: unknown, words: string) =>
  typeof value === 'string' && value.toLowerCase().includes(words.toLowerCase());

describe.each(lists)('GET $path?search=', ({ path, text, amount }) => {
  it('finds a row by part of its reference, in any case, and only rows that have the words', async () => {
    const all = await items(merchant, path);
    const row = all.find((item) => typeof item[text[0]] === 'string' && item[text[0]] !== '')!;
    // The whole reference, in the other case (parts of the demo's references are shared by all).
    const reference = String(row[text[0]]);
    const words =
      reference === reference.toLowerCase() ? reference.toUpperCase() : reference.toLowerCase();
    const found = await items(merchant, path, { search: `  ${words} ` });
    expect(found.map((item) => item.id)).toContain(row.id);
    expect(found.length).toBeLessThan(all.length);
    // transactions also reads the account's name, which is not on the row without expand.
    if (path !== 'transactions') {
      for (const item of found) {
        expect(text.some((field) => contains(item[field], words))).toBe(true);
      }
    }
  });

  it('finds a row by its amount, as people write it', async () => {
    const all = await items(merchant, path);
    const row = all.find((item) => Number(item[amount]) >= 1000) ?? all[0]!;
    const value = Number(row[amount]);
    const typed = `£${value.toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
    const found = await items(merchant, path, { search: typed });
    expect(found.map((item) => item.id)).toContain(row.id);
    for (const item of found) {
      const byText = text.some((field) => contains(item[field], typed));
      expect(byText || Number(item[amount]) === value).toBe(true);
    }
  });

  it('combines with the filter and the paging', async () => {
    const all = await items(merchant, path);
    const row = all[0]!;
    const words = String(row[text[0]]);
    const response = await get(merchant, path, { search: words, itemsPerPage: '1', page: '1' });
    expect(response.statusCode).toBe(200);
    expect(response.json().totalItems).toBeGreaterThanOrEqual(1);
    expect(response.json().items).toHaveLength(1);
  });

  it('never finds another tenant’s rows, even by their exact reference', async () => {
    const mine = await items(merchant, path);
    const mineIds = new Set(mine.map((item) => item.id));
    for (const row of mine.slice(0, 3)) {
      const words = String(row[text[0]]);
      const theirs = await items(rival, path, { search: words });
      expect(theirs.some((item) => mineIds.has(item.id))).toBe(false);
    }
    const byAmount = await items(rival, path, { search: String(mine[0]![amount]) });
    expect(byAmount.some((item) => mineIds.has(item.id))).toBe(false);
  });

  it('refuses a search longer than 100 characters with the message', async () => {
    const response = await get(merchant, path, { search: 'x'.repeat(101) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: queryMessages.searchTooLong,
      errors: { search: [queryMessages.searchTooLong] },
    });
  });

  it('treats % and _ as themselves', async () => {
    expect(await items(merchant, path, { search: '%' })).toEqual([]);
    expect(await items(merchant, path, { search: '_' })).toEqual([]);
  });
});

describe('search on a list without a search box', () => {
  it('is refused with the message', async () => {
    // A configuration's provider events: a log read by its date and type, not searched.
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/providers/00000000-0000-4000-8000-000000000000/events?search=abc',
      headers: merchant.headers(company),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: queryMessages.noSearch,
      errors: { search: [queryMessages.noSearch] },
    });
  });
});

describe('several statuses at once (status multi-select)', () => {
  it('payment transactions: eq items on one status are alternatives', async () => {
    const all = await items(merchant, 'payment-transactions');
    const statuses = new Set(all.map((item) => item.status));
    expect(statuses.has('Failed') && statuses.has('Paid')).toBe(true);
    const both = await items(merchant, 'payment-transactions', {
      filter: 'status eq Failed,status eq Paid',
    });
    expect(both.length).toBe(
      all.filter((item) => item.status === 'Failed' || item.status === 'Paid').length,
    );
    expect(new Set(both.map((item) => item.status))).toEqual(new Set(['Failed', 'Paid']));
    // With another field's filter still ANDed.
    const row = both[0]!;
    const narrowed = await items(merchant, 'payment-transactions', {
      filter: `status eq Failed,type eq Payment,status eq Paid,ledgerlineReference eq ${String(row.ledgerlineReference)}`,
    });
    expect(narrowed.map((item) => item.id)).toEqual([row.id]);
  });

  it('payment requests: eq items on requestStatus are alternatives', async () => {
    const all = await items(merchant, 'payment-requests');
    const [first, second] = [...new Set(all.map((item) => String(item.requestStatus)))];
    const wanted = [first!, second ?? first!];
    const both = await items(merchant, 'payment-requests', {
      filter: wanted.map((status) => `requestStatus eq ${status}`).join(','),
    });
    expect(both.length).toBe(
      all.filter((item) => wanted.includes(String(item.requestStatus))).length,
    );
  });

  it('never shows another tenant’s rows', async () => {
    const mineIds = new Set((await items(merchant, 'payment-transactions')).map((i) => i.id));
    const theirs = await items(rival, 'payment-transactions', {
      filter: 'status eq Failed,status eq Paid',
    });
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.some((item) => mineIds.has(item.id))).toBe(false);
  });
});
