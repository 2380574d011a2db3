import { PGlite } from '@electric-sql/pglite';
import { asc, desc } from 'drizzle-orm';
import {
  boolean,
  integer,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineQueryFields, parseCursorQuery, parsePageQuery } from '@ledgerline/contract';
import type { QuerySort } from '@ledgerline/contract';
import { compilePageQuery } from './compile-page-query.js';
import { compileCursorQuery, toCursorPage } from './cursor.js';

// Runs the compiled SQL on a real (embedded) PostgreSQL: parameter typing, NULL handling, LIKE
// escapes, whole days and keyset walks are behaviours of the database, not of the SQL text.

const statusEnum = pgEnum('paging_status', ['Paid', 'Failed', 'Pending']);
const payments = pgTable('paging_payments', {
  id: uuid('id').primaryKey(),
  statusDateTime: timestamp('status_date_time', { withTimezone: true, precision: 3 }).notNull(),
  status: statusEnum('status'),
  customerName: text('customer_name'),
  amount: numeric('amount', { precision: 19, scale: 4 }),
  attempts: integer('attempts'),
  isTest: boolean('is_test'),
});

const paymentQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    statusDateTime: { type: 'date', sortable: true, filterable: true },
    status: { type: 'enum', values: ['Paid', 'Failed', 'Pending'], filterable: true },
    customerName: { type: 'string', sortable: true, filterable: true },
    amount: { type: 'number', sortable: true, filterable: true },
    attempts: { type: 'number', sortable: true, filterable: true },
    isTest: { type: 'boolean', filterable: true },
  },
  { defaultSort: '-statusDateTime' },
);
const options = {
  columns: {
    id: payments.id,
    statusDateTime: payments.statusDateTime,
    status: payments.status,
    customerName: payments.customerName,
    amount: payments.amount,
    attempts: payments.attempts,
    isTest: payments.isTest,
  },
  tieBreaker: payments.id,
};

const idOf = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const names = ['50% off', '50x off', 'a_b', 'axb', 'back\\slash', 'Acme, Ltd', 'ACME plc', null];
const rows = Array.from({ length: 40 }, (_, n) => ({
  id: idOf(n),
  // Several rows share each timestamp, so only the tie-breaker keeps the order stable.
  statusDateTime: new Date(Date.UTC(2024, 1, 28 + Math.floor(n / 10), 23, 59, 59, 999 - (n % 3))),
  status: n % 5 === 0 ? null : (['Paid', 'Failed', 'Pending'] as const)[n % 3],
  customerName: names[n % names.length] ?? null,
  amount: n % 7 === 0 ? null : `${n}.${n % 10}`,
  attempts: n % 4,
  isTest: n % 6 === 0 ? null : n % 2 === 0,
}));

let client: PGlite;
let db: ReturnType<typeof drizzle>;

beforeAll(async () => {
  client = new PGlite();
  db = drizzle(client);
  await client.exec(`
    create type paging_status as enum ('Paid', 'Failed', 'Pending');
    create table paging_payments (
      id uuid primary key, status_date_time timestamptz(3) not null, status paging_status,
      customer_name text, amount numeric(19,4), attempts integer, is_test boolean);`);
  await db.insert(payments).values(rows);
});
afterAll(async () => {
  await client.close();
});

async function idsMatching(filter: string): Promise<string[]> {
  const where = compilePageQuery(
    parsePageQuery(paymentQuery, { filter, itemsPerPage: 1000 }),
    options,
  ).where;
  const found = await db
    .select({ id: payments.id })
    .from(payments)
    .where(where)
    .orderBy(asc(payments.id));
  return found.map((row) => row.id);
}
function idsWhere(predicate: (row: (typeof rows)[number]) => boolean): string[] {
  return rows
    .filter(predicate)
    .map((row) => row.id)
    .sort();
}

