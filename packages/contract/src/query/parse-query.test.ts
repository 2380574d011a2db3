import { describe, expect, it } from 'vitest';
import { parseCursorQuery, parsePageQuery, queryMessages, searchAmount } from './parse-query.js';
import { defineQueryFields } from './query-fields.js';
import { QueryError } from './query-error.js';
import { transactionQuery } from './query-fixture.js';
import { cursorQuerySchema, pageQuerySchema } from './query-schemas.js';

function errorOf(run: () => unknown): QueryError {
  try {
    run();
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error('parsed without error');
}

describe('parsePageQuery', () => {
  it('applies the defaults of design §3', () => {
    expect(parsePageQuery(transactionQuery, {})).toEqual({
      page: 1,
      itemsPerPage: 10,
      sort: [{ field: 'statusDateTime', direction: 'desc' }],
      filters: [],
      expand: [],
    });
  });

  it('parses the dashboard call of spec 1 §7', () => {
    const query = parsePageQuery(transactionQuery, {
      page: '1',
      itemsPerPage: '8',
      sort: '-StatusDateTime',
      filter: 'Status eq Paid',
      expand: 'paymentrequest',
    });
    expect(query).toEqual({
      page: 1,
      itemsPerPage: 8,
      sort: [{ field: 'statusDateTime', direction: 'desc' }],
      filters: [{ field: 'status', type: 'enum', operator: 'eq', value: 'Paid' }],
      expand: ['paymentrequest'],
    });
  });

  it('bounds page and itemsPerPage', () => {
    expect(parsePageQuery(transactionQuery, { page: 10, itemsPerPage: '1000' })).toMatchObject({
      page: 10,
      itemsPerPage: 1000,
    });
    for (const page of ['0', '-1', '1.5', 'abc', '', '1000001']) {
      expect(errorOf(() => parsePageQuery(transactionQuery, { page }))).toEqual(
        new QueryError({
          parameter: 'page',
          item: page,
          message: 'Page must be a whole number from 1 to 1000000.',
        }),
      );
    }
    for (const itemsPerPage of ['0', '1001', 'ten', 2.5]) {
      expect(errorOf(() => parsePageQuery(transactionQuery, { itemsPerPage }))).toMatchObject({
        parameter: 'itemsPerPage',
        item: String(itemsPerPage),
        message: 'Items per page must be a whole number from 1 to 1000.',
      });
    }
  });

  it('reaches the first 10,000 rows by offset and no deeper (the OFFSET scan stays bounded)', () => {
    expect(parsePageQuery(transactionQuery, { page: 1000 })).toMatchObject({
      page: 1000,
      itemsPerPage: 10,
    });
    expect(parsePageQuery(transactionQuery, { page: 400, itemsPerPage: 25 })).toMatchObject({
      page: 400,
    });
    expect(parsePageQuery(transactionQuery, { page: 667, itemsPerPage: 15 })).toMatchObject({
      page: 667,
    });
    expect(errorOf(() => parsePageQuery(transactionQuery, { page: '1001' }))).toEqual(
      new QueryError({
        parameter: 'page',
        item: '1001',
        message:
          'Pages reach the first 10,000 rows of a list: at 10 a page, page 1000 is the last. Filter the list or sort it the other way to see the rows beyond.',
      }),
    );
    expect(
      errorOf(() => parsePageQuery(transactionQuery, { page: 1_000_000, itemsPerPage: 1000 })),
    ).toMatchObject({
      parameter: 'page',
      message: expect.stringContaining('at 1000 a page, page 10 is the last'),
    });
    expect(
      errorOf(() => parsePageQuery(transactionQuery, { page: 668, itemsPerPage: 15 })),
    ).toMatchObject({ parameter: 'page' });
  });

  it('gives the problem document its errors member', () => {
    const error = errorOf(() => parsePageQuery(transactionQuery, { filter: 'foo eq 1' }));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('QueryError');
    expect(error.toErrors()).toEqual({ filter: ["Unknown filter field 'foo' in 'foo eq 1'."] });
  });

  it('accepts the output of pageQuerySchema', () => {
    const params = pageQuerySchema.parse({
      page: '3',
      sort: 'customerName',
      filter: 'amount gt 5',
    });
    expect(params).toEqual({
      page: 3,
      itemsPerPage: 10,
      sort: 'customerName',
      filter: 'amount gt 5',
    });
    expect(parsePageQuery(transactionQuery, params)).toMatchObject({
      page: 3,
      filters: [{ value: '5' }],
    });
  });
});

describe('parseCursorQuery', () => {
  it('keeps the cursor opaque and orders by the default sort', () => {
    expect(
      parseCursorQuery(transactionQuery, { cursor: ' eyJhIjoxfQ ', filter: 'amount gt 1' }),
    ).toEqual({
      cursor: 'eyJhIjoxfQ',
      itemsPerPage: 10,
      sort: [{ field: 'statusDateTime', direction: 'desc' }],
      filters: [{ field: 'amount', type: 'number', operator: 'gt', value: '1' }],
    });
    expect(parseCursorQuery(transactionQuery, { cursor: '' }).cursor).toBeUndefined();
  });

  it('refuses a cursor that cannot be one of ours', () => {
    for (const cursor of ['a b', 'abc=', '<script>', 'x'.repeat(4001)]) {
      expect(errorOf(() => parseCursorQuery(transactionQuery, { cursor }))).toMatchObject({
        parameter: 'cursor',
        message: "The cursor is not valid; send the 'next' value of the previous page unchanged.",
      });
    }
  });
});

describe('query schemas', () => {
  it('coerce and range page and itemsPerPage with the parser messages', () => {
    expect(pageQuerySchema.parse({})).toEqual({ page: 1, itemsPerPage: 10 });
    const result = pageQuerySchema.safeParse({ page: '0', itemsPerPage: '5000' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['page', 'Page must be a whole number from 1 to 1000000.'],
      ['itemsPerPage', 'Items per page must be a whole number from 1 to 1000.'],
    ]);
    expect(pageQuerySchema.safeParse({ filter: 'x'.repeat(12_001) }).success).toBe(false);
  });

  it('bound the cursor', () => {
    expect(cursorQuerySchema.parse({ cursor: 'abc', itemsPerPage: '20' })).toEqual({
      cursor: 'abc',
      itemsPerPage: 20,
    });
    expect(cursorQuerySchema.safeParse({ cursor: 'x'.repeat(4001) }).success).toBe(false);
  });
});

describe('search', () => {
  const searchable = defineQueryFields(
    {
      reference: { type: 'string', sortable: true, filterable: true },
      amount: { type: 'number', filterable: true },
    },
    { defaultSort: 'reference', search: { text: ['reference'], amount: 'amount' } },
  );

  it.each([
    ['1250.5', '1250.5'],
    ['£1,250.50', '1250.50'],
    ['GBP 1250', '1250'],
    ['1250 EUR', '1250'],
    ['-20', '-20'],
    ['INV123', undefined],
    ['1,25', undefined],
    ['12.34567', undefined],
    ['Acme', undefined],
  ])('reads %s as the amount %s', (text, amount) => {
    expect(searchAmount(text)).toBe(amount);
  });

  it('trims the words, drops empty ones and adds the amount arm only when they read as one', () => {
    expect(parsePageQuery(searchable, { search: '   ' }).search).toBeUndefined();
    expect(parsePageQuery(searchable, { search: ' INV1 ' }).search).toEqual({
      text: 'INV1',
      fields: ['reference'],
    });
    expect(parsePageQuery(searchable, { search: '£20' }).search).toEqual({
      text: '£20',
      fields: ['reference'],
      amount: { field: 'amount', value: '20' },
    });
  });

  it('refuses a search that is too long, or on a list without one, naming the parameter', () => {
    const long = errorOf(() => parsePageQuery(searchable, { search: 'x'.repeat(101) }));
    expect(long.toErrors()).toEqual({ search: [queryMessages.searchTooLong] });
    const none = errorOf(() => parsePageQuery(transactionQuery, { search: 'x' }));
    expect(none.toErrors()).toEqual({ search: [queryMessages.noSearch] });
  });

  it('refuses search fields that are not filterable strings or numbers', () => {
    expect(() =>
      defineQueryFields(
        { amount: { type: 'number', filterable: true } },
        { defaultSort: [], search: { text: ['amount'] } },
      ),
    ).toThrow("Search field 'amount' is not a filterable string.");
  });
});
