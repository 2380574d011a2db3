import { fileTypeFromBuffer } from 'file-type';

/**
 * The types a transaction document may have, recognised from its bytes (file-type), never from
 * the name or the browser's claim: an invoice copy, a remittance advice, a signed delivery note.
 */
const allowedMimeTypes: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/tiff',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  // Legacy .doc/.xls (OLE compound file).
  'application/x-cfb',
]);

/** UTF-8 text without NUL bytes: .txt, .csv and the like, which carry no signature to sniff. */
function isPlainText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/** The MIME type to store and serve, or null when the file is not of an allowed type. */
export async function sniffDocumentType(data: Buffer, fileName: string): Promise<string | null> {
  const sniffed = await fileTypeFromBuffer(data);
  if (sniffed) return allowedMimeTypes.has(sniffed.mime) ? sniffed.mime : null;
  if (!isPlainText(data)) return null;
  return /\.csv$/i.test(fileName) ? 'text/csv' : 'text/plain';
}

/** The name as the client sent it, without folders or control characters, bounded. */
export function cleanFileName(name: string, max: number): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code >= 0x20 && code !== 0x7f;
  });
  const clean = printable.join('').trim().slice(0, max);
  return clean === '' ? 'document' : clean;
}

/** RFC 6266 Content-Disposition: PDF shows inline (the viewer), everything else downloads. */
export function contentDisposition(fileName: string, fileType: string): string {
  const kind = fileType === 'application/pdf' ? 'inline' : 'attachment';
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
