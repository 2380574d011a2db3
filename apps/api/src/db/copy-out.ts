import { Transform } from 'node:stream';

/**
 * The text of a query with its parameters written in as literals, for the one statement that
 * cannot take bound parameters: COPY (docs/decisions/015-the-export-is-one-copy.md "The export is one COPY"). Strings are
 * quoted as pg's escapeLiteral does (quotes doubled; with a backslash, an E'' string with
 * backslashes doubled), so the text means the same whatever standard_conforming_strings says.
 */
export function inlineParameters(text: string, params: readonly unknown[]): string {
  let highest = 0;
  const inlined = text.replace(/\$(\d+)/g, (_, digits: string) => {
    const index = Number(digits);
    highest = Math.max(highest, index);
    if (index < 1 || index > params.length) throw new Error(`No value for parameter $${index}.`);
    return literal(params[index - 1]);
  });
  if (highest !== params.length) throw new Error('Every parameter must be used.');
  return inlined;
}

export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('A number parameter must be finite.');
    return `(${String(value)})`;
  }
  if (typeof value === 'bigint') return `(${value.toString()})`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return quote(value.toISOString());
  if (typeof value === 'string') return quote(value);
  throw new Error(`A ${typeof value} cannot be written as a literal.`);
}

function quote(text: string): string {
  if (text.includes('\0')) throw new Error('A text parameter cannot hold a NUL character.');
  const quoted = `'${text.replace(/'/g, "''")}'`;
  return text.includes('\\') ? `E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}

const unescaped: Record<number, number> = {
  0x62: 0x08, // \b
  0x66: 0x0c, // \f
  0x6e: 0x0a, // \n
  0x72: 0x0d, // \r
  0x74: 0x09, // \t
  0x76: 0x0b, // \v
};

/**
 * COPY's text format, one column a row, back into the column's own text with CRLF after each row:
 * COPY writes a backslash before a backslash and as \b \f \n \r \t \v for those control characters,
 * and ends each row with LF. An escape cut in two by a chunk boundary carries over.
 */
export function copyTextToLines(): Transform {
  let escaping = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      // Each LF may become CR LF: at most twice the input.
      const out = Buffer.allocUnsafe(chunk.length * 2);
      let o = 0;
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i]!;
        if (escaping) {
          escaping = false;
          out[o++] = unescaped[c] ?? c;
        } else if (c === 0x5c) {
          escaping = true;
        } else if (c === 0x0a) {
          out[o++] = 0x0d;
          out[o++] = 0x0a;
        } else {
          out[o++] = c;
        }
      }
      done(null, out.subarray(0, o));
    },
    flush(done) {
      done(escaping ? new Error('The COPY data ended inside an escape.') : null);
    },
  });
}
