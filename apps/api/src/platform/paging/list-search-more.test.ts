import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryMessages } from '@ledgerline/contract';
import { datasets } from '../../db/schema.js';
import {
  accounts,
  banks,
  payers,
  paymentDisputes,
  paymentTransactions,
} from '../../db/schema-receivables.js';
import { generateReceivables } from '../../features/datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

// The search box of every other list a merchant uses, on the server, through
// the one compileSearch (platform/paging/compile-filter.ts) every paged list compiles.
const company = { 'dataset-id': '1' };
/** The rows each tenant gets in every list: two share the word, each has its own. */
const names = ['Quokka Alpha', 'Quokka Beta', 'Wallaby Gamma'] as const;
const found2 = ['Quokka Alpha', 'Quokka Beta'];
const word = 'quokka';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;

type Item = Record<string, unknown> & { id: string | number };
const get = (who: SignedIn, path: string, query: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/v0/${path}?${new URLSearchParams({ itemsPerPage: '100', ...query })}`,
    headers: who.headers(company),
  });
const post = async (who: SignedIn, path: string, payload: object) => {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/${path}`,
    headers: who.headers(company),
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
};
const page = async (who: SignedIn, path: string, query: Record<string, string> = {}) => {
  const response = await get(who, path, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { items: Item[]; totalItems: number };
};

interface List {
  path: string;
  /** The field the seeded names are in (and which the search reads). */
  field: string;
  /** The field's value on a row of the answer, when it is not at the top. */
  read?: (item: Item) => unknown;
  seed: (who: SignedIn) => Promise<void>;
}

const step = { days: 1, subject: 'Overdue: {account}', body: 'Dear {account},\n\n{invoiceTable}' };
const lists: List[] = [
  {
    path: 'banks',
    field: 'accountName',
    seed: (who) =>
      ctx.database.withTenant(who.tenantId, async (tx) => {
        for (const name of names)
          await tx.insert(banks).values({
            tenantId: who.tenantId,
            datasetId: 1,
            id: randomUUID(),
            accountName: name,
            currency: 'GBP',
            bankName: 'Barclays',
          });
      }),
  },
  {
    path: 'payers',
    field: 'companyName',
    read: (item) => (item.details as Record<string, unknown>).companyName,
    seed: (who) =>
      ctx.database.withTenant(who.tenantId, async (tx) => {
        const [account] = await tx
          .select({ id: accounts.id })
          .from(accounts)
          .where(eq(accounts.tenantId, who.tenantId))
          .limit(1);
        for (const name of names)
          await tx.insert(payers).values({
            tenantId: who.tenantId,
            datasetId: 1,
            id: randomUUID(),
            accountId: account!.id,
            companyName: name,
            emailAddress: `${name.replace(' ', '.').toLowerCase()}@example.com`,
          });
      }),
  },
  {
    path: 'disputes',
    field: 'disputeReference',
    seed: (who) =>
      ctx.database.withTenant(who.tenantId, async (tx) => {
        const [payment] = await tx
          .select({ id: paymentTransactions.id })
          .from(paymentTransactions)
          .where(eq(paymentTransactions.tenantId, who.tenantId))
          .limit(1);
        for (const name of names)
          await tx.insert(paymentDisputes).values({
            tenantId: who.tenantId,
            datasetId: 1,
            id: randomUUID(),
            paymentTransactionId: payment!.id,
            disputeReference: name,
            amount: '12.50',
            currency: 'GBP',
            stage: 'Opened',
          });
      }),
  },
  {
    path: 'providers',
    field: 'name',
    seed: async (who) => {
      for (const name of names)
        await post(who, 'providers', {
          providerName: 'Sandbox',
          name,
          enabled: true,
          displayPriority: 0,
        });
    },
  },
  {
    path: 'late-payment-configurations',
    field: 'name',
    seed: async (who) => {
      for (const name of names)
        await post(who, 'late-payment-configurations', { type: 'Uk', name, gracePeriodInDays: 0 });
    },
  },
  {
    path: 'settlement-configuration-groups',
    field: 'name',
    seed: async (who) => {
      for (const name of names) await post(who, 'settlement-configuration-groups', { name });
    },
  },
  {
    path: 'reminder-schedules',
    field: 'name',
    seed: async (who) => {
      for (const name of names) await post(who, 'reminder-schedules', { name, steps: [step] });
    },
  },
];

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Searching More Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Searching More Ltd' });
  // The same rows in both tenants: the same names exist in each.
  for (const who of [merchant, rival]) {
    // A demo company: the Sandbox provider is allowed there only.
    await makeDemoCompany(ctx, who);
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(
        tx,
        { tenantId: who.tenantId, datasetId: 1 },
        { accounts: 2, transactions: 2, paymentRequests: 1, paymentTransactions: 2, banks: 2 },
      ),
    );
    for (const list of lists) await list.seed(who);
  }
});
afterAll(() => ctx.close());

