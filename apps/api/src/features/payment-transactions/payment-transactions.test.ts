import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { paymentAllocations, paymentFeeTransactions, paymentTransactions } from '../../db/schema-receivables.js';
import { auditActivities, users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { countRows } from '../../platform/paging/count.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
const size = { accounts: 12, transactions: 30, paymentRequests: 10, paymentTransactions: 120, banks: 1 };

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Merchant Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) => generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size));
  }
});
afterAll(() => ctx.close());

const get = (who: SignedIn, url: string, headers: Record<string, string> = { 'dataset-id': '1' }) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/${url}`, headers: who.headers(headers) });

async function allRows(who: SignedIn) {
  return ctx.database.withTenant(who.tenantId, (tx) =>
    tx.select().from(paymentTransactions).where(and(eq(paymentTransactions.tenantId, who.tenantId), eq(paymentTransactions.datasetId, 1))),
  );
}

describe('GET payment-transactions', () => {
  it('pages by status date, newest first, with an exact total', async () => {
    const response = await get(merchant, 'payment-transactions?page=2&itemsPerPage=25');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totalItems).toBe(120);
    expect(body.totalItemsEstimated).toBe(false);
    expect(body.items).toHaveLength(25);
    const dates = body.items.map((item: { statusDateTime: string }) => item.statusDateTime);
    expect([...dates].sort().reverse()).toEqual(dates);
    const newest = (await allRows(merchant)).map((row) => row.statusDateTime.getTime()).sort((a, b) => b - a);
    expect(Date.parse(dates[0])).toBe(newest[25]);
    expect(body.items[0]).not.toHaveProperty('paymentRequest');
  });

  it('filters as the dashboard does and expands the payment request', async () => {
    const response = await get(merchant, `payment-transactions?page=1&itemsPerPage=8&sort=-StatusDateTime&filter=${encodeURIComponent('Status eq Paid')}&expand=paymentrequest`);
    const body = response.json();
    const paid = (await allRows(merchant)).filter((row) => row.status === 'Paid');
    expect(body.totalItems).toBe(paid.length);
    expect(body.items).toHaveLength(8);
    for (const item of body.items) {
      expect(item.status).toBe('Paid');
      expect(item.paymentRequest).toMatchObject({ id: item.paymentRequestId, customerName: expect.any(String) });
    }
  });

  it('filters by customer name (contains, any case) and amount', async () => {
    const rows = await allRows(merchant);
    const name = rows[0]!.customerName!;
    const part = name.slice(1, 6).toUpperCase();
    const filter = encodeURIComponent(`customerName ct ${part},totalAmount ge 100`);
    const body = (await get(merchant, `payment-transactions?itemsPerPage=1000&filter=${filter}`)).json();
    const expected = rows.filter((row) => row.customerName!.toUpperCase().includes(part) && Number(row.totalAmount) >= 100);
    expect(body.totalItems).toBe(expected.length);
    expect(body.items.map((item: { id: string }) => item.id).sort()).toEqual(expected.map((row) => row.id).sort());
  });

  it.each([
    ['status eq Lost', 'Lost'],
    ['colour eq red', 'colour'],
    ['totalAmount ct 5', 'ct'],
    ['statusDateTime gt yesterday', 'yesterday'],
  ])('refuses the filter %s with a 400 naming %s', async (filter, named) => {
    const response = await get(merchant, `payment-transactions?filter=${encodeURIComponent(filter)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain(named);
  });

  it('answers each call for its own values when calls share a statement shape, tenants and companies included', async () => {
    const all = await allRows(merchant);
    const statuses = [...new Set(all.map((row) => row.status))];
    expect(statuses.length).toBeGreaterThan(1);
    for (const status of statuses) {
      const body = (await get(merchant, `payment-transactions?itemsPerPage=100&filter=${encodeURIComponent(`status eq ${status}`)}`)).json();
      expect(body.items.map((item: { status: string }) => item.status)).toEqual(body.items.map(() => status));
      expect(body.totalItems).toBe(all.filter((row) => row.status === status).length);
    }
    const theirs = new Set((await allRows(rival)).map((row) => row.id));
    const mine = (await get(merchant, 'payment-transactions?itemsPerPage=100')).json();
    const rivals = (await get(rival, 'payment-transactions?itemsPerPage=100')).json();
    expect(mine.items.some((item: { id: string }) => theirs.has(item.id))).toBe(false);
    expect(rivals.items.every((item: { id: string }) => theirs.has(item.id))).toBe(true);
    const pages = [1, 2, 3].map((page) => get(merchant, `payment-transactions?page=${page}&itemsPerPage=7`));
    const ids = (await Promise.all(pages)).flatMap((response) => response.json().items.map((item: { id: string }) => item.id));
    expect(new Set(ids).size).toBe(21);
  });

  it('refuses an unknown sort field', async () => {
    const response = await get(merchant, 'payment-transactions?sort=-password');
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain('password');
  });

  it('pages through the first 10,000 rows of any order and refuses deeper pages with how to reach them', async () => {
    expect((await get(merchant, 'payment-transactions?page=1000')).statusCode).toBe(200);
    const response = await get(merchant, 'payment-transactions?page=1001');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      page: [
        'Pages reach the first 10,000 rows of a list: at 10 a page, page 1000 is the last. Filter the list or sort it the other way to see the rows beyond.',
      ],
    });
    expect((await get(merchant, 'payment-transactions?page=11&itemsPerPage=1000')).statusCode).toBe(400);
  });
});

