import type {
  CheckoutPaymentStatus,
  NotificationDispute,
  NotificationEvent,
  NotificationRefund,
} from '../checkout.js';
import { hmacHex } from '../checkout-support.js';
import { fromMinorUnits } from '../money.js';

/** Stripe's objects as its API and its events carry them, and what an event says about a payment. */

export interface StripeError {
  error?: { code?: string; message?: string; type?: string };
}

export interface PaymentIntent extends StripeError {
  id?: string;
  object?: 'payment_intent';
  status?: string;
  amount?: number;
  amount_received?: number;
  amount_capturable?: number;
  currency?: string;
  metadata?: Record<string, string>;
  last_payment_error?: { message?: string; code?: string } | null;
  cancellation_reason?: string | null;
}

export interface CheckoutSession extends StripeError {
  id?: string;
  object?: 'checkout.session';
  url?: string | null;
  status?: 'open' | 'complete' | 'expired' | null;
  payment_status?: 'paid' | 'unpaid' | 'no_payment_required';
  payment_intent?: string | PaymentIntent | null;
  metadata?: Record<string, string>;
  client_reference_id?: string | null;
  amount_total?: number | null;
  currency?: string | null;
}

/** A Refund (`refund.*`, `charge.refund.updated`) as Stripe sends it. */
export interface StripeRefund {
  id?: string;
  object?: 'refund';
  amount?: number;
  currency?: string;
  charge?: string | null;
  payment_intent?: string | null;
  status?: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  reason?: string | null;
  failure_reason?: string | null;
  metadata?: Record<string, string>;
}

/** A Charge (`charge.refunded`): its refunds list only where the API version still includes it. */
export interface StripeCharge {
  id?: string;
  object?: 'charge';
  amount?: number;
  amount_refunded?: number;
  currency?: string;
  payment_intent?: string | null;
  metadata?: Record<string, string>;
  refunds?: { data?: StripeRefund[] } | null;
}

/** A Dispute (`charge.dispute.*`). */
export interface StripeDispute {
  id?: string;
  object?: 'dispute';
  amount?: number;
  currency?: string;
  charge?: string | null;
  payment_intent?: string | null;
  reason?: string | null;
  status?: string;
  evidence_details?: { due_by?: number | null } | null;
  metadata?: Record<string, string>;
}

export interface StripeEvent {
  id?: string;
  type?: string;
  account?: string;
  /** Its shape follows the type: a session, payment intent, charge, refund or dispute. */
  data?: { object?: unknown };
}

/** Where the payment transaction id travels in Stripe's metadata (session and payment intent). */
export const metadataKey = 'ledgerlinePaymentId';

/** A payment intent's status as a payment transaction status. */
export function intentStatus(intent: PaymentIntent): CheckoutPaymentStatus {
  switch (intent.status) {
    case 'succeeded':
      return 'Paid';
    case 'requires_capture':
      return 'Pending';
    case 'canceled':
      return 'Cancelled';
    // requires_payment_method after a decline: Checkout lets the payer try another card, so the
    // payment is still under way until the session completes or expires.
    default:
      return 'Processing';
  }
}

export const intentOf = (session: CheckoutSession): PaymentIntent | null =>
  session.payment_intent && typeof session.payment_intent === 'object'
    ? session.payment_intent
    : null;

export const intentIdOf = (session: CheckoutSession): string | null =>
  typeof session.payment_intent === 'string'
    ? session.payment_intent
    : (intentOf(session)?.id ?? null);

/** Stripe's lower-case currency as ISO 4217. */
export const currencyOf = (currency: string | null | undefined) => currency?.toUpperCase() ?? null;

/** Minor units as major units in the object's currency, or null when either is missing. */
export const majorOf = (amount: number | null | undefined, currency: string | null | undefined) =>
  typeof amount === 'number' && currency ? fromMinorUnits(amount, currency) : null;

/** A Stripe Refund as a notification's refund (docs/decisions/091-refunds-disputes-and-late-failures-from-stripe.md, "Stripe refunds and disputes"). */
export function refundOf(refund: StripeRefund): NotificationRefund | undefined {
  if (!refund.id) return undefined;
  const status: NotificationRefund['status'] =
    refund.status === 'succeeded'
      ? 'Succeeded'
      : refund.status === 'failed' || refund.status === 'canceled'
        ? 'Failed'
        : 'Pending';
  return {
    refundReference: refund.id,
    amount: majorOf(refund.amount, refund.currency),
    status,
    reason:
      status === 'Failed'
        ? (refund.failure_reason ?? refund.status ?? null)
        : (refund.reason ?? null),
  };
}

/** A Stripe dispute's status as a stage (warning_* are inquiries; closed without a chargeback is won). */
export function disputeStage(status: string | undefined): NotificationDispute['stage'] {
  switch (status) {
    case 'won':
    case 'warning_closed':
    case 'prevented':
      return 'Won';
    case 'lost':
      return 'Lost';
    case 'under_review':
    case 'warning_under_review':
      return 'UnderReview';
    // needs_response, warning_needs_response
    default:
      return 'Opened';
  }
}

