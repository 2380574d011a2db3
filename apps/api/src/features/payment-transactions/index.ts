/**
 * The payment-transactions area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Repository, allowed: disputes answer a payment's dispute in its shape, and pay's settlement reads a moved payment's details for its web hook event in the move's transaction.
export { createPaymentTransactionsRepository } from './payment-transactions.repository.js';
export { toPaymentDispute } from './payment-transactions.rows.js';
