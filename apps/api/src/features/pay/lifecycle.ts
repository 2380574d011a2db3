import Big from 'big.js';
import type { WebHookEventType } from '@ledgerline/contract';
import type { CheckoutPaymentStatus } from '../../providers/checkout.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import type { PaymentRequestRow, PaymentRow } from './pay.repository.js';

/**
 * ONE payment lifecycle, declared as data (as Kill Bill's PaymentStates.xml or
 * Hyperswitch's typed status maps). Every path that moves a payment — the payer page's settle,
 * provider notifications, staff capture and cancel, the reservation expiry job, refunds and
 * disputes — looks its move up in `paymentMoves` and applies it with `applyMove`, in its own
 * transaction. Nothing else writes a payment's status, its allocations' statuses, its invoices'
 * allocated amounts or its request's status (docs/decisions/112-one-payment-lifecycle-declared-as-data.md "One payment lifecycle, declared
 * as data").
 */

/** spec 2 §3 Payment transaction statuses. */
export const paymentStatuses = [
  'Processing',
  'Pending',
  'Paid',
  'Failed',
  'NotAuthorised',
  'Rejected',
  'Cancelled',
  'Refunded',
  'Disputed',
  'Duplicated',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** spec 2 §3 allocation record statuses. Provisional: reserved money, which never counts as paid. */
export const allocationStatuses = ['Allocated', 'Provisional', 'Cancelled'] as const;
export type AllocationStatus = (typeof allocationStatuses)[number];

/** spec 2 §3 request statuses, derived from the money (requestStatusOf). */
export type RequestStatus =
  'Open' | 'PartCompleted' | 'Completed' | 'Pending' | 'Cancelled' | 'Expired';

/**
 * The hidden sub-state of a Processing payment (migration 0019 `provider_step`; it was a suffix on
 * the provider reference): its card details sent and the charge under way ('ticket'), its charge
 * waiting for the card issuer's 3-D Secure answer ('challenge'), that answer sent on
 * ('challengeAnswered'). Any other move clears it.
 */
export const providerSteps = ['ticket', 'challenge', 'challengeAnswered'] as const;
export type ProviderStep = (typeof providerSteps)[number];

const stepSuffix: Record<ProviderStep, string> = {
  ticket: ':ticket',
  challenge: ':challenge',
  challengeAnswered: ':challenge:ticket',
};

/**
 * The reference as the card-frame adapters read it (TranSafe, Opayo Pi): the provider's own
 * reference with its step's suffix, as they were written before the step had a column.
 */
export function referenceForProvider(
  payment: Pick<PaymentRow, 'paymentProviderReference' | 'providerStep'>,
): string | null {
  const reference = payment.paymentProviderReference;
  if (!reference) return reference;
  const step = payment.providerStep as ProviderStep | null;
  return step && stepSuffix[step] ? `${reference}${stepSuffix[step]}` : reference;
}

/** What happened to a payment. */
export const paymentEvents = [
  // A provider's outcome (the card form, a status poll, a notification).
  'paid',
  'reserved',
  'failed',
  'notAuthorised',
  'rejected',
  'providerCancelled',
  // A second settled payment of a Single request another payment already holds.
  'duplicate',
  // Staff (payment-transactions' pending capture and cancel; the reservations queue).
  'captureWhole',
  'capturePart',
  'cancel',
  // The reservation expiry job: the provider's authorisation window has passed.
  'authorisationExpired',
  // The money went back after it had succeeded (GoCardless `failed` after `confirmed`).
  'lateFailure',
  // Refunds (staff or provider-initiated) and disputes: the `refunds` helper wires these.
  'refundPart',
  'refundWhole',
  // A refund under way failed, or one paid came back (a refund notification's Failed).
  'refundFailed',
  'disputeOpened',
  'disputeWon',
  'disputeLost',
] as const;
export type PaymentEvent = (typeof paymentEvents)[number];

/**
 * What a move does to the payment's allocations:
 * - allocate: the money as offered, Allocated (the invoices count it as paid);
 * - provision: the money as offered, Provisional (reserved: the invoices do not count it);
 * - confirm: Provisional → Allocated up to the amount captured (the one due first first), the rest
 *   released (Cancelled, its discount withdrawn, its offer reopened);
 * - release: Provisional → Cancelled;
 * - reverse: Allocated money given back (the amount, else all of it): the last due first, an
 *   allocation left with nothing Cancelled; what it gave back is kept as its reversedAmount;
 * - restore: reversed money allocated again (a dispute won);
 * - none.
 */
export type AllocationEffect =
  'allocate' | 'provision' | 'confirm' | 'release' | 'reverse' | 'restore' | 'none';

/** One allowed move. */
export interface PaymentMoveRule {
  from: readonly PaymentStatus[];
  event: PaymentEvent;
  to: PaymentStatus;
  allocations: AllocationEffect;
  /** The payment's allocated status after the move; null keeps it. */
  allocatedStatus: 'AutoAllocated' | 'NotApplicable' | 'Unallocated' | null;
  /** The merchant's web hook event, written in the move's transaction. */
  webHook: WebHookEventType;
  /** The notification mails (spec 3 §3), in the notifications feature's wording; null: none. */
  mail: Pick<PaymentStatusChange, 'status' | 'from'> | null;
  /**
   * The audit activity's operation. A staff route writes its own activity under this operation;
   * a provider's or a job's move is written by applyMove.
   */
  audit: string;
  /** The move needs an amount (a part capture, a part refund). */
  needsAmount?: true;
}

const declined = ['failed', 'notAuthorised', 'rejected'] as const;
const declinedTo = {
  failed: 'Failed',
  notAuthorised: 'NotAuthorised',
  rejected: 'Rejected',
} as const;

/** THE table. Anything not here is not a move (a replay, a late event: the status stays). */
// One move a line, read as the table it is.
// prettier-ignore
export const paymentMoves: readonly PaymentMoveRule[] = [
  // A started payment's provider outcome.
  { from: ['Processing'], event: 'paid', to: 'Paid', allocations: 'allocate', allocatedStatus: 'AutoAllocated', webHook: 'payment.succeeded', mail: { status: 'Paid', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  { from: ['Processing'], event: 'reserved', to: 'Pending', allocations: 'provision', allocatedStatus: 'AutoAllocated', webHook: 'payment.pending', mail: { status: 'Pending', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  ...declined.map((event) => ({ from: ['Processing'] as const, event, to: declinedTo[event], allocations: 'none' as const, allocatedStatus: 'NotApplicable' as const, webHook: 'payment.failed' as const, mail: { status: 'Failed' as const, from: 'Provider' as const }, audit: 'ChangePaymentStatus' })),
  { from: ['Processing'], event: 'providerCancelled', to: 'Cancelled', allocations: 'none', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  // spec 2: a second settled payment of a Single request is Duplicated and allocated to nothing.
  { from: ['Processing'], event: 'duplicate', to: 'Duplicated', allocations: 'none', allocatedStatus: 'Unallocated', webHook: 'payment.duplicated', mail: null, audit: 'ChangePaymentStatus' },
  // A reservation: captured by the provider itself, by staff (whole or part), or undone.
  { from: ['Pending'], event: 'paid', to: 'Paid', allocations: 'confirm', allocatedStatus: null, webHook: 'payment.succeeded', mail: { status: 'Paid', from: 'Pending' }, audit: 'ChangePaymentStatus' },
  { from: ['Pending'], event: 'captureWhole', to: 'Paid', allocations: 'confirm', allocatedStatus: null, webHook: 'payment.captured', mail: { status: 'Paid', from: 'Pending' }, audit: 'CapturePendingPayment' },
  { from: ['Pending'], event: 'capturePart', to: 'Paid', allocations: 'confirm', allocatedStatus: null, webHook: 'payment.captured', mail: { status: 'Paid', from: 'Pending' }, audit: 'CapturePendingPayment', needsAmount: true },
  { from: ['Pending'], event: 'cancel', to: 'Cancelled', allocations: 'release', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Pending' }, audit: 'CancelPendingPayment' },
  ...declined.map((event) => ({ from: ['Pending'] as const, event, to: declinedTo[event], allocations: 'release' as const, allocatedStatus: 'NotApplicable' as const, webHook: 'payment.failed' as const, mail: { status: 'Failed' as const, from: 'Provider' as const }, audit: 'ChangePaymentStatus' })),
  { from: ['Pending'], event: 'providerCancelled', to: 'Cancelled', allocations: 'release', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Pending' }, audit: 'ChangePaymentStatus' },
  { from: ['Pending'], event: 'authorisationExpired', to: 'Cancelled', allocations: 'release', allocatedStatus: 'NotApplicable', webHook: 'payment.cancelled', mail: { status: 'Cancelled', from: 'Pending' }, audit: 'ExpireReservation' },
  // The money went back after it had succeeded.
  { from: ['Paid'], event: 'lateFailure', to: 'Failed', allocations: 'reverse', allocatedStatus: 'NotApplicable', webHook: 'payment.failed', mail: { status: 'Failed', from: 'Provider' }, audit: 'ChangePaymentStatus' },
  // Refunds: a part refund keeps the payment Paid; the whole of it (or of what was left) Refunded.
  { from: ['Paid'], event: 'refundPart', to: 'Paid', allocations: 'reverse', allocatedStatus: null, webHook: 'payment.refunded', mail: null, audit: 'RefundPayment', needsAmount: true },
  { from: ['Paid'], event: 'refundWhole', to: 'Refunded', allocations: 'reverse', allocatedStatus: null, webHook: 'payment.refunded', mail: null, audit: 'RefundPayment' },
  // A Duplicated payment holds no allocation: its refund gives back money nothing counted.
  { from: ['Duplicated'], event: 'refundPart', to: 'Duplicated', allocations: 'none', allocatedStatus: null, webHook: 'payment.refunded', mail: null, audit: 'RefundPayment', needsAmount: true },
  { from: ['Duplicated'], event: 'refundWhole', to: 'Refunded', allocations: 'none', allocatedStatus: 'NotApplicable', webHook: 'payment.refunded', mail: null, audit: 'RefundPayment' },
  // A refund that failed gives the payment back what it reversed: Paid again (refunds helper).
  { from: ['Paid', 'Refunded'], event: 'refundFailed', to: 'Paid', allocations: 'restore', allocatedStatus: null, webHook: 'payment.refund-failed', mail: null, audit: 'RefundFailed', needsAmount: true },
  { from: ['Duplicated'], event: 'refundFailed', to: 'Duplicated', allocations: 'none', allocatedStatus: null, webHook: 'payment.refund-failed', mail: null, audit: 'RefundFailed', needsAmount: true },
  // Disputes: opened holds the books as they are; lost (or charged back at once) reverses the
  // money disputed; won restores what a loss reversed and the payment is Paid again.
  { from: ['Paid'], event: 'disputeOpened', to: 'Disputed', allocations: 'none', allocatedStatus: null, webHook: 'payment.disputed', mail: null, audit: 'ChangePaymentStatus' },
  { from: ['Paid', 'Disputed'], event: 'disputeLost', to: 'Disputed', allocations: 'reverse', allocatedStatus: null, webHook: 'payment.dispute-lost', mail: null, audit: 'ChangePaymentStatus' },
  { from: ['Disputed'], event: 'disputeWon', to: 'Paid', allocations: 'restore', allocatedStatus: null, webHook: 'payment.dispute-won', mail: null, audit: 'ChangePaymentStatus' },
];

/** The move an event makes from a status, or null: not allowed (the payment stays as it is). */
export function moveOf(from: string, event: PaymentEvent): PaymentMoveRule | null {
  return (
    paymentMoves.find(
      (rule) => rule.event === event && (rule.from as readonly string[]).includes(from),
    ) ?? null
  );
}

/**
 * The event a provider's outcome is, for a payment in `from`. A Paid payment moves to Failed only
 * on a late failure (the provider says so); a second settled payment of a Single request that
 * another payment holds is a duplicate.
 */
export function eventOfOutcome(
  from: string,
  status: CheckoutPaymentStatus,
  context: {
    lateFailure?: boolean;
    request?: Pick<PaymentRequestRow, 'usageType' | 'requestStatus'> | null;
  } = {},
): PaymentEvent | null {
  if (
    from === 'Paid' &&
    context.lateFailure &&
    status !== 'Paid' &&
    status !== 'Pending' &&
    status !== 'Processing'
  )
    return 'lateFailure';
  switch (status) {
    case 'Paid':
    case 'Pending': {
      const held =
        context.request &&
        context.request.usageType !== 'Multiple' &&
        (context.request.requestStatus === 'Completed' ||
          context.request.requestStatus === 'Pending');
      if (from === 'Processing' && held) return 'duplicate';
      return status === 'Paid' ? 'paid' : 'reserved';
    }
    case 'Failed':
      return 'failed';
    case 'NotAuthorised':
      return 'notAuthorised';
    case 'Rejected':
      return 'rejected';
    case 'Cancelled':
      return 'providerCancelled';
    default:
      return null;
  }
}

/** What the money of a request's payments is, for requestStatusOf. */
export interface RequestMoney {
  usageType: string | null;
  requestType: string;
  amountToPay: string;
  current: string;
  /** Allocated money of the request's payments (with the discounts it settled). */
  held: string;
  /** Provisional (reserved) money of the request's payments. */
  reserved: string;
  /** The request's payments that are Paid, and those Pending (reserved). */
  paidPayments: number;
  pendingPayments: number;
  /** Transaction requests: invoices not paid in full; and those not paid in full were the reservations captured. */
  owing: number;
  owingIfCaptured: number;
}

/**
 * spec 2 §3 request status, from the money: Completed when paid in full (or, Single usage, when a
 * payment holds it), Pending while a reservation would complete it, PartCompleted when some money
 * is held or reserved, else Open. A Cancelled or Expired request stays so unless money holds it.
 */
export function requestStatusOf(m: RequestMoney): RequestStatus {
  const held = new Big(m.held);
  const reserved = new Big(m.reserved);
  let derived: RequestStatus;
  if (m.usageType !== 'Multiple') {
    derived =
      m.paidPayments > 0 || held.gt(0) ? 'Completed' : m.pendingPayments > 0 ? 'Pending' : 'Open';
  } else if (m.requestType === 'Transaction') {
    derived =
      m.owing === 0
        ? 'Completed'
        : m.owingIfCaptured === 0 && reserved.gt(0)
          ? 'Pending'
          : held.gt(0) || reserved.gt(0)
            ? 'PartCompleted'
            : 'Open';
  } else {
    derived = held.gte(m.amountToPay)
      ? 'Completed'
      : held.plus(reserved).gte(m.amountToPay) && reserved.gt(0)
        ? 'Pending'
        : held.gt(0) || reserved.gt(0)
          ? 'PartCompleted'
          : 'Open';
  }
  if (derived === 'Open' && (m.current === 'Cancelled' || m.current === 'Expired'))
    return m.current;
  return derived;
}

/** An invoice's paid status from what settles it (spec 2 §3: Provisional money never counts). */
export function paidStatusOf(
  transactionAmount: Big.BigSource,
  allocated: Big.BigSource,
  discounted: Big.BigSource,
) {
  const settled = new Big(allocated).plus(discounted);
  return settled.gte(transactionAmount) ? 'FullyPaid' : settled.gt(0) ? 'PartPaid' : 'Unpaid';
}
