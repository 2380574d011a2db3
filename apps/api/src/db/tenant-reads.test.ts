import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { readWithinBudget, tenantOf, type Database } from './client.js';
import { namedStatementsPerConnection } from './scoped-read.js';
import { createTenant } from '../features/tenants/tenants.service.js';
import { banks } from './schema-receivables.js';
import { createTestDatabase } from '../../test/database.js';

// db/scoped-read.ts: on PostgreSQL a read runs without a transaction block, every statement
// carrying its own scope, on connections that reads share. With one read connection every read
// below meets the connection the reads before it left behind, and reads side by side share it.
let database: Database;
let dispose: () => Promise<void>;
let mine: string;
let theirs: string;

const bank = (tenantId: string, accountName: string) => ({
  tenantId,
  datasetId: 1,
  id: randomUUID(),
  accountName,
  currency: 'GBP',
});

beforeAll(async () => {
  ({ database, dispose } = await createTestDatabase({ poolSize: 1, readConnections: 1 }));
  const tenant = (name: string) =>
    createTenant(database, { name, adminEmail: `${randomUUID()}@example.com`, adminName: 'A' });
  mine = (await tenant('Mine Ltd')).tenantId;
  theirs = (await tenant('Theirs Ltd')).tenantId;
  await database.withTenant(mine, (tx) => tx.insert(banks).values(bank(mine, 'Mine')));
  await database.withTenant(theirs, (tx) => tx.insert(banks).values(bank(theirs, 'Theirs')));
});
afterAll(() => dispose());

/** What a read on the (only) read connection runs with. */
async function readState(tenantId: string) {
  const result = await database.readAsTenant(tenantId, (tx) =>
    tx.execute(
      sql`select current_user as "user", current_setting('app.tenant_id', true) as tenant,
        current_setting('transaction_read_only') as "readOnly", current_setting('statement_timeout') as timeout`,
    ),
  );
  return (result as unknown as { rows: Record<string, string>[] }).rows[0];
}

describe('tenant reads', () => {
  it('see only their tenant’s rows, even read one after another and side by side', async () => {
    const names = (tenantId: string) =>
      database.readAsTenant(tenantId, async (tx) => {
        expect(tenantOf(tx)).toBe(tenantId);
        return (await tx.select({ name: banks.accountName }).from(banks)).map((r) => r.name);
      });
    expect(await names(mine)).toEqual(['Mine']);
    expect(await names(theirs)).toEqual(['Theirs']);
    const [a, b, c] = await Promise.all([names(mine), names(theirs), names(mine)]);
    expect([a, b, c]).toEqual([['Mine'], ['Theirs'], ['Mine']]);
    // Several statements of one read in flight at once.
    const both = await database.readAsTenant(theirs, (tx) =>
      Promise.all([tx.select().from(banks), tx.execute(sql`select count(*)::int as n from banks`)]),
    );
    expect(both[0].map((r) => r.accountName)).toEqual(['Theirs']);
    expect((both[1] as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });

  // The connection's own statement_timeout: PostgreSQL connections start with one minute
  // (DATABASE_STATEMENT_TIMEOUT_MS); PGlite's one connection has none.
  const connectionTimeout = process.env.TEST_DATABASE_URL ? '1min' : '0';

  it('run each statement with its own scope, and leave nothing behind for the next', async () => {
    const expected = (tenant: string) => ({
      user: 'ledgerline_app',
      tenant,
      readOnly: 'on',
      timeout: connectionTimeout,
    });
    const before = await readState(mine);
    expect(before).toEqual(expected(mine));
    await expect(
      database.readAsTenant(mine, (tx) => tx.execute(sql`select 1/0`)),
    ).rejects.toThrow();
    await database.readAsTenant(mine, (tx) =>
      readWithinBudget(tx, sql`select count(*) from banks`, 50),
    );
    expect(await readState(theirs)).toEqual(expected(theirs));
    // Owner connections (writes, start-up) never meet a read's settings.
    const [owner] = (
      await database.raw.query(
        `select current_user as "user", coalesce(current_setting('app.tenant_id', true), '') as tenant`,
        [],
      )
    ).rows;
    expect(owner!.tenant).toBe('');
    expect(owner!.user).not.toBe('ledgerline_app');
  });

  it('cannot write, not even into their own tenant', async () => {
    await expect(
      database.readAsTenant(mine, (tx) => tx.insert(banks).values(bank(mine, 'Planted'))),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/read-only transaction/) } });
    const seen = await database.withTenant(mine, (tx) => tx.select().from(banks));
    expect(seen.map((r) => r.accountName)).toEqual(['Mine']);
  });

  it('answer null for a statement past its time budget, and the connection goes on', async () => {
    const slow = await database.readAsTenant(mine, (tx) =>
      readWithinBudget(tx, sql`select pg_sleep(0.5), count(*) from banks`, 20),
    );
    // PGlite cannot interrupt a statement: there it simply runs.
    if (database.kind === 'postgres') expect(slow).toBeNull();
    const fast = await database.readAsTenant(mine, (tx) =>
      readWithinBudget(tx, sql`select count(*)::int as n from banks`, 1_000),
    );
    expect(fast).toEqual([{ n: 1 }]);
    expect((await readState(mine))!.timeout).toBe(connectionTimeout);
  });

  it('go on past the named statements one connection keeps', async () => {
    for (let i = 0; i < namedStatementsPerConnection + 20; i++) {
      const rows = await database.readAsTenant(theirs, (tx) =>
        tx.execute(sql`select ${sql.raw(String(i))}::int as i, count(*)::int as n from banks`),
      );
      expect((rows as unknown as { rows: unknown[] }).rows).toEqual([{ i, n: 1 }]);
    }
    // The first of them again, on the connection that keeps it.
    const again = await database.readAsTenant(mine, (tx) =>
      tx.execute(sql`select ${sql.raw('0')}::int as i, count(*)::int as n from banks`),
    );
    expect((again as unknown as { rows: unknown[] }).rows).toEqual([{ i: 0, n: 1 }]);
  });

  it('refuse a tenant id that is not a UUID before sending anything', async () => {
    await expect(database.readAsTenant('x', (tx) => tx.select().from(banks))).rejects.toThrow();
  });
});
