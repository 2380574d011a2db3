import Big from 'big.js';
import { currencyDecimalPlaces, type ReminderPlaceholder } from '@ledgerline/contract';
import type { ReminderInvoice } from '../../db/schema-reminders.js';
import { escapeHtml, subjectValue } from '../../platform/mail.js';

export interface ReminderTotal {
  currency: string;
  totalOwed: string;
  lateFees: string;
}

/** `GBP 1,234.50`: the currency's own minor units (design §3). */
export function formatMoney(currency: string, amount: string | Big): string {
  const fixed = new Big(amount).toFixed(currencyDecimalPlaces(currency));
  const [whole, fraction] = fixed.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${currency} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`;
}

/** What each currency's invoices owe (outstanding plus late fees) and their late fees. */
export function totalsOf(invoices: readonly ReminderInvoice[]): ReminderTotal[] {
  const byCurrency = new Map<string, { owed: Big; fees: Big }>();
  for (const invoice of invoices) {
    const sum = byCurrency.get(invoice.currency) ?? { owed: new Big(0), fees: new Big(0) };
    sum.owed = sum.owed.plus(invoice.outstandingAmount).plus(invoice.lateFees);
    sum.fees = sum.fees.plus(invoice.lateFees);
    byCurrency.set(invoice.currency, sum);
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, sum]) => ({
      currency,
      totalOwed: sum.owed.toFixed(4),
      lateFees: sum.fees.toFixed(4),
    }));
}

const joinTotals = (totals: readonly ReminderTotal[], pick: (t: ReminderTotal) => string) =>
  totals.map((total) => formatMoney(total.currency, pick(total))).join(' and ');

const headings = ['Invoice', 'Due', 'Owed', 'Late fees'] as const;

function rowsOf(invoices: readonly ReminderInvoice[]): string[][] {
  return invoices.map((invoice) => [
    invoice.transactionReference,
    invoice.dueDate ?? '',
    formatMoney(invoice.currency, invoice.outstandingAmount),
    formatMoney(invoice.currency, invoice.lateFees),
  ]);
}

/** The invoice table as aligned text (the mail's text part). */
export function invoiceTableText(invoices: readonly ReminderInvoice[]): string {
  const rows = [headings as readonly string[], ...rowsOf(invoices)];
  const widths = headings.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column >= 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function invoiceTableHtml(invoices: readonly ReminderInvoice[]): string {
  const cell = (tag: 'th' | 'td', text: string, right: boolean) =>
    `<${tag} style="padding:4px 8px;text-align:${right ? 'right' : 'left'};border-bottom:1px solid #ddd">${escapeHtml(text)}</${tag}>`;
  return (
    '<table style="border-collapse:collapse">' +
    `<thead><tr>${headings.map((h, i) => cell('th', h, i >= 2)).join('')}</tr></thead>` +
    `<tbody>${rowsOf(invoices)
      .map((row) => `<tr>${row.map((text, i) => cell('td', text, i >= 2)).join('')}</tr>`)
      .join('')}</tbody></table>`
  );
}

export interface ReminderMailInput {
  company: string;
  account: string;
  invoices: readonly ReminderInvoice[];
  totals: readonly ReminderTotal[];
  /** The account's statement link; null when none could be issued (the placeholder is left empty). */
  statementUrl: string | null;
}

/**
 * A step's template filled in: the subject (one line, each value cut as every subject
 * value is), the text part and the HTML part (values escaped, the invoice table a real table).
 * A template without {statementLink} gets the link after its body, so every mail carries it.
 */
export function renderReminder(
  template: { subject: string; body: string },
  input: ReminderMailInput,
): { subject: string; text: string; html: string } {
  const text: Record<ReminderPlaceholder, string> = {
    company: input.company,
    account: input.account,
    invoiceTable: invoiceTableText(input.invoices),
    totalOwed: joinTotals(input.totals, (t) => t.totalOwed),
    lateFees: joinTotals(input.totals, (t) => t.lateFees),
    statementLink: input.statementUrl ?? '',
  };
  const fill = (source: string, values: Record<string, string>) =>
    source.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => values[name] ?? whole);

  const subject = fill(template.subject, {
    ...text,
    company: subjectValue(input.company),
    account: subjectValue(input.account),
    invoiceTable: `${input.invoices.length} invoice${input.invoices.length === 1 ? '' : 's'}`,
  });
  const withLink =
    input.statementUrl && !template.body.includes('{statementLink}')
      ? `${template.body}\n\nView your statement and pay: {statementLink}`
      : template.body;
  const body = fill(withLink, text);

  // HTML: each paragraph of the filled text, the table and the link as elements of their own.
  const marker = '\u0000';
  const html = fill(withLink, {
    ...Object.fromEntries(Object.keys(text).map((name) => [name, `${marker}${name}${marker}`])),
  })
    .split(/\n{2,}/)
    .map((paragraph) => {
      const parts = paragraph.split(marker);
      const inner = parts
        .map((part, index) => {
          if (index % 2 === 0) return escapeHtml(part).replace(/\n/g, '<br>');
          const name = part as ReminderPlaceholder;
          if (name === 'invoiceTable') return invoiceTableHtml(input.invoices);
          if (name === 'statementLink')
            return input.statementUrl
              ? `<a href="${escapeHtml(input.statementUrl)}">${escapeHtml(input.statementUrl)}</a>`
              : '';
          return escapeHtml(text[name]);
        })
        .join('');
      return paragraph.includes(`${marker}invoiceTable${marker}`)
        ? `<div>${inner}</div>`
        : `<p>${inner}</p>`;
    })
    .join('');
  return { subject, text: body, html };
}
