/** spec 2 §3 Payment transaction */
export const paymentTransactionTypes = ['Payment', 'Refund'] as const;
export type PaymentTransactionType = (typeof paymentTransactionTypes)[number];

export const paymentTransactionStatuses = [
  'Processing',
  'Paid',
  'Failed',
  'NotAuthorised',
  'Rejected',
  'Refunded',
  'Disputed',
  'Cancelled',
  'Duplicated',
  'Pending',
] as const;
export type PaymentTransactionStatus = (typeof paymentTransactionStatuses)[number];

/** The statuses of the dashboard's rejected payments panel (`status/all-failures`). */
export const failedPaymentTransactionStatuses = ['Failed', 'NotAuthorised', 'Rejected'] as const;

export const allocatedStatuses = [
  'WaitingToBeAllocated',
  'Error',
  'Unallocated',
  'AutoAllocated',
  'ManuallyAllocated',
  'NotApplicable',
] as const;
export type AllocatedStatus = (typeof allocatedStatuses)[number];

export const paymentMethodTypes = ['Card', 'BankTransfer', 'BankDebit'] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/** spec 2 §3 Settlement status enumeration. */
export const settlementStatuses = ['Closed', 'Processing', 'Reserved', 'Scheduled'] as const;
export type SettlementStatus = (typeof settlementStatuses)[number];

/**
 * Where the money of a payment transaction stands (docs/decisions/146-settlement-status.md, "Settlement status"): held
 * for a later capture is Reserved; a bank debit not yet collected is Scheduled; anything else still
 * under way is Processing; a payment in a final status is Closed.
 */
export function settlementStatusOf(
  status: PaymentTransactionStatus,
  paymentMethodType: PaymentMethodType | null,
): SettlementStatus {
  if (status === 'Pending') return 'Reserved';
  if (status === 'Processing')
    return paymentMethodType === 'BankDebit' ? 'Scheduled' : 'Processing';
  return 'Closed';
}
