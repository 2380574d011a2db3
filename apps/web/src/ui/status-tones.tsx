import type {
  AllocatedStatus,
  PaidStatus,
  PaymentRequestStatus,
  PaymentTransaction,
} from '@ledgerline/contract';
import { StatusTag, type StatusTone } from './status-tag';
import { spaceWords } from './words';

/** The colours of the statuses the lists and detail pages show (as badges). */
export const paymentStatusTone: Record<PaymentTransaction['status'], StatusTone> = {
  Paid: 'success',
  Refunded: 'info',
  Processing: 'info',
  Pending: 'warning',
  Disputed: 'warning',
  Failed: 'danger',
  NotAuthorised: 'danger',
  Rejected: 'danger',
  Cancelled: 'neutral',
  Duplicated: 'neutral',
};

export const allocatedStatusTone: Record<AllocatedStatus, StatusTone> = {
  WaitingToBeAllocated: 'warning',
  Error: 'danger',
  Unallocated: 'neutral',
  AutoAllocated: 'success',
  ManuallyAllocated: 'success',
  NotApplicable: 'neutral',
};

export const paidStatusTone: Record<PaidStatus, StatusTone> = {
  Unpaid: 'warning',
  PartPaid: 'info',
  FullyPaid: 'success',
};

export const requestStatusTone: Record<PaymentRequestStatus, StatusTone> = {
  Open: 'info',
  Pending: 'warning',
  PartCompleted: 'warning',
  Completed: 'success',
  Cancelled: 'neutral',
  Expired: 'danger',
};

/** A status of one of those kinds as its badge: the words, in its colour. */
export function StatusBadge<S extends string>({
  status,
  tones,
}: {
  status: S;
  tones: Record<S, StatusTone>;
}) {
  return <StatusTag label={spaceWords(status)} tone={tones[status]} />;
}
