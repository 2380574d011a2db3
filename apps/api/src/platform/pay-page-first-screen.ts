import type { PayCompany, PayInvoice, PayPage, PayPageAnswer } from '@ledgerline/contract';
import { escapeHtml } from './html.js';

/**
 * What to pay is in the payer page's first HTML, readable before any JavaScript runs
 * (docs/decisions/166-the-payer-page-runs-on-preact.md "The payer page runs on Preact"). For a
 * request open to payment (Open, PartCompleted), `GET /pay/{id}` writes into the built pay.html
 * the page's first screen, in the markup the app renders for it (apps/web/src/pay/pay-app.tsx
 * Layout and StateContent, components/request-summary.tsx, company-contact.tsx, receipt.tsx:
 * change them together), and the answer the app would ask `/api/v0/pay/{id}` for, which it takes
 * instead of asking (pay/main.tsx). The app then renders over the same elements: nothing moves,
 * bar the Pay form, which comes with the JavaScript. Every text is escaped; the answer is JSON
 * with `<` written `\u003c`, so no text of it can close its script element.
 */

/** The id of the script element that carries the answer (apps/web/src/pay/main.tsx, boot.js). */
export const firstAnswerElementId = 'pay-first-answer';

// The page's own formats (apps/web/src/pay/format.ts): en-GB, money in the request's currency.
const moneyFormats = new Map<string, Intl.NumberFormat>();
const plainAmount = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2 });
const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
// The page shows an instant in the payer's time zone, which the server does not know: UTC here,
// which the app's render puts right (one line's words, not its height).
const longDateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
});

function formatMoney(amount: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
    } catch {
      return `${plainAmount.format(amount)} ${currency}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

function formatDate(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : longDate.format(date);
}

function formatDateTime(isoDateTime: string): string {
  const date = new Date(isoDateTime);
  return Number.isNaN(date.getTime()) ? isoDateTime : longDateTime.format(date);
}

/** A `<dt>`/`<dd>` pair, both escaped. */
const pair = (term: string, value: string, className?: string) => {
  const classes = className ? ` class="${className}"` : '';
  return `<dt${classes}>${escapeHtml(term)}</dt><dd${classes}>${escapeHtml(value)}</dd>`;
};

function invoiceItem(invoice: PayInvoice, currency: string): string {
  const money = (amount: number) => escapeHtml(formatMoney(amount, currency));
  const fees = invoice.fees
    .map(
      (fee) => `<dt>${escapeHtml(fee.description)}</dt><dd class="fee">+${money(fee.amount)}</dd>`,
    )
    .join('');
  return [
    '<li class="invoice">',
    `<h3 class="invoice-title">Invoice ${escapeHtml(invoice.reference)}</h3>`,
    invoice.description ? `<p class="muted">${escapeHtml(invoice.description)}</p>` : '',
    '<dl class="pairs">',
    invoice.dueDate ? pair('Due', formatDate(invoice.dueDate)) : '',
    pair('Outstanding', formatMoney(invoice.outstandingAmount, currency)),
    invoice.discount > 0
      ? `<dt>Early-payment discount if paid today</dt><dd class="saving">−${money(invoice.discount)}</dd>`
      : '',
    fees,
    pair('To pay for this invoice', formatMoney(invoice.amountToPay, currency), 'strong'),
    '</dl>',
    invoice.discount > 0 && invoice.offer?.validUntil
      ? `<p class="note saving-note">${escapeHtml(
          `Pay by ${formatDate(invoice.offer.validUntil)} to keep the discount of ${formatMoney(invoice.discount, currency)}` +
            `${invoice.offer.description ? ` (${invoice.offer.description})` : ''}.`,
        )}</p>`
      : '',
    invoice.feesReason ? `<p class="note fee-note">${escapeHtml(invoice.feesReason)}</p>` : '',
    '</li>',
  ].join('');
}

/** components/request-summary.tsx RequestSummary. */
function requestSummary(page: PayPage): string {
  const money = (amount: number) => escapeHtml(formatMoney(amount, page.currency));
  return [
    '<section class="card" aria-labelledby="summary-heading">',
    '<h2 id="summary-heading">What you are paying</h2>',
    '<dl class="pairs">',
    page.customerName ? pair('For', page.customerName) : '',
    page.description ? pair('Description', page.description) : '',
    page.reference ? pair('Reference', page.reference) : '',
    page.validUntil ? pair('Link valid until', formatDateTime(page.validUntil)) : '',
    page.paymentRequiredBy ? pair('Pay by', formatDate(page.paymentRequiredBy)) : '',
    '</dl>',
    page.invoices.length > 0
      ? `<ul class="invoices" aria-label="Invoices">${page.invoices
          .map((invoice) => invoiceItem(invoice, page.currency))
          .join('')}</ul>`
      : '',
    '<dl class="pairs totals">',
    page.discountTotal > 0
      ? `<dt>Early-payment discount</dt><dd class="saving">−${money(page.discountTotal)}</dd>`
      : '',
    page.feeTotal > 0
      ? `<dt>Late-payment fees</dt><dd class="fee">+${money(page.feeTotal)}</dd>`
      : '',
    page.paidAmount > 0 ? `<dt>Already paid</dt><dd>${money(page.paidAmount)}</dd>` : '',
    pair(
      page.paidAmount > 0 ? 'Left to pay' : 'Total to pay',
      formatMoney(page.amountToPay, page.currency),
      'total',
    ),
    '</dl>',
    `<p class="muted small">Amounts as of ${escapeHtml(formatDate(page.quotedOn))}.</p>`,
    '</section>',
  ].join('');
}

const methodWords: Record<string, string> = {
  Card: 'Card',
  BankTransfer: 'Bank transfer',
  BankDebit: 'Direct debit',
};

/** components/receipt.tsx Receipt. */
function receipt(page: PayPage): string {
  const paid = page.receipt;
  if (!paid) return '';
  const method = paid.paymentMethodType
    ? (methodWords[paid.paymentMethodType] ?? paid.paymentMethodType)
    : null;
  return [
    '<section class="card receipt" aria-labelledby="receipt-heading">',
    '<h2 id="receipt-heading">Receipt</h2>',
    '<dl class="pairs">',
    pair('Amount paid', formatMoney(paid.amount, paid.currency)),
    pair('Payment reference', paid.reference),
    pair('Paid on', formatDateTime(paid.paidAt)),
    method ? pair('Paid by', paid.providerName ? `${method} (${paid.providerName})` : method) : '',
    '</dl>',
    '</section>',
  ].join('');
}

/** components/company-contact.tsx CompanyContact. */
function companyContact(company: PayCompany): string {
  const lines: string[] = company.addressLines.map(
    (line) => `<span class="contact-line">${escapeHtml(line)}</span>`,
  );
  if (company.telephone)
    lines.push(
      `<span class="contact-line">Telephone: <a href="${escapeHtml(`tel:${company.telephone.replace(/\s/g, '')}`)}">${escapeHtml(company.telephone)}</a></span>`,
    );
  if (company.emailAddress)
    lines.push(
      `<span class="contact-line">Email: <a href="${escapeHtml(`mailto:${company.emailAddress}`)}">${escapeHtml(company.emailAddress)}</a></span>`,
    );
  if (company.website) {
    const website = /^https?:\/\//i.test(company.website)
      ? company.website
      : `https://${company.website}`;
    lines.push(
      `<span class="contact-line">Website: <a href="${escapeHtml(website)}" rel="noopener noreferrer">${escapeHtml(company.website)}</a></span>`,
    );
  }
  return lines.length > 0 ? `<address class="contact">${lines.join('')}</address>` : '';
}

