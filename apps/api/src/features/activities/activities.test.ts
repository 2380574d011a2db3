import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { auditActivities, datasets, users } from '../../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let admin: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Audit Ltd' });
  other = await signIn(ctx, { tenantName: 'Elsewhere Ltd' });
  await ctx.database.db.insert(datasets).values({
    tenantId: admin.tenantId,
    id: 2,
    name: 'Audit Trading',
    status: 'Active',
    hostId: '2',
    customHostId: '2',
    hostSystemName: 'Custom',
    currency: 'GBP',
  });
  // 40 activities in company 2, in time order, and one of another tenant in its company 2 lookalike.
  const rows = Array.from({ length: 40 }, (_, i) => ({
    tenantId: admin.tenantId,
    id: uuidv7(),
    datasetId: 2,
    operation: i % 2 ? 'UpdatePaymentRequest' : 'CapturePendingPayment',
    resourceType: 'PaymentRequest',
    resourceId: i < 3 ? 'request-1' : `request-${i}`,
    userId: admin.userId,
    userName: 'Auditor',
    status: 200,
    ipAddress: '10.0.0.1',
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)),
  }));
  for (const row of rows) await ctx.database.db.insert(auditActivities).values(row);
  await ctx.database.db.insert(auditActivities).values({
    tenantId: other.tenantId,
    id: uuidv7(),
    datasetId: 1,
    operation: 'SecretThing',
    resourceId: 'request-1',
    status: 200,
  });
});
afterAll(() => ctx.close());

const get = (user: SignedIn, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: user.headers(headers) });

