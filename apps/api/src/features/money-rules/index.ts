/**
 * The money-rules area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Late payments' interest follows the bank rate history.
export { createBankRateHistory, referenceDate } from './bank-rates.js';
// Days without a time of day, as the money rules count them.
export { toCalendarDate } from './calendar-date.js';
export type { CalendarDate } from './calendar-date.js';
// Repository, allowed: the payer page, reminders, late payments and company settings price invoices with the rules read in their own transaction.
export {
  loadMoneyRules,
  invoiceFactsColumns,
  invoiceFactsOf,
  readBankRates,
  readCompanyPreferences,
} from './money-rules.repository.js';
export type { InvoiceFacts, InvoiceFactsRow } from './money-rules.repository.js';
// Service, allowed: the one quote of what is due (discounts, late fees) every area that shows or takes money uses.
export {
  quoteTransactions,
  priceTransactions,
  today,
  recordLatePaymentFees,
} from './money-rules.service.js';
export type { MoneyRules, Quote } from './quote.js';
// The statutory late payment figures.
export { debtRecoveryCharges, statutoryMargin } from './uk-statutory.js';
