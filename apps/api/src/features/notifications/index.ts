/**
 * The notifications area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Every mail to a payer or the company carries the company's name, logo and reply address.
export { companyMail, type MailCompany } from './company-mail.js';
export { readMailCompany } from './notifications.repository.js';
// The payment areas tell the notifications what happened to a payment.
export type { PaymentStatusChange } from './payment-notices.js';
export type { PaymentNotifications } from './notifications.mail.js';
