/**
 * The payment-requests area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
export type { PaymentRequestsService } from './payment-requests.service.js';
