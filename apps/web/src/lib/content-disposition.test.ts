import { describe, expect, it } from 'vitest';
import { fileNameOfContentDisposition } from './content-disposition';

// Spec 2 §7: "file name from the content-disposition header, default document.pdf".
describe('the file name of a Content-Disposition header', () => {
  it('reads a quoted filename', () => {
    expect(fileNameOfContentDisposition('attachment; filename="delivery note.pdf"')).toBe(
      'delivery note.pdf',
    );
  });

  it('reads a token filename and unescapes a quoted one', () => {
    expect(fileNameOfContentDisposition('attachment; filename=report.csv')).toBe('report.csv');
    expect(fileNameOfContentDisposition('inline; filename="say \\"hi\\".pdf"')).toBe(
      'say "hi".pdf',
    );
  });

  it('prefers the RFC 5987 filename* over filename, in either order', () => {
    expect(
      fileNameOfContentDisposition(
        `inline; filename="na_ve.pdf"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.pdf`,
      ),
    ).toBe('naïve résumé.pdf');
    expect(
      fileNameOfContentDisposition(
        `attachment; FILENAME*=utf-8'en'%E2%82%AC%20rates.txt; filename="EUR rates.txt"`,
      ),
    ).toBe('€ rates.txt');
  });

  it('reads an ISO-8859-1 filename*', () => {
    expect(fileNameOfContentDisposition(`attachment; filename*=iso-8859-1''%A3%20rates.txt`)).toBe(
      '£ rates.txt',
    );
  });

  it('falls back to filename when filename* cannot be read', () => {
    expect(
      fileNameOfContentDisposition(`attachment; filename*=UTF-8''bad%E2.pdf; filename="plain.pdf"`),
    ).toBe('plain.pdf');
  });

  it('keeps only the last part of a name with folders', () => {
    expect(fileNameOfContentDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameOfContentDisposition('attachment; filename="C:\\\\temp\\\\x.pdf"')).toBe(
      'x.pdf',
    );
  });

  it('answers null when the header names no file', () => {
    expect(fileNameOfContentDisposition(null)).toBeNull();
    expect(fileNameOfContentDisposition('inline')).toBeNull();
    expect(fileNameOfContentDisposition('attachment; filename=""')).toBeNull();
  });
});
