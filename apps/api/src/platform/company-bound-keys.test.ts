import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { auditActivities, datasets } from '../db/schema.js';
import {
  buildTestApp,
  byKey,
  signIn,
  type Caller,
  type SignedIn,
  type TestContext,
} from '../../test/app.js';

/*
 * A key bound to one company (subscription-keys?noDataset=false) sees that
 * company only, on the tenant's routes too: not the tenant's own activity log (staff sign-ins,
 * user and key administration), not another company's records' activities, not the other
 * companies themselves (docs/decisions/099-a-company-bound-key-sees-its-company-only.md, "A company-bound key sees its company only").
 * The cross-tenant matrix walks every route with such a key against a sibling company.
 */

let ctx: TestContext;
let admin: SignedIn;
let boundToOne: Caller;
let boundToTwo: Caller;
let tenantWide: Caller;
let boundKeyId: string;

async function key(company: string | null): Promise<{ id: string; accessKey: string }> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/subscription-keys${company ? '?noDataset=false' : ''}`,
    headers: admin.headers(company ? { 'dataset-id': company } : {}),
    payload: { name: `Connector ${company ?? 'tenant'}` },
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

const get = (caller: Caller, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/${url}`, headers: caller.headers(headers) });

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Bound Keys Ltd' });
  await ctx.database.db.insert(datasets).values({
    tenantId: admin.tenantId,
    id: 2,
    name: 'Bound Keys Sister Company',
    status: 'Active',
    hostId: '2',
    customHostId: '2',
    hostSystemName: 'Custom',
    currency: 'GBP',
  });
  // A record of company 2 with activities, one of company 1, and the tenant's own (a sign-in).
  for (const [datasetId, resourceId, operation] of [
    [2, 'request-of-two', 'UpdatePaymentRequest'],
    [1, 'request-of-one', 'UpdatePaymentRequest'],
    [null, 'user-of-tenant', 'SignIn'],
  ] as const) {
    await ctx.database.db.insert(auditActivities).values({
      tenantId: admin.tenantId,
      id: uuidv7(),
      datasetId,
      operation,
      resourceType: 'PaymentRequest',
      resourceId,
      userId: admin.userId,
      userName: 'Staff member',
      status: 200,
      ipAddress: '198.51.100.7',
    });
  }
  const one = await key('1');
  boundKeyId = one.id;
  boundToOne = byKey(one.accessKey);
  boundToTwo = byKey((await key('2')).accessKey);
  tenantWide = byKey((await key(null)).accessKey);
});
afterAll(() => ctx.close());

describe('a company-bound key', () => {
  it('is refused the tenant’s own activity log (403) and reads its company’s log', async () => {
    const tenantLog = await get(boundToOne, 'audit-logs');
    expect(tenantLog.statusCode).toBe(403);
    expect(tenantLog.json().detail).toBe(
      'This access key is bound to company 1: it reads that company’s activities only (send Dataset-Id: 1).',
    );
    expect(tenantLog.body).not.toContain('198.51.100.7');
    const other = await get(boundToOne, 'audit-logs', { 'dataset-id': '2' });
    expect(other.statusCode).toBe(404);
    const own = await get(boundToOne, 'audit-logs', { 'dataset-id': '1' });
    expect(own.statusCode).toBe(200);
    expect(own.json().items.map((a: { resourceId: string }) => a.resourceId)).toContain(
      'request-of-one',
    );
    expect(own.body).not.toContain('request-of-two');
    // A key of the whole tenant still reads the tenant's log.
    const wide = await get(tenantWide, 'audit-logs');
    expect(wide.statusCode).toBe(200);
    expect(wide.body).toContain('user-of-tenant');
  });

  it('sees no activities of another company’s record nor of the tenant’s own records', async () => {
    const ids = (response: { json(): { items: { resourceId: string }[] } }) =>
      response.json().items.map((a) => a.resourceId);
    expect(ids(await get(boundToOne, 'audit-logs/resources/request-of-two'))).toEqual([]);
    expect(ids(await get(boundToOne, 'audit-logs/resources/user-of-tenant'))).toEqual([]);
    // The key's own creation is the tenant's administration, not the company's.
    expect(ids(await get(boundToOne, `audit-logs/resources/${boundKeyId}`))).toEqual([]);
    expect(ids(await get(boundToOne, 'audit-logs/resources/request-of-one'))).toEqual([
      'request-of-one',
    ]);
    expect(ids(await get(boundToTwo, 'audit-logs/resources/request-of-two'))).toEqual([
      'request-of-two',
    ]);
    expect(ids(await get(tenantWide, 'audit-logs/resources/request-of-two'))).toEqual([
      'request-of-two',
    ]);
  });

  it('lists and finds its own company only', async () => {
    const all = (await get(boundToOne, 'data-sets/all')).json();
    expect(all.items.map((d: { id: number }) => d.id)).toEqual([1]);
    const page = (await get(boundToOne, 'data-sets')).json();
    expect(page).toMatchObject({ totalItems: 1, items: [{ id: 1 }] });
    expect((await get(boundToOne, 'data-sets/1')).statusCode).toBe(200);
    const sister = await get(boundToOne, 'data-sets/2');
    expect(sister.statusCode).toBe(404);
    expect(sister.body).not.toContain('Sister');
    expect((await get(boundToOne, 'data-sets/2/exists')).statusCode).toBe(404);
    expect((await get(boundToOne, 'data-sets/1/exists')).statusCode).toBe(204);
    // A key of the whole tenant sees both.
    const wide = (await get(tenantWide, 'data-sets/all')).json();
    expect(wide.items.map((d: { id: number }) => d.id)).toEqual([1, 2]);
  });
});
