import { describe, expect, it } from 'vitest';
import { parseFilter } from './parse-filter.js';
import { QueryError } from './query-error.js';
import { transactionQuery } from './query-fixture.js';

const parse = (text: string | undefined) => parseFilter(transactionQuery, text);

/** The QueryError thrown by parsing `text`. */
function errorOf(text: string): QueryError {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`'${text}' parsed without error`);
}

describe('parseFilter', () => {
  it('returns no filters for a missing, empty or blank filter', () => {
    expect(parse(undefined)).toEqual([]);
    expect(parse('')).toEqual([]);
    expect(parse(' , ,  ')).toEqual([]);
  });

  it('parses the dashboard filter with canonical field and enum casing (spec 1 §7)', () => {
    expect(parse('Status eq Paid')).toEqual([
      { field: 'status', type: 'enum', operator: 'eq', value: 'Paid' },
    ]);
    expect(parse('STATUS NEQ waitingtobeallocated')).toEqual([
      { field: 'status', type: 'enum', operator: 'neq', value: 'WaitingToBeAllocated' },
    ]);
  });

  it('takes everything after the operator, trimmed, as the value', () => {
    expect(parse('  customerName   ct   Acme  Ltd  ')).toEqual([
      { field: 'customerName', type: 'string', operator: 'ct', value: 'Acme  Ltd' },
    ]);
    expect(parse('customerName\teq\tx y')[0]?.value).toBe('x y');
  });

  it('accepts every string operator', () => {
    for (const operator of ['ct', 'nct', 'sw', 'ew', 'eq', 'neq'] as const) {
      expect(parse(`customerName ${operator} Acme`)).toEqual([
        { field: 'customerName', type: 'string', operator, value: 'Acme' },
      ]);
    }
  });

  it('accepts every number operator and keeps the number as its decimal text', () => {
    for (const operator of ['eq', 'neq', 'gt', 'ge', 'lt', 'le'] as const) {
      expect(parse(`amount ${operator} -1234.5678`)).toEqual([
        { field: 'amount', type: 'number', operator, value: '-1234.5678' },
      ]);
    }
    expect(parse('amount eq 999999999999999.9999')[0]?.value).toBe('999999999999999.9999');
  });

  it('rejects numbers with exponents, too many decimals or stray characters', () => {
    for (const bad of [
      'abc',
      '1e5',
      '1.23456',
      '1.',
      '.5',
      '+1',
      '1,5',
      '0x10',
      '1 000',
      '1234567890123456',
    ]) {
      const text = `amount eq ${bad.replace(',', '\\,')}`;
      expect(errorOf(text).message).toContain(`'${bad}' is not a valid number for 'amount'.`);
    }
  });

  it('parses dates as whole UTC days and date-times as instants', () => {
    expect(parse('statusDateTime eq 2024-02-29')).toEqual([
      {
        field: 'statusDateTime',
        type: 'date',
        operator: 'eq',
        value: new Date('2024-02-29T00:00:00.000Z'),
        wholeDay: true,
      },
    ]);
    const cases: [string, string][] = [
      ['2024-01-31T13:45:00Z', '2024-01-31T13:45:00.000Z'],
      ['2024-01-31T13:45', '2024-01-31T13:45:00.000Z'],
      ['2024-01-31 13:45:07.5', '2024-01-31T13:45:07.500Z'],
      ['2024-01-31T13:45:07.123+01:00', '2024-01-31T12:45:07.123Z'],
      ['2024-01-31t00:30:00-0230', '2024-01-31T03:00:00.000Z'],
      ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ];
    for (const [text, iso] of cases) {
      const [filter] = parse(`statusDateTime ge ${text}`);
      expect(filter).toMatchObject({ operator: 'ge', wholeDay: false });
      expect((filter?.value as Date).toISOString()).toBe(iso);
    }
  });

  it('rejects dates that are not real or not ISO 8601', () => {
    for (const bad of [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-1-1',
      '31/01/2024',
      '2024-01-31T24:00',
      '2024-01-31T10:60',
      '2024-01-31T10:00:00.1234Z',
      '2024-01-31T10:00+24:00',
      '0000-01-01',
      '0001-01-01T00:00+01:00',
      'yesterday',
    ]) {
      expect(errorOf(`statusDateTime lt ${bad}`).message).toContain(
        `'${bad}' is not a valid date for 'statusDateTime'.`,
      );
    }
  });

  it('parses uuid and boolean values', () => {
    const id = '0190C3A4-7B1E-7C00-8000-00000000000A';
    expect(parse(`id eq ${id}`)).toEqual([
      { field: 'id', type: 'uuid', operator: 'eq', value: id.toLowerCase() },
    ]);
    expect(parse('isTest eq TRUE, istest neq false')).toEqual([
      { field: 'isTest', type: 'boolean', operator: 'eq', value: true },
      { field: 'isTest', type: 'boolean', operator: 'neq', value: false },
    ]);
    expect(errorOf('id eq 123').message).toContain("'123' is not a valid id for 'id'.");
    expect(errorOf('isTest eq yes').message).toBe(
      "'yes' is not a valid boolean for 'isTest'. Use true or false.",
    );
    expect(errorOf('status eq Lost').message).toBe(
      "'Lost' is not a valid value for 'status'. Use one of Paid, Failed, Pending, WaitingToBeAllocated.",
    );
  });

  it('keeps several items, including repeats of one field, as a conjunction', () => {
    expect(parse('amount ge 10,amount le 20 , status eq paid')).toEqual([
      { field: 'amount', type: 'number', operator: 'ge', value: '10' },
      { field: 'amount', type: 'number', operator: 'le', value: '20' },
      { field: 'status', type: 'enum', operator: 'eq', value: 'Paid' },
    ]);
  });

  it('reads \\, as a comma and \\\\ as a backslash inside a value', () => {
    expect(parse('customerName eq Acme\\, Ltd,customerName ct C:\\\\temp\\\\,amount eq 1')).toEqual(
      [
        { field: 'customerName', type: 'string', operator: 'eq', value: 'Acme, Ltd' },
        { field: 'customerName', type: 'string', operator: 'ct', value: 'C:\\temp\\' },
        { field: 'amount', type: 'number', operator: 'eq', value: '1' },
      ],
    );
  });

  it('names the escape rule when a backslash escapes anything else', () => {
    const error = errorOf('customerName eq a\\b');
    expect(error).toMatchObject({ parameter: 'filter', item: 'customerName eq a\\b' });
    expect(error.message).toBe(
      "Invalid backslash in 'customerName eq a\\b': write a comma inside a value as '\\,' and a backslash as '\\\\'.",
    );
    expect(errorOf('customerName eq trailing\\').message).toContain('Invalid backslash');
  });

  it('reports each kind of mistake with the offending item', () => {
    expect(errorOf('foo eq 1')).toMatchObject({
      parameter: 'filter',
      item: 'foo eq 1',
      message: "Unknown filter field 'foo' in 'foo eq 1'.",
    });
    expect(errorOf('amount ct 1').message).toBe(
      "Operator 'ct' is not allowed for number field 'amount'. Use one of eq, neq, gt, ge, lt, le.",
    );
    expect(errorOf('status gt Paid').message).toContain(
      "Operator 'gt' is not allowed for enum field 'status'.",
    );
    expect(errorOf('amount ~ 1').message).toBe(
      "Unknown operator '~' in 'amount ~ 1'. Operators are ct, nct, sw, ew, eq, neq, gt, ge, lt, le.",
    );
    expect(errorOf('reference eq X').message).toBe(
      "Field 'reference' cannot be filtered (in 'reference eq X').",
    );
    expect(errorOf('amount').message).toBe(
      "Filter item 'amount' must be written as 'field operator value'.",
    );
    expect(errorOf('amount eq').message).toBe("Filter item 'amount eq' has no value.");
    expect(errorOf('status eq Paid, amount eq   ')).toMatchObject({ item: 'amount eq' });
  });

  it('bounds the number of items, the value length and the whole text', () => {
    const items = (count: number) => Array.from({ length: count }, () => 'amount gt 1').join(',');
    expect(parse(items(20))).toHaveLength(20);
    expect(errorOf(items(21)).message).toBe(
      'At most 20 filter items are allowed; the filter has 21.',
    );

    expect(parse(`customerName eq ${'x'.repeat(500)}`)[0]?.value).toHaveLength(500);
    // The limit is on the value itself: 250 escaped commas are 250 characters.
    expect(parse(`customerName eq ${'\\,'.repeat(250)}`)[0]?.value).toBe(','.repeat(250));
    const long = errorOf(`customerName eq ${'x'.repeat(501)}`);
    expect(long.message).toMatch(
      /^The value in 'customerName eq x+…' is longer than 500 characters\.$/,
    );
    expect(long.item.length).toBeLessThan(70);

    expect(errorOf('x'.repeat(12_001)).message).toBe('The filter is longer than 12000 characters.');
  });
});