describe('GET audit-logs', () => {
  it('walks a company’s activities 15 at a time, newest first, and back through earlier cursors', async () => {
    const seen: string[] = [];
    const cursors: (string | undefined)[] = [undefined];
    let next: string | null = null;
    do {
      const url: string = `/api/v0/audit-logs?itemsPerPage=15${next ? `&cursor=${next}` : ''}`;
      const response = await get(admin, url, { 'dataset-id': '2' });
      if (response.statusCode !== 200) throw new Error(response.body);
      const page = response.json();
      seen.push(...page.items.map((a: { id: string }) => a.id));
      next = page.next;
      if (next) cursors.push(next);
    } while (next);
    expect(seen).toHaveLength(40);
    expect([...seen].sort().reverse()).toEqual(seen);
    // Previous: the stack of cursors gives page 2 again exactly.
    const again = (
      await get(admin, `/api/v0/audit-logs?itemsPerPage=15&cursor=${cursors[1]}`, {
        'dataset-id': '2',
      })
    ).json();
    expect(again.items.map((a: { id: string }) => a.id)).toEqual(seen.slice(15, 30));
    expect(again.items[0]).toMatchObject({
      userName: 'Auditor',
      status: 200,
      ipAddress: '10.0.0.1',
      datasetId: 2,
    });
  });

  it('without Dataset-Id lists the tenant’s own activities (here: the sign-in), not a company’s', async () => {
    const page = (await get(admin, '/api/v0/audit-logs?itemsPerPage=15')).json();
    expect(page.items.map((a: { operation: string }) => a.operation)).toEqual(['Login']);
    expect(page.next).toBeNull();
  });

  it('filters by operation', async () => {
    const page = (
      await get(
        admin,
        '/api/v0/audit-logs?itemsPerPage=50&filter=operation%20eq%20CapturePendingPayment',
        { 'dataset-id': '2' },
      )
    ).json();
    expect(page.items).toHaveLength(20);
  });

  // The activities' search box reads the operation and the user's name.
  it('searches the operation and the user’s name, with the filter and through the cursor', async () => {
    const search = async (query: string, who = admin, company = '2') => {
      const response = await get(who, `/api/v0/audit-logs?${query}`, { 'dataset-id': company });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        items: { id: string; operation: string }[];
        next: string | null;
        count?: { count: number; estimated: boolean };
      };
    };
    const found = await search('itemsPerPage=50&search=capturepending');
    expect(found.items).toHaveLength(20);
    // The tab's count follows the search, counted, not estimated from the whole list.
    expect((await search('itemsPerPage=5&search=capturepending')).count).toEqual({
      count: 20,
      estimated: false,
    });
    expect(found.items.every((a) => a.operation === 'CapturePendingPayment')).toBe(true);
    expect((await search('itemsPerPage=50&search=AUDITOR')).items).toHaveLength(40);
    expect((await search('itemsPerPage=50&search=wombat')).items).toEqual([]);
    const both = await search(
      'itemsPerPage=50&search=Auditor&filter=operation%20eq%20UpdatePaymentRequest',
    );
    expect(both.items).toHaveLength(20);
    expect(both.items.every((a) => a.operation === 'UpdatePaymentRequest')).toBe(true);
    // Cursor paging keeps the search: 20 found, 15 then 5.
    const first = await search('itemsPerPage=15&search=capturepending');
    expect(first.items).toHaveLength(15);
    const second = await search(`itemsPerPage=15&search=capturepending&cursor=${first.next}`);
    expect(second.items).toHaveLength(5);
    expect(second.items.every((a) => a.operation === 'CapturePendingPayment')).toBe(true);
    expect(second.next).toBeNull();
    // Another tenant's search never reaches this tenant's activities.
    expect((await search('search=capturepending', other, '1')).items).toEqual([]);
    const long = await get(admin, `/api/v0/audit-logs?search=${'x'.repeat(101)}`, {
      'dataset-id': '2',
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.search).toBeDefined();
  });

  it('gives the count on the first page only: the company’s, the tenant’s own and a filtered list’s', async () => {
    const first = (
      await get(admin, '/api/v0/audit-logs?itemsPerPage=15', { 'dataset-id': '2' })
    ).json();
    expect(first.count).toEqual({ count: 40, estimated: false });
    const second = (
      await get(admin, `/api/v0/audit-logs?itemsPerPage=15&cursor=${first.next}`, {
        'dataset-id': '2',
      })
    ).json();
    expect(second.items).toHaveLength(15);
    expect(second).not.toHaveProperty('count');
    const tenant = (await get(admin, '/api/v0/audit-logs?itemsPerPage=15')).json();
    expect(tenant.count).toEqual({ count: tenant.items.length, estimated: false });
    const filtered = (
      await get(
        admin,
        '/api/v0/audit-logs?itemsPerPage=5&filter=operation%20eq%20CapturePendingPayment',
        {
          'dataset-id': '2',
        },
      )
    ).json();
    expect(filtered.items).toHaveLength(5);
    expect(filtered.count).toEqual({ count: 20, estimated: false });
  });

  it('refuses a malformed cursor and filter with 400 naming them', async () => {
    const cursor = await get(admin, '/api/v0/audit-logs?cursor=!!!', { 'dataset-id': '2' });
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().errors.cursor).toBeDefined();
    const filter = await get(admin, '/api/v0/audit-logs?filter=password%20eq%20x', {
      'dataset-id': '2',
    });
    expect(filter.statusCode).toBe(400);
    expect(filter.json().errors.filter[0]).toContain('password');
  });

  it("never shows another tenant's activities, and its company id is a 404", async () => {
    const cross = await get(other, '/api/v0/audit-logs', { 'dataset-id': '2' });
    expect(cross.statusCode).toBe(404);
    const own = (await get(other, '/api/v0/audit-logs', { 'dataset-id': '1' })).json();
    expect(own.items.map((a: { operation: string }) => a.operation)).toEqual(['SecretThing']);
    // Its count counts its own activity alone, none of Audit Ltd's 40 in their company 2.
    expect(own.count).toEqual({ count: 1, estimated: false });
    const resource = (await get(other, '/api/v0/audit-logs/resources/request-1')).json();
    expect(resource.items.map((a: { operation: string }) => a.operation)).toEqual(['SecretThing']);
  });

  it('needs ViewAuditLogs', async () => {
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, other.userId));
    expect((await get(other, '/api/v0/audit-logs')).statusCode).toBe(403);
    expect((await get(other, '/api/v0/audit-logs/resources/request-1')).statusCode).toBe(403);
    await ctx.database.db.update(users).set({ role: 'Standard' }).where(eq(users.id, other.userId));
    expect((await get(other, '/api/v0/audit-logs')).statusCode).toBe(200);
  });
});

describe('GET audit-logs/resources/{id}', () => {
  it("returns one record's activities, newest first, up to itemsPerPage (max 100)", async () => {
    const page = (
      await get(admin, '/api/v0/audit-logs/resources/request-1?itemsPerPage=100')
    ).json();
    expect(page.items).toHaveLength(3);
    expect(page.items.map((a: { resourceId: string }) => a.resourceId)).toEqual([
      'request-1',
      'request-1',
      'request-1',
    ]);
    expect(
      (await get(admin, '/api/v0/audit-logs/resources/request-1?itemsPerPage=101')).statusCode,
    ).toBe(400);
  });
});
