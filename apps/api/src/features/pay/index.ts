/**
 * The pay area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// The one payment state table: a payment transaction's manual moves go through it.
export { applyMove } from './apply-move.js';
export type { MoveActor } from './apply-move.js';
// A statement explains fees as the payer page does.
export { feesReasonOf } from './pay-page-answer.js';
export type { PayLends } from './pay.area.js';
export type { PayRepository } from './pay.repository.js';
// A refund through the payment transactions calls moves the payment as the providers' notices do.
export {
  lockPaymentAndRequest,
  moveForRefund,
  refundableAmount,
  refundableStatuses,
  refundRow,
} from './refunds.js';
