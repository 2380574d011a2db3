import type {
  CheckoutPaymentStatus,
  NotificationDispute,
  NotificationEvent,
  NotificationRefund,
} from '../checkout.js';

/** GoCardless's events as its webhooks carry them, and what one says about a payment. */

export interface GoCardlessEvent {
  id?: string;
  action?: string;
  resource_type?: string;
  details?: {
    origin?: string;
    cause?: string;
    description?: string;
    scheme?: string;
    reason_code?: string;
  };
  links?: {
    payment?: string;
    refund?: string;
    billing_request?: string;
    organisation?: string;
  };
  resource_metadata?: Record<string, string>;
}

/** Where the payment transaction id travels in GoCardless's metadata. */
export const metadataKey = 'ledgerline_payment_id';

/** Payment event actions that move a payment (the others say nothing about its status). */
const paymentActions: Record<string, CheckoutPaymentStatus> = {
  created: 'Processing',
  submitted: 'Processing',
  confirmed: 'Paid',
  paid_out: 'Paid',
  failed: 'Failed',
  // The late failure GoCardless had already paid out, now taken back from a payout.
  late_failure_settled: 'Failed',
  cancelled: 'Cancelled',
  customer_approval_denied: 'Rejected',
};

/**
 * Payment actions that say the money is gone even if the payment had succeeded: a `failed` after
 * `confirmed`/`paid_out` is a late failure, and GoCardless sends `failed` once whatever came
 * before, so every `failed` carries the flag (docs/decisions/091-refunds-disputes-and-late-failures-from-stripe.md, "GoCardless refunds, chargebacks
 * and late failures").
 */
const lateFailureActions = new Set(['failed', 'late_failure_settled']);

/** Chargebacks: the payer's bank took the money back (Lost) or cancelled that (Won). */
const chargebackStages: Record<string, NotificationDispute['stage']> = {
  charged_back: 'Lost',
  chargeback_cancelled: 'Won',
};

/** Refund actions as a refund's status (`bounced` as an action is not confirmed: read alike). */
const refundActions: Record<string, NotificationRefund['status']> = {
  created: 'Pending',
  paid: 'Succeeded',
  refund_settled: 'Succeeded',
  failed: 'Failed',
  funds_returned: 'Failed',
  bounced: 'Failed',
  cancelled: 'Failed',
};

const billingRequestActions: Record<string, CheckoutPaymentStatus> = {
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/** What one GoCardless event says about one payment (reference/providers.md, "Refunds"). */
export function eventOf(event: GoCardlessEvent): NotificationEvent {
  const action = event.action ?? '';
  const details = event.details ?? {};
  let status: CheckoutPaymentStatus | null = null;
  let providerReference: string | null = null;
  let refund: NotificationRefund | undefined;
  let dispute: NotificationDispute | undefined;
  let lateFailure = false;
  if (event.resource_type === 'payments') {
    providerReference = event.links?.payment ?? null;
    const stage = chargebackStages[action];
    if (stage && providerReference)
      // GoCardless has no dispute id: the payment's stands for its chargeback.
      dispute = {
        disputeReference: providerReference,
        stage,
        amount: null,
        reason: details.cause ?? null,
        respondBy: null,
      };
    else {
      status = paymentActions[action] ?? null;
      lateFailure = lateFailureActions.has(action);
    }
  } else if (event.resource_type === 'billing_requests') {
    status = billingRequestActions[action] ?? null;
    providerReference = event.links?.billing_request ?? null;
  } else if (event.resource_type === 'refunds') {
    providerReference = event.links?.payment ?? null;
    const refundStatus = refundActions[action];
    if (refundStatus && event.links?.refund)
      refund = {
        refundReference: event.links.refund,
        // A refund event carries no amount: the refund staff made says it.
        amount: null,
        status: refundStatus,
        reason: refundStatus === 'Failed' ? (details.description ?? details.cause ?? null) : null,
      };
  }
  return {
    eventId: event.id!,
    paymentTransactionId: event.resource_metadata?.[metadataKey] ?? null,
    providerReference,
    status,
    eventType: `${event.resource_type ?? 'unknown'}.${action}`,
    payload: JSON.stringify(event),
    errorMessage:
      status === 'Failed' || status === 'Rejected' || status === 'Cancelled' || dispute
        ? (details.description ?? null)
        : null,
    // Partner apps: the merchant's organisation the event happened in.
    account: event.links?.organisation ?? null,
    ...(lateFailure ? { lateFailure: true } : {}),
    ...(refund ? { refund } : {}),
    ...(dispute ? { dispute } : {}),
  };
}
