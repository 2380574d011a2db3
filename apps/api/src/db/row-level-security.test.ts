import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { createTenant } from '../features/tenants/tenants.service.js';
import { banks } from './schema-receivables.js';
import { createTestDatabase } from '../../test/database.js';

let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await createTestDatabase());
});
afterAll(() => dispose());

// design §4: row-level security backs up the application's scoping on every tenant-owned table.
describe('row-level security', () => {
  it('is enabled and forced on every table that has a tenant_id', async () => {
    const { rows } = await database.raw.query(
      `select c.relname as name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
        order by 1`,
      [],
    );
    const unprotected = rows.filter((row) => !row.enabled || !row.forced).map((row) => row.name);
    // sessions are read only through owner code paths and are revoked from the application role.
    expect(unprotected.filter((name) => name !== 'sessions')).toEqual([]);
    expect(rows.map((row) => row.name)).toContain('payment_transactions');
  });

  it('lets a "contains" filter read the trigram index under the policy (ILIKE is LEAKPROOF)', async () => {
    const { rows } = await database.raw.query(
      `select proleakproof from pg_proc where proname = 'texticlike'`,
      [],
    );
    expect(rows).toEqual([{ proleakproof: true }]);
    const tenant = await createTenant(database, {
      name: 'Search Ltd',
      adminEmail: `s-${randomUUID()}@example.com`,
      adminName: 'S',
    });
    const plan = await database.withTenant(tenant.tenantId, async (tx) => {
      // Few rows here: take the sequential and ordered scans away so the plan shows what may serve;
      // without LEAKPROOF the policy runs first and the index cannot take the ILIKE.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_indexscan = off`);
      const result = (await tx.execute(
        sql`explain select id from payment_transactions where customer_name ilike ${'%zzqx%'}`,
      )) as unknown as { rows: Record<string, string>[] };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('payment_transactions_customer_trgm_idx');
  });

  // The search box's OR (references, names, and the amount when the words read
  // as one) is read from indexes under the policy: numeric_eq is LEAKPROOF as ILIKE is (0034).
  it('lets the search box read its indexes under the policy, the amount arm included', async () => {
    const { rows } = await database.raw.query(
      `select proleakproof from pg_proc where oid = 'numeric_eq(numeric, numeric)'::regprocedure`,
      [],
    );
    expect(rows).toEqual([{ proleakproof: true }]);
    const tenant = await createTenant(database, {
      name: 'Search Box Ltd',
      adminEmail: `sb-${randomUUID()}@example.com`,
      adminName: 'S',
    });
    const plan = await database.withTenant(tenant.tenantId, async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_indexscan = off`);
      const words = '%1250.5%';
      const result = (await tx.execute(
        // The OR alone (the policy gives the tenant): each arm must be an index read of its own,
        // which under the policy only a LEAKPROOF operator can be.
        sql`explain select id from payment_transactions
          where ledgerline_reference ilike ${words} or customer_name ilike ${words}
            or company_name ilike ${words} or total_amount = ${'1250.5'}::numeric`,
      )) as unknown as { rows: Record<string, string>[] };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    for (const index of [
      'payment_transactions_reference_trgm_idx',
      'payment_transactions_customer_trgm_idx',
      'payment_transactions_company_trgm_idx',
      'payment_transactions_amount_idx',
    ]) {
      expect(plan).toContain(index);
    }
  });

  it('hides another tenant’s rows from the application role and refuses writes into it', async () => {
    const mine = await createTenant(database, {
      name: 'Mine Ltd',
      adminEmail: `a-${randomUUID()}@example.com`,
      adminName: 'A',
    });
    const theirs = await createTenant(database, {
      name: 'Theirs Ltd',
      adminEmail: `b-${randomUUID()}@example.com`,
      adminName: 'B',
    });
    await database.withTenant(theirs.tenantId, (tx) =>
      tx
        .insert(banks)
        .values({
          tenantId: theirs.tenantId,
          datasetId: 1,
          id: randomUUID(),
          accountName: 'Their bank',
          currency: 'GBP',
        }),
    );
    const seen = await database.withTenant(mine.tenantId, (tx) => tx.select().from(banks));
    expect(seen).toEqual([]);
    await expect(
      database.withTenant(mine.tenantId, (tx) =>
        tx
          .insert(banks)
          .values({
            tenantId: theirs.tenantId,
            datasetId: 1,
            id: randomUUID(),
            accountName: 'Planted',
            currency: 'GBP',
          }),
      ),
    ).rejects.toThrow();
  });
});
