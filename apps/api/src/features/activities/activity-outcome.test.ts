import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let merchant: SignedIn;
const size = {
  accounts: 4,
  transactions: 6,
  paymentRequests: 2,
  paymentTransactions: 60,
  banks: 0,
};

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Outcomes Ltd' });
  await ctx.database.withTenant(merchant.tenantId, (tx) =>
    generateReceivables(tx, { tenantId: merchant.tenantId, datasetId: 1 }, size),
  );
});
afterAll(() => ctx.close());

const company = { 'dataset-id': '1' };

async function pendingPayments() {
  return ctx.database.withTenant(merchant.tenantId, (tx) =>
    tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, merchant.tenantId),
          eq(paymentTransactions.status, 'Pending'),
        ),
      )
      .orderBy(paymentTransactions.id),
  );
}

async function activityOf(paymentId: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/audit-logs?filter=${encodeURIComponent('operation eq CapturePendingPayment')}`,
    headers: merchant.headers(company),
  });
  expect(response.statusCode).toBe(200);
  return (response.json().items as { resourceId: string }[]).find(
    (item) => item.resourceId === paymentId,
  );
}

// A declined capture (isError) is not a plain success in the activities.
describe('the outcome of an activity', () => {
  it('records why a call that answered 200 did not do what it was asked, and the record it touched', async () => {
    const [declined, captured] = await pendingPayments();
    const refusal = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/payment-transactions/${declined!.id}/pending/capture`,
      headers: merchant.headers(company),
      payload: { amountToCapture: 0.99 },
    });
    expect(refusal.json().isError).toBe(true);
    expect(await activityOf(declined!.id)).toMatchObject({
      operation: 'CapturePendingPayment',
      status: 200,
      errorMessage:
        'The sandbox provider declined the capture (amounts ending in .99 are declined).',
      resourceType: 'PaymentTransaction',
      resourceId: declined!.id,
    });

    const success = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/payment-transactions/${captured!.id}/pending/capture`,
      headers: merchant.headers(company),
      payload: { amountToCapture: 1 },
    });
    expect(success.json().isError).toBe(false);
    expect(await activityOf(captured!.id)).toMatchObject({
      status: 200,
      errorMessage: null,
      resourceType: 'PaymentTransaction',
    });
  });
});