describe('GET payment-transactions/status/all-failures', () => {
  it('lists only failed, not authorised and rejected payments', async () => {
    const body = (await get(merchant, 'payment-transactions/status/all-failures?itemsPerPage=100&sort=-StatusDateTime')).json();
    const failed = (await allRows(merchant)).filter((row) => ['Failed', 'NotAuthorised', 'Rejected'].includes(row.status));
    expect(body.totalItems).toBe(failed.length);
    expect(new Set(body.items.map((item: { status: string }) => item.status))).toEqual(new Set(['Failed', 'NotAuthorised', 'Rejected']));
  });
});

describe('GET payment-transactions/count', () => {
  it('counts what the filter matches', async () => {
    const pending = (await allRows(merchant)).filter((row) => row.status === 'Pending').length;
    expect((await get(merchant, `payment-transactions/count?filter=${encodeURIComponent('status eq Pending')}`)).json()).toEqual({ count: pending, estimated: false });
    expect((await get(merchant, 'payment-transactions/count')).json()).toEqual({ count: 120, estimated: false });
  });

  it('past the exact limit answers the planner’s estimate and says so', async () => {
    const result = await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.execute(sql`analyze payment_transactions`);
      return countRows(tx, paymentTransactions, eq(paymentTransactions.tenantId, merchant.tenantId), { limit: 50 });
    });
    expect(result.estimated).toBe(true);
    expect(result.count).toBeGreaterThan(50);
  });
});

