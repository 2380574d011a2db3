/**
 * The payment-providers area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
export type { PaymentProvidersLends } from './payment-providers.area.js';
