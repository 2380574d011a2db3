import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { auditActivities, users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
const size = { accounts: 6, transactions: 10, paymentRequests: 4, paymentTransactions: 40, banks: 1 };

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Importer Ltd' });
  rival = await signIn(ctx, { tenantName: 'Other Importer Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) => generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size));
  }
});
afterAll(() => ctx.close());

function multipart(content: string | Buffer, filename = 'statuses.csv') {
  const boundary = '----ledgerline-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const importFile = (who: SignedIn, content: string | Buffer, datasetId = '1') => {
  const { body, contentType } = multipart(content);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v0/payment-transactions/allocated-status/import',
    headers: who.headers({ 'dataset-id': datasetId, 'content-type': contentType }),
    payload: body,
  });
};

async function payments(who: SignedIn) {
  return ctx.database.withTenant(who.tenantId, (tx) =>
    tx.select().from(paymentTransactions).where(and(eq(paymentTransactions.tenantId, who.tenantId), eq(paymentTransactions.datasetId, 1))).orderBy(paymentTransactions.id),
  );
}

describe('POST payment-transactions/allocated-status/import', () => {
  it('sets the statuses, answers every row, and writes it all with its activity in one transaction', async () => {
    // a and b get a status they do not have yet; c keeps its own.
    const all = await payments(merchant);
    const a = all.find((row) => row.allocatedStatus !== 'ManuallyAllocated');
    const b = all.find((row) => row !== a && row.allocatedStatus !== 'Error');
    const c = all.find((row) => row !== a && row !== b);
    const [theirs] = await payments(rival);
    const csv = [
      'PaymentTransactionId,Reference,AllocatedStatus',
      `${a!.id},x,ManuallyAllocated`,
      `${b!.id},"with, comma",Error`,
      `${a!.id},x,Unallocated`,
      `${c!.id},x,${c!.allocatedStatus}`,
      'not-an-id,x,Error',
      `${theirs!.id},x,Error`,
      `${b!.id.toUpperCase().slice(0, 35)}0,x,Lost`,
    ].join('\r\n');
    const response = await importFile(merchant, `\ufeff${csv}\r\n`);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({ processedCount: 7, importedCount: 2, duplicatedCount: 1, notImportedCount: 4 });
    expect(result.results.map((r: { line: number; resultStatus: string; importStatus: string }) => [r.line, r.resultStatus, r.importStatus])).toEqual([
      [2, 'Ok', 'Imported'],
      [3, 'Ok', 'Imported'],
      [4, 'Warning', 'Duplicate'],
      [5, 'Warning', 'NotImported'],
      [6, 'Error', 'NotImported'],
      [7, 'Error', 'NotImported'],
      [8, 'Error', 'NotImported'],
    ]);
    expect(result.results[4].message).toBe("'not-an-id' is not a payment transaction id.");
    expect(result.results[5].message).toBe('No payment transaction of this company has this id.');
    expect(result.results[6].message).toMatch(/^'Lost' is not an allocated status/);
    const after = new Map((await payments(merchant)).map((row) => [row.id, row.allocatedStatus]));
    expect(after.get(a!.id)).toBe('ManuallyAllocated');
    expect(after.get(b!.id)).toBe('Error');
    expect((await payments(rival)).find((row) => row.id === theirs!.id)!.allocatedStatus).toBe(theirs!.allocatedStatus);
    const activities = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.tenantId, merchant.tenantId), eq(auditActivities.operation, 'ImportAllocatedStatus')));
    expect(activities).toHaveLength(1);
    expect(activities[0]).toMatchObject({ status: 200, datasetId: 1 });
  });

  it('reads an exported file back (Id column by its export name)', async () => {
    const exported = await ctx.app.inject({ method: 'GET', url: '/api/v0/payment-transactions/export', headers: merchant.headers({ 'dataset-id': '1' }) });
    const response = await importFile(merchant, exported.body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ processedCount: size.paymentTransactions, importedCount: 0, duplicatedCount: 0 });
  });

  it.each([
    ['Id,Status\nx,y\n', 'The file needs the columns PaymentTransactionId and AllocatedStatus.'],
    ['PaymentTransactionId,AllocatedStatus\r\n', 'The file has no rows to import.'],
  ])('refuses %j', async (content, message) => {
    const response = await importFile(merchant, content);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe(message);
  });

  it('refuses a call without a file', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/payment-transactions/allocated-status/import',
      headers: merchant.headers({ 'dataset-id': '1', 'content-type': 'application/json' }),
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('Choose a CSV file to import.');
  });

  it('takes a file larger than the JSON body limit', async () => {
    const [row] = await payments(merchant);
    const padding = `${row!.id},${'p'.repeat(200)},Unallocated\n`.repeat(8000);
    const response = await importFile(merchant, `PaymentTransactionId,Note,AllocatedStatus\n${padding}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().duplicatedCount).toBe(7999);
  });

  it('needs ImportAllocatedStatus and changes nothing without it', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Import Viewer Ltd' });
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    const [row] = await payments(merchant);
    const response = await importFile(viewer, `PaymentTransactionId,AllocatedStatus\n${row!.id},Error\n`);
    expect(response.statusCode).toBe(403);
  });

  it('answers 404 for another tenant’s company', async () => {
    const response = await importFile(merchant, 'PaymentTransactionId,AllocatedStatus\n', '2');
    expect(response.statusCode).toBe(404);
  });
});