describe('compiled filters on PostgreSQL', () => {
  it('treats LIKE wildcards and backslashes in values literally', async () => {
    expect(await idsMatching('customerName ct 50%')).toEqual(
      idsWhere((row) => row.customerName === '50% off'),
    );
    expect(await idsMatching('customerName sw a_')).toEqual(
      idsWhere((row) => row.customerName === 'a_b'),
    );
    expect(await idsMatching('customerName ew \\\\slash')).toEqual(
      idsWhere((row) => row.customerName === 'back\\slash'),
    );
    expect(await idsMatching('customerName eq acme\\, ltd')).toEqual(
      idsWhere((row) => row.customerName === 'Acme, Ltd'),
    );
  });

  it('matches strings case-insensitively and lets NULL through the negations', async () => {
    expect(await idsMatching('customerName ct acme')).toEqual(
      idsWhere((row) => /acme/i.test(row.customerName ?? '')),
    );
    expect(await idsMatching('customerName nct acme')).toEqual(
      idsWhere((row) => !/acme/i.test(row.customerName ?? '')),
    );
    expect(await idsMatching('customerName neq ACME PLC')).toEqual(
      idsWhere((row) => row.customerName !== 'ACME plc'),
    );
    expect(await idsMatching('status neq paid')).toEqual(idsWhere((row) => row.status !== 'Paid'));
    expect(await idsMatching('isTest neq true')).toEqual(idsWhere((row) => row.isTest !== true));
    expect(await idsMatching('amount neq 1.1')).toEqual(idsWhere((row) => row.amount !== '1.1'));
  });

  it('compares numbers exactly, on numeric and integer columns', async () => {
    expect(await idsMatching('amount ge 20.0, amount lt 30')).toEqual(
      idsWhere((row) => row.amount !== null && Number(row.amount) >= 20 && Number(row.amount) < 30),
    );
    expect(await idsMatching('amount eq 12.2000')).toEqual([idOf(12)]);
    expect(await idsMatching('attempts gt 2.5')).toEqual(idsWhere((row) => row.attempts === 3));
  });

  it('reads a date without a time as the whole UTC day', async () => {
    const day = (n: number) => Math.floor(n / 10);
    const idsOnDays = (test: (d: number) => boolean) =>
      rows
        .filter((_, n) => test(day(n)))
        .map((row) => row.id)
        .sort();
    // Day 0 is 2024-02-28, day 1 the leap day, day 2 March 1st.
    expect(await idsMatching('statusDateTime eq 2024-02-29')).toEqual(idsOnDays((d) => d === 1));
    expect(await idsMatching('statusDateTime neq 2024-02-29')).toEqual(idsOnDays((d) => d !== 1));
    expect(await idsMatching('statusDateTime gt 2024-02-29')).toEqual(idsOnDays((d) => d > 1));
    expect(await idsMatching('statusDateTime le 2024-02-29')).toEqual(idsOnDays((d) => d <= 1));
    expect(await idsMatching('statusDateTime lt 2024-02-29T23:59:59.998Z')).toEqual(
      idsWhere((row) => row.statusDateTime < new Date('2024-02-29T23:59:59.998Z')),
    );
  });

  it('compares ids, enums and booleans', async () => {
    expect(await idsMatching(`id eq ${idOf(7).toUpperCase()}`)).toEqual([idOf(7)]);
    expect(await idsMatching('status eq FAILED')).toEqual(
      idsWhere((row) => row.status === 'Failed'),
    );
    expect(await idsMatching('isTest eq false')).toEqual(idsWhere((row) => row.isTest === false));
  });
});

describe('paging on PostgreSQL', () => {
  const fullOrder = [...rows]
    .sort(
      (a, b) => b.statusDateTime.getTime() - a.statusDateTime.getTime() || b.id.localeCompare(a.id),
    )
    .map((row) => row.id);

  it('pages by offset in a stable, total order', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const compiled = compilePageQuery(
        parsePageQuery(paymentQuery, { page, itemsPerPage: 9 }),
        options,
      );
      const found = await db
        .select({ id: payments.id })
        .from(payments)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit)
        .offset(compiled.offset);
      seen.push(...found.map((row) => row.id));
    }
    expect(seen).toEqual(fullOrder);
  });

  it('walks every row exactly once with cursors, filters included', async () => {
    const filter = 'customerName neq 50x off';
    const expected = fullOrder.filter(
      (id) => rows.find((row) => row.id === id)?.customerName !== '50x off',
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const query = parseCursorQuery(paymentQuery, { cursor, itemsPerPage: '4', filter });
      const compiled = compileCursorQuery(query, options);
      const found = await db
        .select({ id: payments.id, statusDateTime: payments.statusDateTime })
        .from(payments)
        .where(compiled.where)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit);
      const page = toCursorPage(found, query, (row) => [row.statusDateTime, row.id]);
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items.map((row) => row.id));
      cursor = page.next ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(expected);
  });

  it('walks a mixed-direction keyset too', async () => {
    // Not a public cursor order (cursors use the default sort); exercises the OR expansion.
    const sort: QuerySort<'attempts' | 'statusDateTime'>[] = [
      { field: 'attempts', direction: 'asc' },
      { field: 'statusDateTime', direction: 'desc' },
    ];
    const expected = await db
      .select({ id: payments.id })
      .from(payments)
      .orderBy(asc(payments.attempts), desc(payments.statusDateTime), desc(payments.id));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const query = { cursor, itemsPerPage: 7, sort, filters: [] };
      const compiled = compileCursorQuery(query, options);
      const found = await db
        .select({
          id: payments.id,
          attempts: payments.attempts,
          statusDateTime: payments.statusDateTime,
        })
        .from(payments)
        .where(compiled.where)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit);
      const page = toCursorPage(found, query, (row) => [
        row.attempts ?? 0,
        row.statusDateTime,
        row.id,
      ]);
      seen.push(...page.items.map((row) => row.id));
      cursor = page.next ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(expected.map((row) => row.id));
  });
});
