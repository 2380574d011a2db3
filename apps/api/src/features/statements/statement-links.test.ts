import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { statementLinks } from '../../db/schema-statements.js';
import {
  findStatementLink,
  issueStatementLink,
} from './statement-links.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller, insertAccount } from '../../../test/fixtures/money-rules.js';

let ctx: TestContext;
let admin: SignedIn;
let rival: SignedIn;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  ctx = await buildTestApp();
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Statement Links Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Links Ltd' });
}, 60_000);
afterAll(() => ctx.close());

const issue = (who: SignedIn, accountId: string) =>
  ctx.database.withTenant(who.tenantId, (tx) =>
    issueStatementLink(tx, { tenantId: who.tenantId, datasetId: '1' }, accountId, 'https://pay.example/'),
  );

describe('issueStatementLink (the reminders call it too)', () => {
  it('answers an unguessable link that does not expire without a company expiry, storing only the hash', async () => {
    const accountId = await insertAccount(ctx, admin);
    const first = await issue(admin, accountId);
    const second = await issue(admin, accountId);
    expect(first.expiresAt).toBeNull();
    expect(first.url).toMatch(/^https:\/\/pay\.example\/statement\/[A-Za-z0-9_-]{43}$/);
    expect(second.url).not.toBe(first.url);
    const token = first.url.split('/').pop()!;
    const rows = await ctx.database.db.select().from(statementLinks).where(eq(statementLinks.accountId, accountId));
    expect(rows).toHaveLength(2);
    const hash = createHash('sha256').update(token).digest('hex');
    expect(rows.map((row) => row.tokenHash)).toContain(hash);
    expect(JSON.stringify(rows)).not.toContain(token);
    const found = await findStatementLink(ctx.database.db, token);
    expect(found).toMatchObject({ tenantId: admin.tenantId, datasetId: 1, accountId, expiresOn: null });
    const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await findStatementLink(ctx.database.db, other)).toBeNull();
    expect(await findStatementLink(ctx.database.db, 'not-a-token')).toBeNull();
  });

  it("expires as the company's new payment request links do", async () => {
    const saved = await call(admin, 'PUT', 'company-settings/payment-request', {
      validUntilAddition: { unit: 'Day', quantity: 3 },
      defaultUsageType: 'Single',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const accountId = await insertAccount(ctx, admin);
    const before = Date.now();
    const link = await issue(admin, accountId);
    const after = Date.now();
    expect(link.expiresAt).toBeInstanceOf(Date);
    const day = 86_400_000;
    expect(link.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 3 * day);
    expect(link.expiresAt!.getTime()).toBeLessThanOrEqual(after + 3 * day);
    await call(admin, 'PUT', 'company-settings/payment-request', { validUntilAddition: null, defaultUsageType: 'Single' });
  });

  it("refuses another company's account (404) and writes nothing", async () => {
    const theirs = await insertAccount(ctx, rival);
    await expect(issue(admin, theirs)).rejects.toMatchObject({ status: 404, message: `Account ${theirs} was not found.` });
    await expect(issue(admin, randomUUID())).rejects.toMatchObject({ status: 404 });
    const rows = await ctx.database.db.select().from(statementLinks).where(eq(statementLinks.accountId, theirs));
    expect(rows).toEqual([]);
  });
});
