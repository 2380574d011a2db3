import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { payers } from '../../db/schema-receivables.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

const company = (id: number) => ({ 'dataset-id': String(id) });
const size = { accounts: 6, transactions: 6, paymentRequests: 2, paymentTransactions: 4, banks: 0 };

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Payers Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Payers Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size),
    );
  }
});
afterAll(() => ctx.close());

const list = (who: SignedIn, query = '', headers = company(1)) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/payers${query}`, headers: who.headers(headers) });

// /payers lists the payers of every account of the company.
describe('GET payers', () => {
  it('lists the payers of every account of the company, newest first', async () => {
    const rows = await ctx.database.db
      .select()
      .from(payers)
      .where(eq(payers.tenantId, merchant.tenantId));
    expect(new Set(rows.map((row) => row.accountId)).size).toBeGreaterThan(1);
    const response = await list(merchant, '?itemsPerPage=1000');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totalItems).toBe(rows.length);
    const expected = [...rows]
      .sort((a, b) => b.createdOn.getTime() - a.createdOn.getTime() || (a.id < b.id ? 1 : -1))
      .map((row) => row.id);
    expect(body.items.map((payer: { id: string }) => payer.id)).toEqual(expected);
    expect(body.items[0]).toMatchObject({
      accountId: expect.any(String),
      details: expect.any(Object),
    });

    const named = rows.find((row) => row.surname)!;
    const filtered = await list(
      merchant,
      `?filter=${encodeURIComponent(`surname eq ${named.surname}`)}`,
    );
    expect(
      filtered
        .json()
        .items.every(
          (payer: { details: { surname: string } }) => payer.details.surname === named.surname,
        ),
    ).toBe(true);
    const badSort = await list(merchant, '?sort=colour');
    expect(badSort.statusCode).toBe(400);
  });

  it('shows another tenant none of them, and answers 404 for its company', async () => {
    const mine = (await list(merchant, '?itemsPerPage=1000'))
      .json()
      .items.map((p: { id: string }) => p.id);
    const theirs = (await list(rival, '?itemsPerPage=1000'))
      .json()
      .items.map((p: { id: string }) => p.id);
    expect(theirs.some((id: string) => mine.includes(id))).toBe(false);
    expect((await list(rival, '', company(2))).statusCode).toBe(404);
  });

  it('needs a session and a company; a viewer may read it', async () => {
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/payers',
      headers: company(1),
    });
    expect(anonymous.statusCode).toBe(401);
    const withoutCompany = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/payers',
      headers: merchant.headers(),
    });
    expect(withoutCompany.statusCode).toBe(400);
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, rival.userId));
    expect((await list(rival)).statusCode).toBe(200);
  });
});
