import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paymentRequestAllocations, paymentRequests } from '../../src/db/schema-receivables.js';
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
