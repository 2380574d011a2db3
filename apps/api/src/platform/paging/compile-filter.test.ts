import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { QueryFilter } from '@ledgerline/contract';
import {
  compileFilter,
  compileFilters,
  compileSearch,
  escapeLikePattern,
} from './compile-filter.js';

const dialect = new PgDialect();
const table = pgTable('payment_transactions', { name: text('customer_name') });
const column = table.name;
const render = (query: SQL) => dialect.sqlToQuery(query);
const compiled = (filter: QueryFilter) => render(compileFilter(filter, column));
const col = '"payment_transactions"."customer_name"';

describe('compileFilter for strings', () => {
  const cases: [QueryFilter['operator'], string, string][] = [
    ['eq', `lower(${col}) = lower($1::text)`, 'Acme'],
    ['neq', `lower(${col}) is distinct from lower($1::text)`, 'Acme'],
    ['ct', `${col} ilike ('%' || $1::text || '%') escape '\\'`, 'Acme'],
    ['nct', `(${col} is null or ${col} not ilike ('%' || $1::text || '%') escape '\\')`, 'Acme'],
    ['sw', `${col} ilike ($1::text || '%') escape '\\'`, 'Acme'],
    ['ew', `${col} ilike ('%' || $1::text) escape '\\'`, 'Acme'],
  ];
  it.each(cases)('%s', (operator, text, param) => {
    const filter = { field: 'name', type: 'string', operator, value: 'Acme' } as QueryFilter;
    expect(compiled(filter)).toEqual({ sql: text, params: [param], typings: ['none'] });
  });

  it('escapes LIKE wildcards and the escape character in pattern operators only', () => {
    expect(escapeLikePattern('50%_off\\now')).toBe('50\\%\\_off\\\\now');
    expect(
      compiled({ field: 'name', type: 'string', operator: 'ct', value: '50%_\\' }).params,
    ).toEqual(['50\\%\\_\\\\']);
    expect(
      compiled({ field: 'name', type: 'string', operator: 'eq', value: '50%_\\' }).params,
    ).toEqual(['50%_\\']);
  });
});

describe('compileFilter for numbers, enums, ids and booleans', () => {
  const cases: [string, string][] = [
    ['eq', '='],
    ['gt', '>'],
    ['ge', '>='],
    ['lt', '<'],
    ['le', '<='],
    ['neq', 'is distinct from'],
  ];
  it.each(cases)('number %s binds the decimal text as numeric', (operator, symbol) => {
    const filter = { field: 'amount', type: 'number', operator, value: '12.3400' } as QueryFilter;
    expect(compiled(filter)).toMatchObject({
      sql: `${col} ${symbol} $1::numeric`,
      params: ['12.3400'],
    });
  });

  it('compares enums, ids and booleans by equality, NULL-safe for neq', () => {
    expect(compiled({ field: 's', type: 'enum', operator: 'eq', value: 'Paid' })).toMatchObject({
      sql: `${col} = $1`,
      params: ['Paid'],
    });
    const id = '0190c3a4-7b1e-7c00-8000-00000000000a';
    expect(compiled({ field: 'id', type: 'uuid', operator: 'neq', value: id })).toMatchObject({
      sql: `${col} is distinct from $1`,
      params: [id],
    });
    expect(compiled({ field: 'b', type: 'boolean', operator: 'eq', value: false })).toMatchObject({
      sql: `${col} = $1`,
      params: [false],
    });
  });
});

describe('compileFilter for dates', () => {
  const day = new Date('2024-02-29T00:00:00Z');
  const start = '2024-02-29T00:00:00.000Z';
  const end = '2024-03-01T00:00:00.000Z';
  const wholeDay: [string, string, string[]][] = [
    ['eq', `(${col} >= $1::timestamptz and ${col} < $2::timestamptz)`, [start, end]],
    [
      'neq',
      `(${col} is null or ${col} < $1::timestamptz or ${col} >= $2::timestamptz)`,
      [start, end],
    ],
    ['gt', `${col} >= $1::timestamptz`, [end]],
    ['ge', `${col} >= $1::timestamptz`, [start]],
    ['lt', `${col} < $1::timestamptz`, [start]],
    ['le', `${col} < $1::timestamptz`, [end]],
  ];
  it.each(wholeDay)('a whole day with %s covers that UTC day', (operator, text, params) => {
    const filter = {
      field: 'd',
      type: 'date',
      operator,
      value: day,
      wholeDay: true,
    } as QueryFilter;
    expect(compiled(filter)).toMatchObject({ sql: text, params });
  });

  it('compares an instant exactly', () => {
    const value = new Date('2024-02-29T13:45:07.123Z');
    expect(
      compiled({ field: 'd', type: 'date', operator: 'eq', value, wholeDay: false }),
    ).toMatchObject({
      sql: `${col} = $1::timestamptz`,
      params: ['2024-02-29T13:45:07.123Z'],
    });
    expect(
      compiled({ field: 'd', type: 'date', operator: 'neq', value, wholeDay: false }).sql,
    ).toBe(`${col} is distinct from $1::timestamptz`);
  });
});

describe('compileFilters', () => {
  it('joins filters with AND and maps fields to columns or expressions', () => {
    const where = compileFilters(
      [
        { field: 'customerName', type: 'string', operator: 'sw', value: 'A' },
        { field: 'amount', type: 'number', operator: 'gt', value: '5' },
      ],
      { customerName: column, amount: sql`coalesce(amount_paid, 0)` },
    );
    expect(render(where!)).toMatchObject({
      sql: `(${col} ilike ($1::text || '%') escape '\\' and (coalesce(amount_paid, 0)) > $2::numeric)`,
      params: ['A', '5'],
    });
  });

  it('gives no condition for no filters and refuses an unmapped field', () => {
    expect(compileFilters([], {})).toBeUndefined();
    expect(() =>
      compileFilters([{ field: 'x', type: 'boolean', operator: 'eq', value: true }], {}),
    ).toThrow("No column is mapped for query field 'x'.");
  });
});

describe('compileFilters with several eq items on one enum field', () => {
  it('ORs them where the first stood, and ANDs the rest', () => {
    const where = compileFilters(
      [
        { field: 'status', type: 'enum', operator: 'eq', value: 'Failed' },
        { field: 'customerName', type: 'string', operator: 'sw', value: 'A' },
        { field: 'status', type: 'enum', operator: 'eq', value: 'Rejected' },
        { field: 'status', type: 'enum', operator: 'neq', value: 'Paid' },
      ],
      { status: sql`status`, customerName: column },
    );
    expect(render(where!)).toMatchObject({
      sql: `(((status) = $1 or (status) = $2) and ${col} ilike ($3::text || '%') escape '\\' and (status) is distinct from $4)`,
      params: ['Failed', 'Rejected', 'A', 'Paid'],
    });
  });
});

describe('compileSearch', () => {
  it('finds the words in any text field, or the amount equal to them', () => {
    const search = {
      text: '50%',
      fields: ['customerName', 'reference'],
      amount: { field: 'amount', value: '50' },
    };
    const where = compileSearch(search, {
      customerName: column,
      reference: sql`reference`,
      amount: sql`amount`,
    });
    expect(render(where!)).toMatchObject({
      sql: `(${col} ilike ('%' || $1::text || '%') escape '\\' or (reference) ilike ('%' || $2::text || '%') escape '\\' or (amount) = $3::numeric)`,
      // One pattern, bound where each arm reads it.
      params: ['50\\%', '50\\%', '50'],
    });
    expect(compileSearch(undefined, {})).toBeUndefined();
  });
});
