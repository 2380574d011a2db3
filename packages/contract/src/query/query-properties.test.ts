import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeFilterValue, splitFilterItems, unescapeFilterValue } from './filter-escape.js';
import { filterOperatorsByType } from './filter-operators.js';
import { formatFilter, formatFilterItem } from './format-query.js';
import { parseFilter } from './parse-filter.js';
import { parseCursorQuery, parsePageQuery } from './parse-query.js';
import { QueryError } from './query-error.js';
import { transactionQuery } from './query-fixture.js';
import type { QueryFilter } from './query-types.js';

/** Text a client could send: plain strings, plus ones built from the language's own pieces. */
const queryText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc
    .array(
      fc.constantFrom(
        'status',
        'Amount',
        'STATUSDATETIME',
        'customerName',
        'id',
        'isTest',
        'reference',
        'foo',
        'eq',
        'NEQ',
        'ct',
        'gt',
        'le',
        'sw',
        'x',
        ' ',
        '  ',
        ',',
        '-',
        '\\',
        '\\,',
        '\\\\',
        '%',
        '_',
        '2024-02-29',
        '2024-01-31T13:45:00Z',
        '1.5',
        '-0',
        'true',
        'Paid',
        'paymentrequest',
        '1e3',
        '0190c3a4-7b1e-7c00-8000-00000000000a',
        '\u00a0',
        '\n',
        'é',
        '😀',
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join('')),
);

const pageText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
  fc.double().map(String),
);

describe('query parsing properties', () => {
  it('(a) returns a result or throws QueryError, never anything else', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            page: pageText,
            itemsPerPage: pageText,
            sort: queryText,
            filter: queryText,
            expand: queryText,
          },
          { requiredKeys: [] },
        ),
        fc.option(queryText, { nil: undefined }),
        (input, cursor) => {
          for (const parse of [
            () => parsePageQuery(transactionQuery, input),
            () => parseCursorQuery(transactionQuery, { ...input, cursor }),
          ]) {
            try {
              parse();
            } catch (error) {
              if (!(error instanceof QueryError)) throw error;
              expect(error.message.length).toBeGreaterThan(0);
            }
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('escapes so that any value survives splitting and unescaping', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 5 }),
        (values) => {
          const items = splitFilterItems(values.map(escapeFilterValue).join(','));
          expect(items.map(unescapeFilterValue)).toEqual(values);
        },
      ),
    );
  });

  it('(c) parses a formatted valid filter back to the same field, operator and value', () => {
    fc.assert(
      fc.property(fc.array(validFilter, { minLength: 1, maxLength: 20 }), (filters) => {
        expect(parseFilter(transactionQuery, formatFilter(filters))).toEqual(filters);
        for (const filter of filters) {
          const withOddCase = formatFilterItem({ ...filter, field: filter.field.toUpperCase() });
          expect(parseFilter(transactionQuery, withOddCase)).toEqual([filter]);
        }
      }),
    );
  });
});

const stringValue = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 120 })
  .map((text) => text.trim())
  .filter((text) => text !== '');

const validFilter: fc.Arbitrary<QueryFilter> = fc.oneof(
  fc.record({
    field: fc.constant('customerName'),
    type: fc.constant('string' as const),
    operator: fc.constantFrom(...filterOperatorsByType.string),
    value: stringValue,
  }),
  fc.record({
    field: fc.constant('amount'),
    type: fc.constant('number' as const),
    operator: fc.constantFrom(...filterOperatorsByType.number),
    value: fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        fc.option(fc.stringMatching(/^\d{1,4}$/)),
      )
      .map(
        ([negative, whole, decimals]) =>
          `${negative ? '-' : ''}${whole}${decimals === null ? '' : `.${decimals}`}`,
      ),
  }),
  fc
    .record({
      operator: fc.constantFrom(...filterOperatorsByType.date),
      time: fc.date({
        min: new Date('0001-01-01T00:00:00Z'),
        max: new Date('9999-12-31T23:59:59.999Z'),
        noInvalidDate: true,
      }),
      wholeDay: fc.boolean(),
    })
    .map(({ operator, time, wholeDay }) => ({
      field: 'statusDateTime',
      type: 'date' as const,
      operator,
      value: wholeDay ? new Date(time.toISOString().slice(0, 10)) : time,
      wholeDay,
    })),
  fc.record({
    field: fc.constant('status'),
    type: fc.constant('enum' as const),
    operator: fc.constantFrom('eq' as const, 'neq' as const),
    value: fc.constantFrom('Paid', 'Failed', 'Pending', 'WaitingToBeAllocated'),
  }),
  fc.record({
    field: fc.constant('id'),
    type: fc.constant('uuid' as const),
    operator: fc.constantFrom('eq' as const, 'neq' as const),
    value: fc.uuid(),
  }),
  fc.record({
    field: fc.constant('isTest'),
    type: fc.constant('boolean' as const),
    operator: fc.constantFrom('eq' as const, 'neq' as const),
    value: fc.boolean(),
  }),
);
