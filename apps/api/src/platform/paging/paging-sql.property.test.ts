import fc from 'fast-check';
import { PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { QueryError, defineQueryFields, formatFilterItem, parseFilter } from '@ledgerline/contract';
import type { FilterOperator, QuerySort } from '@ledgerline/contract';
import { compileFilters, escapeLikePattern } from './compile-filter.js';
import { encodeCursor, keysetPredicate, decodeCursor } from './cursor.js';

const dialect = new PgDialect();
const table = pgTable('t', { name: text('name'), other: text('other') });
const query = defineQueryFields(
  {
    name: { type: 'string', sortable: true, filterable: true },
    amount: { type: 'number', filterable: true },
    at: { type: 'date', filterable: true },
    status: { type: 'enum', values: ['Paid', 'Failed'], filterable: true },
    id: { type: 'uuid', filterable: true },
    flag: { type: 'boolean', filterable: true },
  },
  { defaultSort: 'name' },
);
const columns = {
  name: table.name,
  amount: table.other,
  at: table.other,
  status: table.other,
  id: table.other,
  flag: table.other,
};

/** Hostile text: SQL syntax, LIKE wildcards, escapes, quotes and unicode, mixed with anything. */
const hostileValue = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "'",
        '"',
        '%',
        '_',
        '\\',
        ';',
        '--',
        '/*',
        '*/',
        '$1',
        '$$',
        ',',
        ' ',
        'or 1=1',
        'é',
        '😀',
        '\u0000',
        'ß',
      ),
      fc.string({ unit: 'grapheme', maxLength: 5 }),
    ),
    { minLength: 1, maxLength: 20 },
  )
  .map((parts) => parts.join(''));

const operators: FilterOperator[] = ['ct', 'nct', 'sw', 'ew', 'eq', 'neq', 'gt', 'ge', 'lt', 'le'];

/** Parses and compiles one item; undefined when the parser refuses it. */
function compileItem(field: string, operator: FilterOperator, value: string) {
  try {
    const filters = parseFilter(query, formatFilterItem({ field, operator, value }));
    return dialect.sqlToQuery(compileFilters(filters, columns)!);
  } catch (error) {
    if (error instanceof QueryError) return undefined;
    throw error;
  }
}

describe('compiled SQL never carries client text', () => {
  it('(b) filter values only ever travel as parameters', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(columns)),
        fc.constantFrom(...operators),
        hostileValue,
        (field, operator, value) => {
          const compiled = compileItem(field, operator, value);
          if (compiled === undefined) return;
          // The statement text does not depend on the value at all: only parameters do.
          const reference = compileItem(field, operator, referenceValue(field));
          expect(compiled.sql).toBe(reference?.sql);
          const sent = value.trim();
          // These characters occur in no statement we write, so finding the value would be a leak.
          if (/[;*é😀ß]/u.test(sent) || sent.includes('\u0000'))
            expect(compiled.sql).not.toContain(sent);
          if (field === 'name') {
            const expected = ['eq', 'neq'].includes(operator) ? sent : escapeLikePattern(sent);
            expect(compiled.params).toEqual([expected]);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('(b) cursor values only ever travel as parameters', () => {
    const sort: QuerySort[] = [{ field: 'name', direction: 'desc' }];
    fc.assert(
      fc.property(hostileValue, hostileValue, (name, id) => {
        const key = decodeCursor(encodeCursor(sort, [name, id]), sort);
        const compiled = dialect.sqlToQuery(keysetPredicate(sort, columns, table.other, key));
        expect(compiled).toEqual({
          sql: '("t"."name", "t"."other") < ($1, $2)',
          params: [name, id],
          typings: ['none', 'none'],
        });
      }),
    );
  });
});

/** A value the parser accepts for the field, to compare statement text against. */
function referenceValue(field: string): string {
  const values: Record<string, string> = {
    name: 'x',
    amount: '1',
    at: '2024-01-01',
    status: 'Paid',
    id: '0190c3a4-7b1e-7c00-8000-00000000000a',
    flag: 'true',
  };
  return values[field] ?? 'x';
}
