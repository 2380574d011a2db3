import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { PgDialect, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { defineQueryFields, parsePageQuery } from '@ledgerline/contract';
import { compilePageQuery } from './compile-page-query.js';
import { compileOrderBy } from './compile-sort.js';

const dialect = new PgDialect();
const render = (query: SQL) => dialect.sqlToQuery(query).sql;

const transactions = pgTable('tx', {
  id: uuid('id').primaryKey(),
  statusDateTime: timestamp('status_date_time', { withTimezone: true, precision: 3 }),
  customerName: text('customer_name'),
  amount: numeric('amount', { precision: 19, scale: 4 }),
});
const transactionQuery = defineQueryFields(
  {
    statusDateTime: { type: 'date', sortable: true, filterable: true },
    customerName: { type: 'string', sortable: true, filterable: true },
    amount: { type: 'number', sortable: true, filterable: true },
  },
  { defaultSort: '-statusDateTime' },
);
const options = {
  columns: {
    statusDateTime: transactions.statusDateTime,
    customerName: transactions.customerName,
    amount: transactions.amount,
  },
  tieBreaker: transactions.id,
};

describe('compileOrderBy', () => {
  it('appends the tie-breaker in the last direction', () => {
    const orderBy = compileOrderBy(
      [
        { field: 'customerName', direction: 'asc' },
        { field: 'amount', direction: 'desc' },
      ],
      options.columns,
      transactions.id,
    );
    expect(orderBy.map(render)).toEqual([
      '"tx"."customer_name" asc',
      '"tx"."amount" desc',
      '"tx"."id" desc',
    ]);
    expect(compileOrderBy([], {}, sql`row_id`).map(render)).toEqual(['(row_id) asc']);
  });
});

describe('compilePageQuery', () => {
  it('compiles the default query: no filter, default sort, first page', () => {
    const compiled = compilePageQuery(parsePageQuery(transactionQuery, {}), options);
    expect(compiled.where).toBeUndefined();
    expect(compiled.orderBy.map(render)).toEqual([
      '"tx"."status_date_time" desc',
      '"tx"."id" desc',
    ]);
    expect(compiled).toMatchObject({ limit: 10, offset: 0 });
  });

  it('compiles filters, sort and offset together', () => {
    const query = parsePageQuery(transactionQuery, {
      page: '3',
      itemsPerPage: '25',
      sort: 'CustomerName',
      filter: 'customerName ct Acme Ltd, amount ge 10',
    });
    const compiled = compilePageQuery(query, options);
    expect(dialect.sqlToQuery(compiled.where!)).toMatchObject({
      sql: `("tx"."customer_name" ilike ('%' || $1::text || '%') escape '\\' and "tx"."amount" >= $2::numeric)`,
      params: ['Acme Ltd', '10'],
    });
    expect(compiled.orderBy.map(render)).toEqual(['"tx"."customer_name" asc', '"tx"."id" asc']);
    expect(compiled).toMatchObject({ limit: 25, offset: 50 });
  });
});
