import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCsvField, parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, CRLF and LF, and drops a byte-order mark and blank lines', () => {
    const text = '\ufeffId,Name\r\n1,"Smith, ""Bob"""\n\n2,"two\r\nlines"\r\n3,\r\n';
    expect(parseCsv(text)).toEqual([['Id', 'Name'], ['1', 'Smith, "Bob"'], ['2', 'two\r\nlines'], ['3', '']]);
  });

  it('keeps a last line without a line break', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('gives back any table it formatted', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', 'é') });
    // A row of one empty field is a blank line, which the reader skips by design.
    const row = fc.array(field, { minLength: 1, maxLength: 5 }).filter((r) => r.length > 1 || r[0] !== '');
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows) => {
        const text = rows.map((r) => r.map(formatCsvField).join(',')).join('\r\n');
        expect(parseCsv(text)).toEqual(rows);
      }),
    );
  });
});
