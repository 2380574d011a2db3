import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { datasets } from '../db/schema.js';
import {
  buildTestApp,
  byKey,
  signIn,
  type Caller,
  type SignedIn,
  type TestContext,
} from '../../test/app.js';

/*
 * spec 1 §2.7: the companies grid has a "last synced" column. It is when the company's ERP
 * connector (an access key) last sent data: accounts, transactions, payers or banks.
 */

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let connector: Caller;
let rivalConnector: Caller;

async function createKey(who: SignedIn, name: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/access-keys',
    headers: who.headers(),
    payload: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return byKey(response.json().accessKey as string);
}

function call(who: Caller, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    payload,
  });
}

/** The company as the companies page reads it. */
async function lastSyncOf(who: SignedIn): Promise<string | null> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/v0/data-sets/1',
    headers: who.headers(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().lastSync as string | null;
}

async function setLastSync(who: SignedIn, value: Date | null) {
  await ctx.database.db
    .update(datasets)
    .set({ lastSync: value })
    .where(and(eq(datasets.tenantId, who.tenantId), eq(datasets.id, 1)));
}

let counter = 0;
const newAccount = () => ({ accountReference: `SYNC-${++counter}`, name: 'Synced Customer Ltd' });

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Synced Ltd' });
  rival = await signIn(ctx, { tenantName: 'Unsynced Ltd' });
  connector = await createKey(merchant, 'ERP connector');
  rivalConnector = await createKey(rival, 'Rival connector');
});
afterAll(() => ctx.close());

describe('Last synced of a company', () => {
  it('is empty (N/A) until the ERP connector sends data', async () => {
    expect(await lastSyncOf(merchant)).toBeNull();
    expect((await call(connector, 'GET', 'accounts')).statusCode).toBe(200);
    expect(await lastSyncOf(merchant)).toBeNull();
  });

  it('is not written by a push that is refused', async () => {
    const refused = await call(connector, 'POST', 'accounts', { accountReference: 'SYNC-BAD' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.name).toEqual(['Name is required.']);
    expect(await lastSyncOf(merchant)).toBeNull();
  });

  it('is not written by a user typing data in: only the connector syncs', async () => {
    const typed = await call(merchant, 'POST', 'accounts', newAccount());
    expect(typed.statusCode, typed.body).toBe(201);
    expect(await lastSyncOf(merchant)).toBeNull();
  });

  it("is written when the connector pushes an account, in the push's transaction", async () => {
    const before = Date.now();
    const pushed = await call(connector, 'POST', 'accounts', newAccount());
    expect(pushed.statusCode, pushed.body).toBe(201);
    const lastSync = await lastSyncOf(merchant);
    expect(lastSync).not.toBeNull();
    expect(Date.parse(lastSync!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(lastSync!)).toBeLessThanOrEqual(Date.now());
    // Another tenant's company is not touched by it.
    expect(await lastSyncOf(rival)).toBeNull();
  });

  it('moves on when the connector upserts an account or pushes a transaction later', async () => {
    await setLastSync(merchant, new Date('2026-01-01T00:00:00Z'));
    const upserted = await call(connector, 'PUT', 'accounts/by-reference/SYNC-UP', {
      name: 'Upserted Ltd',
    });
    expect(upserted.statusCode, upserted.body).toBeLessThan(300);
    expect(Date.parse((await lastSyncOf(merchant))!)).toBeGreaterThan(Date.parse('2026-01-02'));

    await setLastSync(merchant, new Date('2026-01-01T00:00:00Z'));
    const pushed = await call(connector, 'POST', 'transactions', {
      accountReference: 'SYNC-UP',
      transactionReference: 'SYNC-INV-1',
      transactionType: 'Invoice',
      transactionDate: '2026-03-01',
      dueDate: '2026-03-31',
      currency: 'GBP',
      transactionAmount: 100,
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    expect(Date.parse((await lastSyncOf(merchant))!)).toBeGreaterThan(Date.parse('2026-01-02'));
  });

  it("is the rival's own when the rival's connector pushes", async () => {
    const pushed = await call(rivalConnector, 'POST', 'accounts', newAccount());
    expect(pushed.statusCode, pushed.body).toBe(201);
    expect(await lastSyncOf(rival)).not.toBeNull();
  });
});
