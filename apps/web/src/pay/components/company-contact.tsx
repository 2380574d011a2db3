import type { PayCompany } from '@ledgerline/contract';

/** Whether the page's footer shows any of the merchant's contact details. */
export function hasContactDetails(company: PayCompany): boolean {
  return (
    company.addressLines.length > 0 ||
    !!company.telephone ||
    !!company.emailAddress ||
    !!company.website
  );
}

/**
 * "Please contact X" ends by pointing at the footer's details only when there are some:
 * never "their details are below" over an empty footer.
 */
export function contactEnding(company: PayCompany): string {
  return hasContactDetails(company) ? ': their details are below.' : '.';
}

/** The merchant's contact details: address, telephone, email and website, each only when known. */
export function CompanyContact({ company }: { company: PayCompany }) {
  const website = company.website
    ? /^https?:\/\//i.test(company.website)
      ? company.website
      : `https://${company.website}`
    : null;
  if (!hasContactDetails(company)) return null;
  return (
    <address className="contact">
      {company.addressLines.map((line, index) => (
        <span key={index} className="contact-line">
          {line}
        </span>
      ))}
      {company.telephone && (
        <span className="contact-line">
          Telephone: <a href={`tel:${company.telephone.replace(/\s/g, '')}`}>{company.telephone}</a>
        </span>
      )}
      {company.emailAddress && (
        <span className="contact-line">
          Email: <a href={`mailto:${company.emailAddress}`}>{company.emailAddress}</a>
        </span>
      )}
      {website && (
        <span className="contact-line">
          Website:{' '}
          <a href={website} rel="noopener noreferrer">
            {company.website}
          </a>
        </span>
      )}
    </address>
  );
}
