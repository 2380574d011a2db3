import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCsvField, parseCsv } from './csv.js';

/** The reader as it was before it sliced fields: the reference it must match. */
function characterAtATime(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    field = '';
    fieldStarted = false;
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
      fieldStarted = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') i++;
      endRow();
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (field !== '' || row.length > 0 || quoted) endRow();
  return rows;
}

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, CRLF and LF, and drops a byte-order mark and blank lines', () => {
    const text = '\ufeffId,Name\r\n1,"Smith, ""Bob"""\n\n2,"two\r\nlines"\r\n3,\r\n';
    expect(parseCsv(text)).toEqual([['Id', 'Name'], ['1', 'Smith, "Bob"'], ['2', 'two\r\nlines'], ['3', '']]);
  });

  it('keeps a last line without a line break', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('reads any text as the character-at-a-time reader did', () => {
    const unit = fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', '\ufeff');
    fc.assert(
      fc.property(fc.string({ unit }), (text) => {
        expect(parseCsv(text)).toEqual(characterAtATime(text));
      }),
      { numRuns: 2000 },
    );
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