describe('totals without a count', () => {
  it('takes the total from a short last page', async () => {
    const body = (await get(merchant, 'payment-transactions?page=5&itemsPerPage=25')).json();
    expect(body.items).toHaveLength(20);
    expect(body).toMatchObject({ totalItems: 120, totalItemsEstimated: false });
  });

  it('trusts a large estimate for a whole list when asked to, and counts a small one exactly', async () => {
    const [large, small] = await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.execute(sql`analyze payment_transactions`);
      const scope = eq(paymentTransactions.tenantId, merchant.tenantId);
      return [
        await countRows(tx, paymentTransactions, scope, { limit: 10, preferEstimate: true }),
        await countRows(tx, paymentTransactions, scope, { limit: 1000, preferEstimate: true }),
      ];
    });
    expect(large.estimated).toBe(true);
    expect(small).toEqual({ count: 120, estimated: false });
  });

  it('answers the estimate when the exact count runs past its time budget on PostgreSQL, and the transaction goes on', async () => {
    const result = await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      // Every row takes 5 ms to test, so counting 120 of them cannot fit in a 20 ms budget.
      const slow = and(eq(paymentTransactions.tenantId, merchant.tenantId), sql`pg_sleep(0.005) is not null`);
      const counted = await countRows(tx, paymentTransactions, slow, { budgetMs: 20, atLeast: 25 });
      const [after] = await tx.select({ n: sql<number>`count(*)::int` }).from(paymentTransactions).where(eq(paymentTransactions.tenantId, merchant.tenantId));
      return { counted, after: after!.n };
    });
    if (ctx.database.kind === 'postgres') {
      expect(result.counted.estimated).toBe(true);
      expect(result.counted.count).toBeGreaterThanOrEqual(25);
    } else {
      // PGlite (WebAssembly, one connection) cannot cancel a running statement: it counts exactly.
      expect(result.counted).toEqual({ count: 120, estimated: false });
    }
    expect(result.after).toBe(120);
  });
});

describe('GET payment-transactions/{id}', () => {
  it('answers one transaction with its payment request', async () => {
    const [row] = (await allRows(merchant)).filter((r) => r.paymentRequestId);
    const body = (await get(merchant, `payment-transactions/${row!.id}`)).json();
    expect(body).toMatchObject({ id: row!.id, totalAmount: Number(row!.totalAmount), paymentRequest: { id: row!.paymentRequestId } });
  });

  it('carries its allocations and late-payment fee lines', async () => {
    // Demo payments pay their request's invoices, some late with a fee line.
    const feeLines = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select().from(paymentFeeTransactions).where(eq(paymentFeeTransactions.tenantId, merchant.tenantId)),
    );
    const withFee = new Set(feeLines.map((line) => line.paymentTransactionId));
    const autoAllocated = (await allRows(merchant)).filter((r) => r.allocatedStatus === 'AutoAllocated');
    for (const allocated of [autoAllocated.find((r) => withFee.has(r.id)), autoAllocated.find((r) => !withFee.has(r.id))]) {
      if (!allocated) continue;
      const stored = await ctx.database.withTenant(merchant.tenantId, (tx) =>
        tx.select().from(paymentAllocations).where(and(eq(paymentAllocations.tenantId, merchant.tenantId), eq(paymentAllocations.paymentTransactionId, allocated.id))),
      );
      expect(stored.length).toBeGreaterThan(0);
      const body = (await get(merchant, `payment-transactions/${allocated.id}`)).json();
      expect(body.paymentAllocations).toHaveLength(stored.length);
      expect(body.paymentAllocations).toEqual(
        expect.arrayContaining(
          stored.map((row) =>
            expect.objectContaining({ id: row.id, paymentTransactionId: allocated.id, entityType: row.entityType, transactionId: row.transactionId, allocatedAmount: Number(row.allocatedAmount) }),
          ),
        ),
      );
      // The page links each allocated invoice by its reference and the customer's account.
      for (const allocation of body.paymentAllocations as { transactionId: string | null; transactionReference: string | null }[]) {
        if (!allocation.transactionId) continue;
        const invoice = (await get(merchant, `transactions/${allocation.transactionId}`)).json();
        expect(allocation.transactionReference).toBe(invoice.transactionReference);
      }
      const account = (await get(merchant, `accounts/${allocated.accountId}`)).json();
      expect(body.account).toEqual({ id: allocated.accountId, accountReference: account.accountReference, name: account.name, currency: account.currency });
      expect(body.paymentFeeTransactions.map((line: { id: string }) => line.id).sort()).toEqual(
        feeLines.filter((line) => line.paymentTransactionId === allocated.id).map((line) => line.id).sort(),
      );
    }
    expect(withFee.size).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await get(merchant, 'payment-transactions/0199f0aa-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(merchant, 'payment-transactions/not-an-id')).statusCode).toBe(400);
  });
});

