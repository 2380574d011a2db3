import { describe, expect, it } from 'vitest';
import { cleanFileName, contentDisposition, sniffDocumentType } from './file-kind.js';

describe('file-kind', () => {
  it('keeps the base name without control characters, bounded, never empty', () => {
    expect(cleanFileName('C:\\Users\\ann\\inv\u0007oice.pdf', 255)).toBe('invoice.pdf');
    expect(cleanFileName('../../etc/passwd', 255)).toBe('passwd');
    expect(cleanFileName('x'.repeat(300), 255)).toHaveLength(255);
    expect(cleanFileName('\u0001', 255)).toBe('document');
  });

  it('shows a PDF inline and downloads the rest, with an RFC 5987 name', () => {
    expect(contentDisposition('Rechnung März.pdf', 'application/pdf')).toBe(
      `inline; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`,
    );
    expect(contentDisposition('a"b.png', 'image/png')).toBe(
      `attachment; filename="a_b.png"; filename*=UTF-8''a%22b.png`,
    );
  });

  it('recognises text without a signature and refuses binary it does not know', async () => {
    expect(await sniffDocumentType(Buffer.from('a,b\n'), 'x.csv')).toBe('text/csv');
    expect(await sniffDocumentType(Buffer.from('hello'), 'x.pdf')).toBe('text/plain');
    expect(await sniffDocumentType(Buffer.from([0, 1, 2, 3, 255]), 'x.bin')).toBeNull();
  });
});
