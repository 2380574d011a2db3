import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { exportColumns } from '@ledgerline/contract';
import { paymentAllocations, paymentTransactions } from '../../db/schema-receivables.js';
import { users } from '../../db/schema.js';
import type { Executor } from '../../db/client.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { exportPaymentTransactions } from './payment-transactions.export.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
const size = { accounts: 10, transactions: 20, paymentRequests: 8, paymentTransactions: 90, banks: 1 };

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Exporter Ltd' });
  rival = await signIn(ctx, { tenantName: 'Other Exporter Ltd' });
  for (const who of [merchant, rival]) {
    await ctx.database.withTenant(who.tenantId, (tx) => generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size));
  }
});
afterAll(() => ctx.close());

const exportCsv = (who: SignedIn, query = '') =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/payment-transactions/export${query}`, headers: who.headers({ 'dataset-id': '1' }) });

/** RFC 4180 lines into fields (enough for these files: quoted fields may hold commas and quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.replace(/^\ufeff/, '').split('\r\n').filter(Boolean)) {
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') {
          field += '"';
          i++;
        } else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        fields.push(field);
        field = '';
      }
      else field += c;
    }
    fields.push(field);
    rows.push(fields);
  }
  return rows;
}

async function payments(who: SignedIn) {
  return ctx.database.withTenant(who.tenantId, (tx) =>
    tx.select().from(paymentTransactions).where(and(eq(paymentTransactions.tenantId, who.tenantId), eq(paymentTransactions.datasetId, 1))),
  );
}

describe('GET payment-transactions/export', () => {
  it('streams PaymentTransactions.csv: a line per payment and per allocation, in status-date order', async () => {
    const response = await exportCsv(merchant);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="PaymentTransactions.csv"');
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([...exportColumns]);
    const all = await payments(merchant);
    const allocations = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select().from(paymentAllocations).where(eq(paymentAllocations.tenantId, merchant.tenantId)),
    );
    expect(allocations.length).toBeGreaterThan(0);
    // Each allocated payment has one allocation here, so lines = payments.
    expect(rows).toHaveLength(all.length);
    expect(new Set(rows.map((row) => row[0]))).toEqual(new Set(all.map((row) => row.id)));
    const times = rows.map((row) => row[6]!);
    expect([...times].sort()).toEqual(times);
    const sample = all[0]!;
    const line = rows.find((row) => row[0] === sample.id)!;
    expect(line[8]).toBe(Number(sample.totalAmount).toFixed(2));
    expect(line[11]).toBe(sample.customerName);
  });

  it('gives the same file in small batches as in one (keyset paging over equal status dates)', async () => {
    const collect = async (batchSize: number) =>
      (async () => {
        let text = '';
        const read = <T,>(fn: (tx: Executor) => Promise<T>) => ctx.database.readAsTenant(merchant.tenantId, fn);
        for await (const chunk of exportPaymentTransactions(read, { tenantId: merchant.tenantId, datasetId: 1 }, { exportType: 'PaymentsAndAllocations', excludeAllocatedStatus: [] }, batchSize)) text += chunk;
        return text;
      })();
    // Two payments share a status date, so the cursor must break the tie by id.
    const [first, second] = await payments(merchant);
    await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.update(paymentTransactions).set({ statusDateTime: first!.statusDateTime }).where(eq(paymentTransactions.id, second!.id)),
    );
    const whole = await collect(5000);
    expect(await collect(7)).toBe(whole);
    expect(await collect(1)).toBe(whole);
    expect(parseCsv(whole)).toHaveLength(1 + size.paymentTransactions);
  });

  it('exports allocations only, the chosen days, statuses and table filters', async () => {
    const allocationsOnly = parseCsv((await exportCsv(merchant, '?exportType=Allocations')).body).slice(1);
    expect(allocationsOnly.length).toBeGreaterThan(0);
    expect(allocationsOnly.every((row) => ['AutoAllocated', 'ManuallyAllocated'].includes(row[3]!) && row[18] !== '')).toBe(true);

    const all = await payments(merchant);
    const day = all[0]!.statusDateTime.toISOString().slice(0, 10);
    const oneDay = parseCsv((await exportCsv(merchant, `?fromDate=${day}T00:00:00.000Z&toDate=${day}T00:00:00.001Z`)).body).slice(1);
    expect(oneDay.length).toBeGreaterThan(0);
    expect(oneDay.every((row) => row[6]!.startsWith(day))).toBe(true);

    const excluded = parseCsv((await exportCsv(merchant, '?excludeAllocatedStatus=AutoAllocated,ManuallyAllocated,Error')).body).slice(1);
    expect(excluded.length).toBe(all.filter((row) => !['AutoAllocated', 'ManuallyAllocated', 'Error'].includes(row.allocatedStatus)).length);

    const filtered = parseCsv((await exportCsv(merchant, `?filter=${encodeURIComponent('status eq Pending')}`)).body).slice(1);
    expect(filtered.length).toBe(all.filter((row) => row.status === 'Pending').length);
    expect(filtered.every((row) => row[2] === 'Pending')).toBe(true);
  });

  // "Include table filters" carries the list's search box too.
  it('exports the rows the table’s search finds, with its filters: the list’s rows exactly', async () => {
    const list = async (query: Record<string, string>) => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/v0/payment-transactions?${new URLSearchParams({ itemsPerPage: '1000', ...query })}`,
        headers: merchant.headers({ 'dataset-id': '1' }),
      });
      expect(response.statusCode, response.body).toBe(200);
      return new Set((response.json().items as { id: string }[]).map((item) => item.id));
    };
    const ids = (body: string) => new Set(parseCsv(body).slice(1).map((row) => row[0]!));
    const all = await payments(merchant);
    const payment = all.find((row) => row.customerName)!;
    const words = payment.customerName!.split(' ')[0]!;
    const found = await exportCsv(merchant, `?search=${encodeURIComponent(words)}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(ids(found.body)).toContain(payment.id);
    expect(ids(found.body)).toEqual(await list({ search: words }));
    expect(ids(found.body).size).toBeLessThan(all.length);

    const filter = `status eq ${payment.status}`;
    const both = await exportCsv(merchant, `?search=${encodeURIComponent(words)}&filter=${encodeURIComponent(filter)}`);
    expect(ids(both.body)).toEqual(await list({ search: words, filter }));
    expect(parseCsv(both.body).slice(1).every((row) => row[2] === payment.status)).toBe(true);

    expect(parseCsv((await exportCsv(merchant, '?search=wombat')).body)).toHaveLength(1);
    const long = await exportCsv(merchant, `?search=${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    // Another tenant's search by the merchant's own reference finds none of the merchant's rows.
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/payment-transactions/export?search=${encodeURIComponent(payment.ledgerlineReference)}`,
      headers: rival.headers({ 'dataset-id': '1' }),
    });
    expect(theirs.statusCode).toBe(200);
    expect(ids(theirs.body).has(payment.id)).toBe(false);
  });

  // The dialog sends both days as the same UTC midnight (spec 2 §5).
  it('exports one whole day when from and to are the same day', async () => {
    const all = await payments(merchant);
    const day = all[0]!.statusDateTime.toISOString().slice(0, 10);
    const response = await exportCsv(merchant, `?fromDate=${day}T00:00:00.000Z&toDate=${day}T00:00:00.000Z`);
    expect(response.statusCode).toBe(200);
    const rows = parseCsv(response.body).slice(1);
    const thatDay = all.filter((row) => row.statusDateTime.toISOString().startsWith(day));
    expect(rows.map((row) => row[0]).sort()).toEqual(thatDay.map((row) => row.id).sort());
    expect(rows.every((row) => row[6]!.startsWith(day))).toBe(true);
  });

  it('keeps a customer’s text from becoming a spreadsheet formula, and quotes what needs it', async () => {
    const [first, second] = await payments(merchant);
    await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.update(paymentTransactions).set({ customerName: '=HYPERLINK("http://evil")' }).where(eq(paymentTransactions.id, first!.id));
      await tx.update(paymentTransactions).set({ customerName: 'Smith, "Bob"' }).where(eq(paymentTransactions.id, second!.id));
    });
    const response = await exportCsv(merchant);
    expect(response.body).toContain(`'=HYPERLINK(""http://evil"")`);
    const rows = parseCsv(response.body);
    expect(rows.find((row) => row[0] === first!.id)![11]).toBe(`'=HYPERLINK("http://evil")`);
    expect(rows.find((row) => row[0] === second!.id)![11]).toBe('Smith, "Bob"');
  });

  it('writes any text exactly: backslashes, tabs, line breaks, accents; a filter value cannot break out of its quotes', async () => {
    const [, , third, fourth] = await payments(merchant);
    const tricky = 'O\'Brien \\ Sons\tLtd, é€😀';
    const broken = 'Line one\r\nLine "two"\\';
    await ctx.database.withTenant(merchant.tenantId, async (tx) => {
      await tx.update(paymentTransactions).set({ customerName: tricky }).where(eq(paymentTransactions.id, third!.id));
      await tx.update(paymentTransactions).set({ customerName: broken }).where(eq(paymentTransactions.id, fourth!.id));
    });
    const whole = (await exportCsv(merchant)).body;
    expect(whole).toContain(`,"${tricky}",`);
    expect(whole).toContain(`,"Line one\r\nLine ""two""\\",`);
    // The filter language writes a backslash as \\ (docs/decisions/008-the-filter-language-s-edges.md).
    const filter = encodeURIComponent("customerName ct O'Brien \\\\ Sons");
    const rows = parseCsv((await exportCsv(merchant, `?filter=${filter}`)).body).slice(1);
    expect(rows.map((row) => row[0])).toEqual(rows.map(() => third!.id));
    expect(rows.length).toBeGreaterThan(0);
    const injection = encodeURIComponent("customerName ct x') or true or ('");
    expect(parseCsv((await exportCsv(merchant, `?filter=${injection}`)).body)).toHaveLength(1);
  });

  it.each([
    ['?fromDate=2026-02-01T00:00:00Z&toDate=2026-01-01T00:00:00Z', 'fromDate', 'From Date must be less than To Date'],
    ['?exportType=Everything', 'exportType', 'Choose an export type.'],
    ['?excludeAllocatedStatus=Lost', 'excludeAllocatedStatus', 'Choose allocated statuses from the list.'],
    ['?fromDate=yesterday', 'fromDate', 'From Date must be a date.'],
  ])('refuses %s with the message', async (query, field, message) => {
    const response = await exportCsv(merchant, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('refuses a malformed table filter', async () => {
    const response = await exportCsv(merchant, `?filter=${encodeURIComponent('colour eq red')}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain('colour');
  });

  it('needs ExportPaymentTransactions', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Export Viewer Ltd' });
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    expect((await exportCsv(viewer)).statusCode).toBe(403);
  });

  it('never exports another tenant’s payments', async () => {
    const theirs = new Set((await payments(rival)).map((row) => row.id));
    const mine = parseCsv((await exportCsv(merchant)).body).slice(1);
    expect(mine.some((row) => theirs.has(row[0]!))).toBe(false);
    const other = await ctx.app.inject({ method: 'GET', url: '/api/v0/payment-transactions/export', headers: merchant.headers({ 'dataset-id': '2' }) });
    expect(other.statusCode).toBe(404);
  });
});
