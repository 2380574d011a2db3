import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { documentMessages, importMessages } from '@ledgerline/contract';
import { transactionDocuments, transactions } from '../db/schema-receivables.js';
import { generateReceivables } from '../features/datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';

/**
 * What the multipart parser cannot read is a 400 problem, not a 500,
 * and a document upload with two files is refused instead of keeping the first.
 */
let ctx: TestContext;
let merchant: SignedIn;
let transactionId: string;

const boundary = '----ledgerline-upload-boundary';
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

function filePart(field: string, fileName: string, data: Buffer) {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from('\r\n'),
  ]);
}

const body = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);

const uploads = () => [
  {
    url: `/api/v0/transactions/${transactionId}/documents`,
    messages: { ...documentMessages, required: documentMessages.fileRequired },
  },
  {
    url: '/api/v0/payment-transactions/allocated-status/import',
    messages: { ...importMessages, required: importMessages.noFile },
  },
];

function post(url: string, contentType: string, payload: Buffer) {
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: merchant.headers({ 'dataset-id': '1', 'content-type': contentType }),
    payload,
  });
}

async function documentCount() {
  const rows = await ctx.database.db
    .select({ id: transactionDocuments.id })
    .from(transactionDocuments)
    .where(eq(transactionDocuments.tenantId, merchant.tenantId));
  return rows.length;
}

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Uploads Ltd' });
  await ctx.database.withTenant(merchant.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: merchant.tenantId, datasetId: 1 },
      { accounts: 1, transactions: 1, paymentRequests: 1, paymentTransactions: 1, banks: 0 },
    ),
  );
  const [row] = await ctx.database.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(eq(transactions.tenantId, merchant.tenantId));
  transactionId = row!.id;
});

afterAll(() => ctx?.close());

describe('multipart uploads', () => {
  it('answer 400 problem to multipart/form-data without a boundary', async () => {
    for (const { url, messages } of uploads()) {
      const response = await post(url, 'multipart/form-data', filePart('file', 'a.pdf', pdf));
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({
        status: 400,
        detail: messages.malformed,
        errors: { file: [messages.malformed] },
      });
    }
  });

  it('answer 400 problem to a body cut short and to a part without headers', async () => {
    for (const { url, messages } of uploads()) {
      const cut = filePart('file', 'a.pdf', pdf).subarray(0, 60);
      const type = `multipart/form-data; boundary=${boundary}`;
      const cutShort = await post(url, type, cut);
      expect(cutShort.statusCode, `${url}: ${cutShort.body}`).toBe(400);
      const malformed = await post(
        url,
        type,
        Buffer.from(`--${boundary}\r\nno header here\r\n\r\nx\r\n--${boundary}--\r\n`),
      );
      expect(malformed.statusCode, `${url}: ${malformed.body}`).toBe(400);
      // Nothing readable came through: the caller is asked for the file.
      expect(cutShort.json().detail).toBe(messages.required);
      expect(malformed.json().detail).toBe(messages.required);
    }
  });

  it('refuse two files in one document upload and keep neither', async () => {
    const before = await documentCount();
    const response = await post(
      `/api/v0/transactions/${transactionId}/documents`,
      `multipart/form-data; boundary=${boundary}`,
      body(filePart('file', 'first.pdf', pdf), filePart('file', 'second.pdf', pdf)),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      detail: 'Attach one file at a time.',
      errors: { file: ['Attach one file at a time.'] },
    });
    expect(await documentCount()).toBe(before);

    const one = await post(
      `/api/v0/transactions/${transactionId}/documents`,
      `multipart/form-data; boundary=${boundary}`,
      body(filePart('file', 'only.pdf', pdf)),
    );
    expect(one.statusCode, one.body).toBe(201);
    expect(await documentCount()).toBe(before + 1);
  });

  it('refuse two files in one import', async () => {
    const csv = Buffer.from('PaymentTransactionId,AllocatedStatus\r\n');
    const response = await post(
      '/api/v0/payment-transactions/allocated-status/import',
      `multipart/form-data; boundary=${boundary}`,
      body(filePart('file', 'a.csv', csv), filePart('file', 'b.csv', csv)),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().detail).toBe(importMessages.oneFileAtATime);
  });
});
