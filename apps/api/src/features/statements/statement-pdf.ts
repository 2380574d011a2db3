import type { StatementPage } from '@ledgerline/contract';

/**
 * The statement as a PDF: one or more A4 pages of text in the standard Helvetica fonts
 * (no embedded font), written by hand (docs/decisions/152-statement-pdfs-are-written-by-hand.md "Statement PDFs are written by hand"):
 * a heading, the company and account, one line per open invoice and the totals.
 */

const pageWidth = 595.28;
const pageHeight = 841.89;
const margin = 50;
const lineHeight = 16;

/** PDF text: WinAnsi (Latin-1) bytes, with the string delimiters escaped; others become '?'. */
function pdfText(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    const latin = code < 256 ? ch : '?';
    out += latin === '\\' || latin === '(' || latin === ')' ? `\\${latin}` : latin;
  }
  return out;
}

interface Line {
  text: string;
  x: number;
  size?: number;
  bold?: boolean;
  /** Right-aligned at x (widths estimated from Helvetica's average digit width). */
  right?: boolean;
}

/** Helvetica's width of text, roughly (digits and most letters are 0.556 em). */
const widthOf = (text: string, size: number) => text.length * size * 0.556;

const amount = (value: number, currency: string) =>
  `${currency} ${value.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function statementPdf(statement: StatementPage): Buffer {
  const rows: Line[][] = [];
  const push = (...line: Line[]) => rows.push(line);
  push({ text: `Statement of account`, x: margin, size: 18, bold: true });
  push({ text: '', x: margin });
  push({ text: statement.company.name, x: margin, bold: true });
  for (const line of statement.company.addressLines) push({ text: line, x: margin });
  if (statement.company.emailAddress) push({ text: statement.company.emailAddress, x: margin });
  push({ text: '', x: margin });
  push({ text: `Account: ${statement.accountName} (${statement.accountReference})`, x: margin });
  push({ text: `Amounts as of ${statement.quotedOn}, with discounts and late fees that apply that day`, x: margin });
  push({ text: '', x: margin });
  const right = pageWidth - margin;
  push(
    { text: 'Invoice', x: margin, bold: true },
    { text: 'Date', x: 170, bold: true },
    { text: 'Due', x: 245, bold: true },
    { text: 'Owed', x: 390, bold: true, right: true },
    { text: 'To pay today', x: right, bold: true, right: true },
  );
  if (statement.invoices.length === 0) push({ text: 'Nothing is open: every invoice is paid.', x: margin });
  for (const invoice of statement.invoices) {
    push(
      { text: invoice.reference.slice(0, 22), x: margin },
      { text: invoice.transactionDate ?? '', x: 170 },
      { text: `${invoice.dueDate ?? ''}${invoice.overdue ? ' overdue' : ''}`, x: 245 },
      { text: amount(invoice.outstandingAmount, invoice.currency), x: 390, right: true },
      { text: amount(invoice.amountToPay, invoice.currency), x: right, right: true },
    );
  }
  push({ text: '', x: margin });
  for (const total of statement.totals)
    push(
      { text: `Total to pay today (${total.currency})`, x: margin, bold: true },
      { text: amount(total.amountToPay, total.currency), x: right, bold: true, right: true },
    );

  const perPage = Math.floor((pageHeight - 2 * margin) / lineHeight);
  const pages: string[] = [];
  for (let start = 0; start < rows.length; start += perPage) {
    const ops: string[] = [];
    rows.slice(start, start + perPage).forEach((line, i) => {
      const y = pageHeight - margin - (i + 1) * lineHeight;
      for (const cell of line) {
        if (cell.text === '') continue;
        const size = cell.size ?? 10;
        const x = cell.right ? cell.x - widthOf(cell.text, size) : cell.x;
        ops.push(`BT /${cell.bold ? 'F2' : 'F1'} ${size} Tf ${x.toFixed(2)} ${y.toFixed(2)} Td (${pdfText(cell.text)}) Tj ET`);
      }
    });
    pages.push(ops.join('\n'));
  }

  // Objects: 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, then (page, contents) pairs.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  pages.forEach((content, i) => {
    const id = pageIds[i]!;
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  let body = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
