import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.js';
import { accounts, transactions } from '../../src/db/schema-receivables.js';
import type { SignedIn, TestContext } from '../app.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls the API as `who` in company 1 of their tenant. */
export function caller(ctx: TestContext) {
  return (who: SignedIn, method: Method, url: string, payload?: object) =>
    ctx.app.inject({
      method,
      url: `/api/v0/${url}`,
      headers: who.headers({ 'dataset-id': '1' }),
      ...(payload ? { payload } : {}),
    });
}

export async function makeViewer(ctx: TestContext, who: SignedIn) {
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, who.userId));
}

/** An account of company 1, as an ERP connector would have pushed it. */
export async function insertAccount(
  ctx: TestContext,
  who: SignedIn,
  choice: Partial<typeof accounts.$inferInsert> = {},
) {
  const id = randomUUID();
  await ctx.database.withTenant(who.tenantId, (tx) =>
    tx.insert(accounts).values({
      tenantId: who.tenantId,
      datasetId: 1,
      id,
      accountReference: `ACC-${id.slice(0, 8)}`,
      name: `Account ${id.slice(0, 4)}`,
      ...choice,
    }),
  );
  return id;
}

export async function insertInvoice(
  ctx: TestContext,
  who: SignedIn,
  accountId: string,
  values: { amount: string; transactionDate: string; dueDate: string | null; currency?: string },
) {
  const id = randomUUID();
  await ctx.database.withTenant(who.tenantId, (tx) =>
    tx.insert(transactions).values({
      tenantId: who.tenantId,
      datasetId: 1,
      id,
      accountId,
      transactionReference: `INV-${id.slice(0, 8)}`,
      transactionType: 'Invoice',
      transactionDate: values.transactionDate,
      dueDate: values.dueDate,
      currency: values.currency ?? 'GBP',
      transactionAmount: values.amount,
    }),
  );
  return id;
}
