import { describe, expect, it } from 'vitest';
import { parseExpand } from './parse-expand.js';
import { parseSort } from './parse-sort.js';
import { QueryError } from './query-error.js';
import { defineQueryFields } from './query-fields.js';
import { transactionQuery } from './query-fixture.js';

function errorOf(run: () => unknown): QueryError {
  try {
    run();
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error('parsed without error');
}

describe('parseSort', () => {
  const sort = (text: string | undefined) => parseSort(transactionQuery, text);

  it('falls back to the default sort (spec 2 §9)', () => {
    const fallback = [{ field: 'statusDateTime', direction: 'desc' }];
    expect(sort(undefined)).toEqual(fallback);
    expect(sort('')).toEqual(fallback);
    expect(sort(' , ')).toEqual(fallback);
  });

  it('parses directions and matches names case-insensitively (spec 1 §7)', () => {
    expect(sort('-StatusDateTime')).toEqual([{ field: 'statusDateTime', direction: 'desc' }]);
    expect(sort(' customername , -AMOUNT,reference ')).toEqual([
      { field: 'customerName', direction: 'asc' },
      { field: 'amount', direction: 'desc' },
      { field: 'reference', direction: 'asc' },
    ]);
  });

  it('does not hand out the default sort for callers to mutate', () => {
    sort(undefined)[0]!.direction = 'asc';
    expect(transactionQuery.defaultSort[0]?.direction).toBe('desc');
  });

  it('reports unknown, unsortable, repeated and empty names', () => {
    expect(errorOf(() => sort('-foo'))).toMatchObject({
      parameter: 'sort',
      item: '-foo',
      message: "Unknown sort field 'foo'.",
    });
    expect(errorOf(() => sort('status')).message).toBe("Field 'status' cannot be sorted.");
    expect(errorOf(() => sort('amount,-Amount')).message).toBe(
      "Sort field 'amount' appears more than once.",
    );
    expect(errorOf(() => sort('-')).message).toBe("Unknown sort field ''.");
  });

  it('bounds the number of fields and the text', () => {
    const query = defineQueryFields(
      Object.fromEntries(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => [name, { type: 'string', sortable: true }]),
      ),
      { defaultSort: 'a' },
    );
    expect(parseSort(query, 'a,b,c,d,e')).toHaveLength(5);
    expect(errorOf(() => parseSort(query, 'a,b,c,d,e,f')).message).toBe(
      'At most 5 sort fields are allowed; the sort has 6.',
    );
    expect(errorOf(() => sort('a'.repeat(501))).message).toBe(
      'The sort is longer than 500 characters.',
    );
  });
});

describe('parseExpand', () => {
  const expand = (text: string | undefined) => parseExpand(transactionQuery, text);

  it('returns the canonical lower-case names once each', () => {
    expect(expand(undefined)).toEqual([]);
    expect(expand(' ,')).toEqual([]);
    expect(expand('paymentrequest')).toEqual(['paymentrequest']);
    expect(expand('PaymentRequest, account,paymentrequest')).toEqual(['paymentrequest', 'account']);
  });

  it('reports unknown names with the allowed ones', () => {
    expect(errorOf(() => expand('paymentrequest,payer'))).toMatchObject({
      parameter: 'expand',
      item: 'payer',
      message: "Unknown expand 'payer'. Use paymentrequest, account.",
    });
    const plain = defineQueryFields(
      { name: { type: 'string', sortable: true } },
      { defaultSort: 'name' },
    );
    expect(errorOf(() => parseExpand(plain, 'x')).message).toBe(
      "Unknown expand 'x'. This list has nothing to expand.",
    );
    expect(errorOf(() => expand('a'.repeat(501))).message).toBe(
      'The expand list is longer than 500 characters.',
    );
  });
});

describe('defineQueryFields', () => {
  it('refuses whitelists the parser could not serve', () => {
    expect(() =>
      defineQueryFields({ 'bad name': { type: 'string' } }, { defaultSort: [] }),
    ).toThrow("Query field name 'bad name' is not a plain identifier.");
    expect(() =>
      defineQueryFields(
        { name: { type: 'string' }, Name: { type: 'string' } },
        { defaultSort: [] },
      ),
    ).toThrow("Query field 'Name' is declared twice.");
    // @ts-expect-error the type system already refuses an unsortable default sort
    expect(() => defineQueryFields({ name: { type: 'string' } }, { defaultSort: 'name' })).toThrow(
      "Default sort field 'name' is not sortable.",
    );
    expect(() =>
      defineQueryFields(
        { name: { type: 'string', sortable: true } },
        { defaultSort: 'name', expand: ['Payer'] },
      ),
    ).toThrow("Expand name 'Payer' must be lower case.");
  });

  it('accepts a list of default sort fields', () => {
    const query = defineQueryFields(
      { date: { type: 'date', sortable: true }, reference: { type: 'string', sortable: true } },
      { defaultSort: ['-date', 'reference'] },
    );
    expect(query.defaultSort).toEqual([
      { field: 'date', direction: 'desc' },
      { field: 'reference', direction: 'asc' },
    ]);
  });
});
