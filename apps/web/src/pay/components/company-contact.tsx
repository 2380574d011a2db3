import type { PayCompany } from '@ledgerline/contract';

/** The merchant's contact details: address, telephone, email and website, each only when known. */
export function CompanyContact({ company }: { company: PayCompany }) {
  const website = company.website
    ? /^https?:\/\//i.test(company.website)
      ? company.website
      : `https://${company.website}`
    : null;
  const hasAny =
    company.addressLines.length > 0 || company.telephone || company.emailAddress || website;
  if (!hasAny) return null;
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
