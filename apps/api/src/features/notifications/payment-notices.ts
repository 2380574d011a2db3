import type { NotificationName } from '@ledgerline/contract';
import { subjectValue } from '../../platform/mail.js';

/** A change of a payment's status that may be told to staff and to the payer. */
export interface PaymentStatusChange {
  paymentTransactionId: string;
  /**
   * The status the payment moved to; for a dispute what happened to it: Disputed
   * (opened), DisputeWon or DisputeLost.
   */
  status:
    | 'Paid'
    | 'Cancelled'
    | 'Failed'
    | 'Processing'
    | 'Pending'
    | 'Disputed'
    | 'DisputeWon'
    | 'DisputeLost';
  /** What moved it: a captured or cancelled Pending payment, or a provider's event. */
  from: 'Pending' | 'Provider';
  /** Told once per this key as well (a payment's second dispute is its own event): the dispute's reference. */
  key?: string;
}

/** spec 3 §3: which notifications an event is, to staff and to the payer. */
export function notificationsOf(change: PaymentStatusChange): NotificationName[] {
  if (change.from === 'Pending') {
    if (change.status === 'Paid') return ['TenantPaymentSuccessful', 'PaymentPendingCompleted'];
    if (change.status === 'Cancelled') return ['PaymentPendingCancelled'];
    return [];
  }
  if (change.status === 'Paid') return ['TenantPaymentSuccessful'];
  if (change.status === 'Failed') return ['TenantPaymentFailed'];
  if (change.status === 'Processing') return ['TenantPaymentProcessing'];
  if (change.status === 'Pending') return ['TenantPaymentProcessing', 'PaymentPending'];
  if (
    change.status === 'Disputed' ||
    change.status === 'DisputeWon' ||
    change.status === 'DisputeLost'
  )
    return ['TenantPaymentDisputed'];
  return [];
}

/** The notifications that go to the company's staff; the others go to the payer. */
export const staffNotifications: ReadonlySet<NotificationName> = new Set<NotificationName>([
  'TenantPaymentSuccessful',
  'TenantPaymentFailed',
  'TenantPaymentProcessing',
  'TenantPaymentDisputed',
]);

export interface Wording {
  subject: string;
  lead: string;
}
/** spec 3 §3: a notification's subject and lead sentence, from the payment's values. */
export function wordingOf(
  name: NotificationName,
  v: { amount: string; company: string; customer: string; reference: string },
  change?: PaymentStatusChange['status'],
): Wording {
  // Subjects take each value cleaned and bounded (the customer's name is what a payer typed, and a
  // subject is a mail header); the lead, in the body, keeps it whole.
  const s = {
    amount: subjectValue(v.amount),
    company: subjectValue(v.company),
    customer: subjectValue(v.customer),
  };
  switch (name) {
    case 'TenantPaymentSuccessful':
      return {
        subject: `Payment received: ${s.amount} from ${s.customer}`,
        lead: `A payment of ${v.amount} from ${v.customer} was successful (reference ${v.reference}).`,
      };
    case 'TenantPaymentFailed':
      return {
        subject: `Payment failed: ${s.amount} from ${s.customer}`,
        lead: `A payment of ${v.amount} from ${v.customer} failed (reference ${v.reference}).`,
      };
    case 'TenantPaymentProcessing':
      return {
        subject: `Payment processing: ${s.amount} from ${s.customer}`,
        lead: `A payment of ${v.amount} from ${v.customer} is being processed (reference ${v.reference}).`,
      };
    case 'TenantPaymentDisputed':
      return change === 'DisputeWon'
        ? {
            subject: `Dispute won: ${v.amount} from ${v.customer}`,
            lead: `The dispute of the payment of ${v.amount} from ${v.customer} was won; the payment is paid again (reference ${v.reference}).`,
          }
        : change === 'DisputeLost'
          ? {
              subject: `Dispute lost: ${v.amount} from ${v.customer}`,
              lead: `The dispute of the payment of ${v.amount} from ${v.customer} was lost; the money went back to the payer's bank and its invoices owe again (reference ${v.reference}).`,
            }
          : {
              subject: `Payment disputed: ${v.amount} from ${v.customer}`,
              lead: `The payer's bank disputes the payment of ${v.amount} from ${v.customer} (reference ${v.reference}). Respond at the payment provider before its deadline.`,
            };
    case 'PaymentPending':
      return {
        subject: `Your payment of ${s.amount} to ${s.company} is pending`,
        lead: `Your payment of ${v.amount} to ${v.company} has been received and is pending (reference ${v.reference}).`,
      };
    case 'PaymentPendingCancelled':
      return {
        subject: `Your payment of ${s.amount} to ${s.company} was cancelled`,
        lead: `Your pending payment of ${v.amount} to ${v.company} was cancelled; no money was taken (reference ${v.reference}).`,
      };
    case 'PaymentPendingCompleted':
      return {
        subject: `Your payment of ${s.amount} to ${s.company} is complete`,
        lead: `Your pending payment of ${v.amount} to ${v.company} has been completed (reference ${v.reference}).`,
      };
  }
}
