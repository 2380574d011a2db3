import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { copyTextToLines, inlineParameters, literal } from './copy-out.js';

describe('inlineParameters', () => {
  it('writes each parameter as a literal in its place, $10 not read as $1', () => {
    const params: unknown[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 'ten'];
    expect(inlineParameters('select $10, $1, $2, $3, $4, $5, $6, $7, $8, $9', params)).toBe(
      "select 'ten', (1), (2), (3), (4), (5), (6), (7), (8), (9)",
    );
    expect(() => inlineParameters('select $1', [1, 2])).toThrow('Every parameter must be used.');
  });

  it('quotes text so that no value can end its literal', () => {
    expect(literal("O'Brien")).toBe("'O''Brien'");
    expect(literal('back\\slash')).toBe("E'back\\\\slash'");
    expect(literal("'; drop table x; --")).toBe("'''; drop table x; --'");
    expect(literal(null)).toBe('null');
    expect(literal(-2.5)).toBe('(-2.5)');
    expect(literal(new Date('2026-01-02T03:04:05.006Z'))).toBe("'2026-01-02T03:04:05.006Z'");
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal('nul\0')).toThrow();
    expect(() => literal({})).toThrow();
    expect(() => inlineParameters('select $2', ['a'])).toThrow('No value for parameter $2.');
  });
});

/** What COPY's text format writes for a row of one text column. */
function copyText(value: string): string {
  const escapes: Record<string, string> = {
    '\\': '\\\\',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
  };
  return `${value.replace(/[\\\b\f\n\r\t\v]/g, (c) => escapes[c]!)}\n`;
}

async function throughLines(chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(copyTextToLines()))
    out.push(chunk as Buffer);
  return Buffer.concat(out).toString('utf8');
}

describe('copyTextToLines', () => {
  it('gives back each row’s text with CRLF after it, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({
            unit: fc.constantFrom(
              'a',
              ',',
              '"',
              '\\',
              '\n',
              '\r',
              '\t',
              '\b',
              '\f',
              '\v',
              'é',
              '€',
              '😀',
            ),
          }),
          { maxLength: 6 },
        ),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (rows, cuts) => {
          const bytes = Buffer.from(rows.map(copyText).join(''), 'utf8');
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          const chunks = [0, ...points]
            .map((start, i) => bytes.subarray(start, points[i] ?? bytes.length))
            .filter((c) => c.length > 0);
          expect(await throughLines(chunks)).toBe(rows.map((row) => `${row}\r\n`).join(''));
        },
      ),
    );
  });

  it('fails when the data ends inside an escape', async () => {
    await expect(throughLines([Buffer.from('abc\\')])).rejects.toThrow(
      'The COPY data ended inside an escape.',
    );
  });
});
