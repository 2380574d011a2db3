import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  paymentAllocations,
  paymentRequestAllocations,
  paymentRequests,
  paymentTransactions,
} from '../../src/db/schema-receivables.js';
import type { SignedIn, TestContext } from '../app.js';
import { insertAccount, insertInvoice } from '../money-rules/fixtures.js';

export { insertAccount, insertInvoice };

/** Days from today (UTC) as YYYY-MM-DD. */
export function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/** A payment request of company 1, written as the payment-requests area writes it. */
export async function insertRequest(
  ctx: TestContext,
  who: SignedIn,
  values: Partial<typeof paymentRequests.$inferInsert> & { accountId: string },
  invoices: string[] = [],
) {
  const id = randomUUID();
  await ctx.database.withTenant(who.tenantId, async (tx) => {
    await tx.insert(paymentRequests).values({
      tenantId: who.tenantId,
      datasetId: 1,
      id,
      requestType: invoices.length > 0 ? 'Transaction' : 'Account',
      usageType: 'Single',
      currency: 'GBP',
      amountToPay: '100',
      customerName: 'Payer Customer Ltd',
      customerReference: 'CUST-1',
      description: 'Invoices for October',
      ...values,
    });
    for (const transactionId of invoices)
      await tx.insert(paymentRequestAllocations).values({
        tenantId: who.tenantId,
        datasetId: 1,
        paymentRequestId: id,
        transactionId,
        required: true,
      });
  });
  return id;
}

/** The .eml files of the mail drop, soft line breaks undone. */
export function mailsIn(outbox: string): string[] {
  return existsSync(outbox)
    ? readdirSync(outbox)
        .sort()
        .map((file) =>
          readFileSync(join(outbox, file), 'utf8').replace(/=\n/g, '').replace(/=3D/g, '='),
        )
    : [];
}

/** A payment transaction's row as stored. */
export async function paymentRowIn(ctx: TestContext, id: string) {
  const [row] = await ctx.database.db
    .select()
    .from(paymentTransactions)
    .where(eq(paymentTransactions.id, id));
  return row!;
}

/**
 * A payment that paid the whole request: allocated to each of its invoices, the request Completed
 * for staff and on the payer page.
 */
export async function expectSettledIn(
  ctx: TestContext,
  who: SignedIn,
  request: { requestId: string; invoices: string[] },
  paymentId: string,
) {
  const allocations = await ctx.database.db
    .select()
    .from(paymentAllocations)
    .where(
      and(
        eq(paymentAllocations.tenantId, who.tenantId),
        eq(paymentAllocations.paymentTransactionId, paymentId),
      ),
    );
  expect(allocations.map((a) => a.transactionId).sort()).toEqual([...request.invoices].sort());
  const staff = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/payment-requests/${request.requestId}`,
    headers: who.headers({ 'dataset-id': '1' }),
  });
  expect(staff.json().requestStatus).toBe('Completed');
  const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${request.requestId}` });
  expect(page.json().state).toBe('Completed');
}
