/**
 * The notifications area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Every mail to a payer or the company carries the company's name, logo and reply address.
export { readMailCompany, companyMail } from './notifications.mail.js';
export type {
  MailCompany,
  PaymentStatusChange,
  PaymentNotifications,
} from './notifications.mail.js';