export function disputeOf(dispute: StripeDispute): NotificationDispute | undefined {
  if (!dispute.id) return undefined;
  const dueBy = dispute.evidence_details?.due_by;
  return {
    disputeReference: dispute.id,
    stage: disputeStage(dispute.status),
    amount: majorOf(dispute.amount, dispute.currency),
    currency: currencyOf(dispute.currency),
    reason: dispute.reason ?? null,
    // 0 means no response is allowed (reference/providers.md).
    respondBy: dueBy ? new Date(dueBy * 1000).toISOString() : null,
  };
}

/** What one Stripe event says about one payment (docs/decisions/059-checkout-adapters-choices-where-the-reference.md, "Stripe checkout events"). */
export function eventOf(event: StripeEvent, payload: string): NotificationEvent {
  const type = event.type!;
  const base = {
    eventId: event.id!,
    eventType: type,
    payload,
    // Connect: the connected account the event happened on (absent for the platform's own).
    account: event.account ?? null,
  };
  const data = (event.data?.object ?? {}) as Record<string, unknown>;
  if (type.startsWith('charge.dispute.')) {
    const dispute = data as StripeDispute;
    return {
      ...base,
      paymentTransactionId: dispute.metadata?.[metadataKey] ?? null,
      providerReference: dispute.payment_intent ?? dispute.charge ?? null,
      status: null,
      currency: currencyOf(dispute.currency),
      dispute: disputeOf(dispute),
    };
  }
  if (type.startsWith('refund.') || type === 'charge.refund.updated') {
    const refund = data as StripeRefund;
    return {
      ...base,
      // Our refunds carry the payment's id in their metadata; one made in Stripe's dashboard not.
      paymentTransactionId: refund.metadata?.[metadataKey] ?? null,
      providerReference: refund.payment_intent ?? refund.charge ?? null,
      status: null,
      currency: currencyOf(refund.currency),
      refund: refundOf(refund),
    };
  }
  if (type === 'charge.refunded') {
    const charge = data as StripeCharge;
    // The newest refund, where the API version still lists them; refund.* always names it.
    const newest = charge.refunds?.data?.[0];
    return {
      ...base,
      paymentTransactionId: charge.metadata?.[metadataKey] ?? null,
      providerReference: charge.payment_intent ?? charge.id ?? null,
      status: null,
      amount: majorOf(charge.amount, charge.currency),
      currency: currencyOf(charge.currency),
      ...(newest ? { refund: refundOf(newest) } : {}),
    };
  }
  const object = data as CheckoutSession & PaymentIntent;
  const paymentTransactionId = object.metadata?.[metadataKey] ?? null;
  let status: CheckoutPaymentStatus | null = null;
  let providerReference: string | null = object.id ?? null;
  let errorMessage: string | null = null;
  let amount: string | null = null;
  if (type.startsWith('checkout.session.')) {
    providerReference = intentIdOf(object) ?? object.id ?? null;
    amount = majorOf(object.amount_total, object.currency);
    if (type === 'checkout.session.completed')
      status =
        object.payment_status === 'paid'
          ? 'Paid'
          : object.metadata?.captureType === 'Reserve'
            ? 'Pending'
            : 'Processing';
    else if (type === 'checkout.session.async_payment_succeeded') status = 'Paid';
    else if (type === 'checkout.session.async_payment_failed') {
      status = 'Failed';
      errorMessage = 'The payment failed.';
    } else if (type === 'checkout.session.expired') status = 'Cancelled';
  } else if (type.startsWith('payment_intent.')) {
    amount = majorOf(intentAmount(object), object.currency);
    if (type === 'payment_intent.succeeded') status = 'Paid';
    else if (type === 'payment_intent.amount_capturable_updated') status = 'Pending';
    else if (type === 'payment_intent.canceled') status = 'Cancelled';
    // payment_intent.payment_failed: Checkout lets the payer try again, so it moves nothing;
    // the message is kept for the provider data dialog.
    else if (type === 'payment_intent.payment_failed')
      errorMessage = object.last_payment_error?.message ?? null;
  }
  return {
    ...base,
    paymentTransactionId,
    providerReference,
    status,
    errorMessage,
    amount,
    currency: currencyOf(object.currency),
  };
}

/** What a payment intent took (succeeded), holds (requires_capture) or asks for (otherwise). */
export function intentAmount(intent: PaymentIntent): number | undefined {
  if (intent.status === 'succeeded') return intent.amount_received ?? intent.amount;
  if (intent.status === 'requires_capture') return intent.amount_capturable ?? intent.amount;
  return intent.amount;
}

/** Signs a payload as Stripe does (`t=…,v1=…`): for tests and the e2e fakes. */
export function stripeSignatureHeader(secret: string, payload: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, `${timestamp}.${payload}`)}`;
}
