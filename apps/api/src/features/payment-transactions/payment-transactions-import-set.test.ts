import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

// The import is checked before its transaction and applied in one statement;
// the rows' answers stay those of a row-by-row import.
let ctx: TestContext;
let merchant: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Set Importer Ltd' });
  await ctx.database.withTenant(merchant.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: merchant.tenantId, datasetId: 1 },
      { accounts: 2, transactions: 2, paymentRequests: 2, paymentTransactions: 14, banks: 1 },
    ),
  );
});
afterAll(() => ctx.close());

const importFile = (csv: string) => {
  const boundary = '----ledgerline-set-boundary';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  );
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v0/payment-transactions/allocated-status/import',
    headers: merchant.headers({
      'dataset-id': '1',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    }),
    payload,
  });
};

const payments = () =>
  ctx.database.withTenant(merchant.tenantId, (tx) =>
    tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, merchant.tenantId),
          eq(paymentTransactions.datasetId, 1),
        ),
      )
      .orderBy(paymentTransactions.id),
  );

describe('the allocated-status import as one statement', () => {
  it('counts the first valid row of an id, whatever its case, and answers the rest as before', async () => {
    const [first, second] = (await payments()).filter((p) => p.allocatedStatus !== 'Error');
    const csv = [
      'PaymentTransactionId,AllocatedStatus',
      `${first!.id},Lost`,
      `${first!.id.toUpperCase()},Error`,
      `${first!.id},Unallocated`,
      `${second!.id},${second!.allocatedStatus}`,
      `${second!.id},Error`,
    ].join('\n');
    const response = await importFile(csv);
    expect(response.statusCode).toBe(200);
    // The answer is written by JSON.stringify, not the route's serializer: still JSON for the site.
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const result = response.json();
    expect(result).toMatchObject({
      processedCount: 5,
      importedCount: 1,
      duplicatedCount: 2,
      notImportedCount: 2,
    });
    expect(
      result.results.map((r: { resultStatus: string; importStatus: string; message: string }) => [
        r.resultStatus,
        r.importStatus,
        r.message,
      ]),
    ).toEqual([
      ['Error', 'NotImported', expect.stringMatching(/^'Lost' is not an allocated status/)],
      ['Ok', 'Imported', `Allocated status changed from ${first!.allocatedStatus} to Error.`],
      [
        'Warning',
        'Duplicate',
        'This payment transaction appears earlier in the file; the first row counts.',
      ],
      ['Warning', 'NotImported', `The allocated status is already ${second!.allocatedStatus}.`],
      [
        'Warning',
        'Duplicate',
        'This payment transaction appears earlier in the file; the first row counts.',
      ],
    ]);
    const after = new Map((await payments()).map((p) => [p.id, p.allocatedStatus]));
    expect(after.get(first!.id)).toBe('Error');
    expect(after.get(second!.id)).toBe(second!.allocatedStatus);
  });

  it('changes every listed payment of a larger file in one go', async () => {
    const all = await payments();
    const csv = [
      'Id,AllocatedStatus',
      ...all.map((p) => `${p.id},${p.allocatedStatus === 'Unallocated' ? 'Error' : 'Unallocated'}`),
    ].join('\r\n');
    const response = await importFile(csv);
    expect(response.json()).toMatchObject({
      processedCount: all.length,
      importedCount: all.length,
    });
    const after = await payments();
    expect(after.map((p) => p.allocatedStatus)).toEqual(
      all.map((p) => (p.allocatedStatus === 'Unallocated' ? 'Error' : 'Unallocated')),
    );
  });
});