/** Whether the page's first screen is written into its HTML: a request open to payment. */
export function hasFirstScreen(answer: PayPageAnswer): answer is PayPage {
  return answer.state === 'Open' || answer.state === 'PartCompleted';
}

/** pay-app.tsx Layout around StateContent's open request, the Pay form left to the app. */
export function firstScreenHtml(page: PayPage): string {
  const money = (amount: number) => formatMoney(amount, page.currency);
  const partPaid = page.state === 'PartCompleted';
  const heading = partPaid ? `${money(page.amountToPay)} left to pay` : `Pay ${page.company.name}`;
  return [
    page.test ? '<p class="test-banner" role="note">Test mode: no real money moves.</p>' : '',
    '<header class="company">',
    page.company.logoUrl
      ? `<img src="${escapeHtml(page.company.logoUrl)}" alt="" class="logo">`
      : '',
    `<p class="company-name">${escapeHtml(page.company.name)}</p>`,
    '</header>',
    '<main id="main" class="content">',
    `<h1>${escapeHtml(heading)}</h1>`,
    page.overdue && page.paymentRequiredBy
      ? `<p class="note overdue-note" role="note">${escapeHtml(
          `Payment was due on ${formatDate(page.paymentRequiredBy)} and is now overdue.` +
            (page.feeTotal > 0
              ? ' The late-payment fees below keep growing until it is paid.'
              : ''),
        )}</p>`
      : '',
    partPaid
      ? `<p>${escapeHtml(`${money(page.paidAmount)} has been paid so far. You can pay the rest below.`)}</p>`
      : '',
    partPaid ? receipt(page) : '',
    '<div class="summary-slot"></div>',
    requestSummary(page),
    '</main>',
    '<footer class="footer">',
    companyContact(page.company),
    '<p class="muted small">Payments handled by Ledgerline.</p>',
    '</footer>',
  ].join('');
}

/** The answer as a JSON data block: `<` is written `\u003c`, so nothing in it ends the element. */
export function firstAnswerScript(answer: PayPageAnswer): string {
  const json = JSON.stringify(answer)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${firstAnswerElementId}">${json}</script>`;
}

const rootElement = /<div id="root">[\s\S]*?<\/div>/;

/**
 * The built pay.html with the request's first screen in its root element, the answer before its
 * first script (the boot script, which then asks nothing) and its title the app's.
 */
export function payDocumentWithFirstScreen(html: string, page: PayPage): string {
  const script = firstAnswerScript(page);
  const withRoot = html.replace(rootElement, () => `<div id="root">${firstScreenHtml(page)}</div>`);
  const firstScript = withRoot.search(/<script[\s>]/);
  const rootAt = withRoot.indexOf('<div id="root">');
  const at = firstScript >= 0 && firstScript < rootAt ? firstScript : rootAt;
  return (withRoot.slice(0, at) + script + withRoot.slice(at)).replace(
    /<title>[^<]*<\/title>/,
    () => `<title>${escapeHtml(`Pay ${page.company.name}`)}</title>`,
  );
}