describe('company and tenant scope', () => {
  it('needs the Dataset-Id header', async () => {
    const response = await get(merchant, 'payment-transactions', {});
    expect(response.statusCode).toBe(400);
  });

  it('never shows another tenant’s payments, by list, id, count or company', async () => {
    const theirs = await allRows(rival);
    const mine = (await get(merchant, 'payment-transactions?itemsPerPage=1000')).json();
    const theirIds = new Set(theirs.map((row) => row.id));
    expect(mine.items.some((item: { id: string }) => theirIds.has(item.id))).toBe(false);
    for (const url of [`payment-transactions/${theirs[0]!.id}`]) {
      expect((await get(merchant, url)).statusCode).toBe(404);
    }
    const filtered = (await get(merchant, `payment-transactions/count?filter=${encodeURIComponent(`id eq ${theirs[0]!.id}`)}`)).json();
    expect(filtered.count).toBe(0);
    // The rival's dataset ids are its own: dataset 2 does not exist for the merchant.
    for (const url of ['payment-transactions', 'payment-transactions/count', 'payment-transactions/status/all-failures']) {
      expect((await get(merchant, url, { 'dataset-id': '2' })).statusCode).toBe(404);
    }
  });

  it('lets a Viewer read (no permission needed) and an access key read its company', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Viewer Ltd' });
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    expect((await get(viewer, 'payment-transactions')).statusCode).toBe(200);
    const created = await ctx.app.inject({ method: 'POST', url: '/api/v0/access-keys', headers: merchant.headers(), payload: { name: 'ERP' } });
    const key = created.json().accessKey as string;
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v0/payment-transactions?itemsPerPage=5', headers: { authorization: `Bearer ${key}`, 'dataset-id': '1' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().totalItems).toBe(120);
  });
});

describe('PATCH payment-transactions/{id}/allocated-status', () => {
  const patch = (who: SignedIn, id: string, payload: unknown, headers: Record<string, string> = { 'dataset-id': '1' }) =>
    ctx.app.inject({ method: 'PATCH', url: `/api/v0/payment-transactions/${id}/allocated-status`, headers: who.headers(headers), payload: payload as object });

  it('changes the status and writes the activity in the same transaction', async () => {
    const [row] = (await allRows(merchant)).filter((r) => r.allocatedStatus === 'AutoAllocated');
    const response = await patch(merchant, row!.id, { status: 'ManuallyAllocated' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: row!.id, allocatedStatus: 'ManuallyAllocated' });
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'ChangeAllocatedStatus'), eq(auditActivities.resourceId, row!.id)));
    expect(activity).toMatchObject({ status: 200, userId: merchant.userId, datasetId: 1 });
  });

  it('refuses a status that does not exist, with the message', async () => {
    const [row] = await allRows(merchant);
    const response = await patch(merchant, row!.id, { status: 'Lost' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.status).toEqual(['Choose an allocated status.']);
  });

  it('needs ChangeAllocatedStatus: a Viewer gets 403 and nothing changes', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Viewer Two Ltd' });
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    await ctx.database.withTenant(viewer.tenantId, (tx) => generateReceivables(tx, { tenantId: viewer.tenantId, datasetId: 1 }, { ...size, paymentTransactions: 3 }));
    const [row] = await allRows(viewer);
    const response = await patch(viewer, row!.id, { status: 'Unallocated' });
    expect(response.statusCode).toBe(403);
    expect((await allRows(viewer)).find((r) => r.id === row!.id)!.allocatedStatus).toBe(row!.allocatedStatus);
  });

  it('never changes another tenant’s payment', async () => {
    const [theirs] = await allRows(rival);
    const response = await patch(merchant, theirs!.id, { status: 'Error' });
    expect(response.statusCode).toBe(404);
    expect((await allRows(rival)).find((r) => r.id === theirs!.id)!.allocatedStatus).toBe(theirs!.allocatedStatus);
  });
});
