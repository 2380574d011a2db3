/**
 * The company-settings area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Repository, allowed: the company's preferences are read in the caller's transaction by pay, payment requests, reminders and statements (one read, one place).
export {
  readPreferences,
  companyHas,
  readPaymentRequestSettings,
} from './company-preferences.repository.js';
