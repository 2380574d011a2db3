import type { companyDetails, companyLogos } from '../../db/schema-company.js';
import { escapeHtml } from '../../platform/mail.js';

const logoCid = 'company-logo@ledgerline';

/** What every mail about a company carries: its name, logo and details. */
export interface MailCompany {
  details: typeof companyDetails.$inferSelect | null;
  logo: typeof companyLogos.$inferSelect | null;
  companyName: string;
}

/**
 * A mail's text and HTML parts in the company's layout: the logo (inline), the body's lines, a
 * link, and the company's name and details as the footer.
 */
export function companyMail(
  company: MailCompany,
  body: readonly string[],
  link: { label: string; url: string } | null,
) {
  const d = company.details;
  const footer = [
    company.companyName,
    d?.address1,
    d?.address2,
    d?.city,
    d?.state,
    d?.postCode,
    d?.country,
    d?.email,
    d?.telephone,
    d?.website,
    d?.taxCode ? `Tax code ${d.taxCode}` : null,
  ].filter((line): line is string => !!line);
  const text =
    [...body, '', link ? `${link.label}: ${link.url}` : null, '', '--', ...footer]
      .filter((line) => line !== null)
      .join('\n') + '\n';
  const html =
    (company.logo
      ? `<p><img src="cid:${logoCid}" alt="${escapeHtml(company.companyName)}" style="max-height:64px"></p>`
      : '') +
    body.map((line) => (line === '' ? '' : `<p>${escapeHtml(line)}</p>`)).join('') +
    (link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : '') +
    `<hr><p>${footer.map(escapeHtml).join('<br>')}</p>`;
  const attachments = company.logo
    ? [
        {
          filename: company.logo.fileName,
          content: company.logo.data,
          contentType: company.logo.fileType,
          cid: logoCid,
        },
      ]
    : undefined;
  return { text, html, attachments };
}
