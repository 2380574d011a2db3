import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';

/**
 * Every PostgreSQL connection (the pool, the shared read connections, the COPY
 * connections) starts with statement_timeout and idle_in_transaction_session_timeout, so no
 * statement and no forgotten transaction holds a connection and the vacuum horizon for ever.
 * PostgreSQL only: PGlite cannot interrupt a statement and has one connection in the process.
 */
const url = process.env.TEST_DATABASE_URL;

let ctx: TestContext;
let merchant: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Timeouts Ltd' });
});
afterAll(() => ctx.close());

const settings = sql`select current_setting('statement_timeout') || ' ' || current_setting('idle_in_transaction_session_timeout') as line`;

describe.skipIf(!url)('PostgreSQL connection timeouts', () => {
  it('sets both on the pool, the read connections, transactions and COPY (default one minute)', async () => {
    const pool = await ctx.database.raw.query(
      `select current_setting('statement_timeout') || ' ' || current_setting('idle_in_transaction_session_timeout') as line`,
    );
    expect(pool.rows[0]!.line).toBe('1min 1min');
    const read = await ctx.database.readAsTenant(merchant.tenantId, (tx) => tx.execute(settings));
    expect((read as unknown as { rows: { line: string }[] }).rows[0]!.line).toBe('1min 1min');
    const written = await ctx.database.withTenant(merchant.tenantId, (tx) => tx.execute(settings));
    expect((written as unknown as { rows: { line: string }[] }).rows[0]!.line).toBe('1min 1min');
    const copy = await ctx.database.copyOutAsTenant!(merchant.tenantId, settings);
    let text = '';
    for await (const chunk of copy) text += String(chunk);
    expect(text).toBe('1min 1min\n');
  });
});