describe.each(lists)('GET $path?search=', ({ path, field, read = (item) => item[field] }) => {
  it('finds the rows with the words, in any case, and only them; the count follows', async () => {
    const all = await page(merchant, path);
    expect(all.totalItems).toBeGreaterThanOrEqual(3);
    const found = await page(merchant, path, { search: ` ${word.toUpperCase()} ` });
    expect(found.items.map(read).sort()).toEqual(found2);
    expect(found.totalItems).toBe(2);
    const one = await page(merchant, path, { search: 'alpha' });
    expect(one.items.map(read)).toEqual(['Quokka Alpha']);
    expect(one.totalItems).toBe(1);
  });

  it('finds nothing when no row has the words', async () => {
    const none = await page(merchant, path, { search: 'wombat' });
    expect(none.items).toEqual([]);
    expect(none.totalItems).toBe(0);
  });

  it('combines with a filter and the paging, the total counting the search', async () => {
    const filtered = await page(merchant, path, {
      search: word,
      filter: `${field} eq Quokka Beta`,
    });
    expect(filtered.items.map(read)).toEqual(['Quokka Beta']);
    expect(filtered.totalItems).toBe(1);
    const paged = await page(merchant, path, { search: word, itemsPerPage: '1', page: '2' });
    expect(paged.items).toHaveLength(1);
    expect(paged.totalItems).toBe(2);
  });

  it('never finds another tenant’s rows', async () => {
    const mine = new Set((await page(merchant, path, { search: word })).items.map((i) => i.id));
    const theirs = await page(rival, path, { search: word });
    expect(theirs.totalItems).toBe(2);
    expect(theirs.items.some((item) => mine.has(item.id))).toBe(false);
  });
});

describe('GET data-sets?search= (Companies)', () => {
  beforeAll(async () => {
    for (const [who, name] of [
      [merchant, 'Quokka Trading'],
      [rival, 'Quokka Rival'],
    ] as const) {
      await ctx.database.db
        .update(datasets)
        .set({ name })
        .where(and(eq(datasets.tenantId, who.tenantId), eq(datasets.id, 1)));
    }
  });

  it('finds a company by its name, by its id, and only the tenant’s own', async () => {
    const all = await page(merchant, 'data-sets');
    const found = await page(merchant, 'data-sets', { search: 'QUOKKA' });
    expect(found.items.map((item) => item.name)).toEqual(['Quokka Trading']);
    expect(found.totalItems).toBe(1);
    expect(found.items[0]!.id).toBe(1);
    const byId = await page(merchant, 'data-sets', {
      search: '1',
      filter: 'name eq Quokka Trading',
    });
    expect(byId.items.map((item) => item.id)).toEqual([1]);
    expect((await page(merchant, 'data-sets', { search: 'wombat' })).totalItems).toBe(0);
    expect(all.totalItems).toBeGreaterThanOrEqual(found.totalItems);
    const theirs = await page(rival, 'data-sets', { search: 'quokka' });
    expect(theirs.items.map((item) => item.name)).toEqual(['Quokka Rival']);
    expect(theirs.totalItems).toBe(1);
  });
});

describe('search on a list without a search box', () => {
  it('is refused with the message', async () => {
    const response = await get(merchant, `providers/${randomUUID()}/events`, { search: 'abc' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: queryMessages.noSearch,
      errors: { search: [queryMessages.noSearch] },
    });
  });
});
