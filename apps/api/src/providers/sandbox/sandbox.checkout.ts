import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type {
  CheckoutAdapter,
  CheckoutStart,
  CheckoutStartInput,
  CheckoutPaymentStatus,
  NotificationEvent,
  VerifiedNotification,
} from '../checkout.js';

/**
 * The header a Sandbox notification carries: `t=<unix seconds>,sha256=<hex HMAC-SHA256 of
 * "{t}.{raw body}">`, as Stripe-Signature does: the time is signed with the body, so a
 * notification replayed later is refused.
 */
export const sandboxSignatureHeader = 'sandbox-signature';
/** How far a notification's signed time may be from ours, either way (seconds). */
export const sandboxNotificationTolerance = 300;

const statuses: readonly CheckoutPaymentStatus[] = [
  'Processing',
  'Pending',
  'Paid',
  'Failed',
  'NotAuthorised',
  'Rejected',
  'Cancelled',
];

/**
 * A Sandbox configuration's notification secret: HMAC-SHA256 of its id under the server's
 * SANDBOX_NOTIFICATION_KEY (docs/decisions/075-sandbox-notifications-are-signed.md "Sandbox notifications are signed"). Null when the
 * server has no key: Sandbox notifications are then refused.
 */
export function sandboxNotificationSecret(
  key: string | undefined,
  configurationId: string,
): string | null {
  if (!key) return null;
  return createHmac('sha256', key).update(`sandbox-notifications:${configurationId}`).digest('hex');
}

const signatureOf = (secret: string, timestamp: number, rawBody: Buffer | string) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

/**
 * Signs a body as the Sandbox does, at `timestamp` (unix seconds, now by default): the value of
 * the Sandbox-Signature header.
 */
export function signSandboxNotification(
  secret: string,
  rawBody: Buffer | string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},sha256=${signatureOf(secret, timestamp, rawBody)}`;
}

const signaturePattern = /^t=(\d{1,12}),sha256=([0-9a-f]{64})$/;

interface SandboxEventBody {
  id?: unknown;
  type?: unknown;
  data?: {
    paymentId?: unknown;
    reference?: unknown;
    status?: unknown;
    message?: unknown;
    /** The money went back after the payment had succeeded (with status Failed). */
    lateFailure?: unknown;
    /** `{ reference, amount, status: Succeeded|Pending|Failed, reason }` */
    refund?: Record<string, unknown>;
    /** `{ reference, stage: Opened|UnderReview|Won|Lost, amount, currency, reason, respondBy }` */
    dispute?: Record<string, unknown>;
  };
}

const text = (value: unknown, max = 200) =>
  typeof value === 'string' && value.length > 0 && value.length <= max ? value : null;
/** A decimal amount in major units, as the Sandbox sends it ("12.50"), or null. */
const decimal = (value: unknown) =>
  typeof value === 'string' && /^\d{1,15}(\.\d{1,4})?$/.test(value)
    ? value
    : typeof value === 'number' && Number.isFinite(value) && value >= 0
      ? String(value)
      : null;

function refundOf(data: Record<string, unknown> | undefined): NotificationEvent['refund'] {
  const reference = text(data?.reference);
  const status = (['Succeeded', 'Pending', 'Failed'] as const).find((s) => s === data?.status);
  if (!reference || !status) return undefined;
  return {
    refundReference: reference,
    amount: decimal(data?.amount),
    status,
    reason: text(data?.reason, 500),
  };
}

function disputeOf(data: Record<string, unknown> | undefined): NotificationEvent['dispute'] {
  const reference = text(data?.reference);
  const stage = (['Opened', 'UnderReview', 'Won', 'Lost'] as const).find((s) => s === data?.stage);
  if (!reference || !stage) return undefined;
  const respondBy = text(data?.respondBy, 40);
  return {
    disputeReference: reference,
    stage,
    amount: decimal(data?.amount),
    currency: text(data?.currency, 3),
    reason: text(data?.reason, 500),
    respondBy:
      respondBy && !Number.isNaN(Date.parse(respondBy)) ? new Date(respondBy).toISOString() : null,
  };
}

/** A checkout of the Sandbox: its reference, and the test card form next. */
async function sandboxStart(input: CheckoutStartInput): Promise<CheckoutStart> {
  const reference = `sbx_pay_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  return {
    next: { kind: 'sandbox' },
    providerReference: reference,
    exchange: {
      eventType: 'payment.created',
      recordType: 'payment',
      recordId: reference,
      status: 'requires_payment_method',
      payload: JSON.stringify(
        {
          request: {
            amount: input.amount,
            currency: input.currency,
            captureType: input.captureType,
            reference: input.ledgerlineReference,
          },
          response: { id: reference, object: 'payment', status: 'requires_payment_method' },
        },
        null,
        2,
      ),
    },
  };
}

/**
 * Ledgerline's own test provider on the payer page: the page shows its test card form
 * (POST pay/{id}/payments/{paymentId}/sandbox), so a checkout starts without leaving the site and
 * no money moves. It sends no status of its own (the card form decides at once); its notifications
 * are signed JSON `{ id, type, data: { paymentId, reference, status, message } }` with the
 * configuration's secret, so the notification path is tried end to end without a real provider.
 * `data.refund` reports a refund (one staff made, by its reference, or one of its own),
 * `data.dispute` a dispute or chargeback, `data.lateFailure: true` with status Failed a payment
 * whose money went back after it had succeeded (docs/api.md "Sandbox provider").
 */
export function createSandboxCheckout(options: {
  notificationKey?: string;
  /** The clock, in whole seconds (the notification tolerance). */
  now?: () => number;
}): CheckoutAdapter {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return {
    name: 'Sandbox',
    start: sandboxStart,
    async status(input) {
      // The Sandbox keeps no state of its own: the card form settles the payment directly.
      return {
        status: 'Processing',
        providerReference: input.providerReference,
        exchange: {
          eventType: 'payment.status',
          recordType: 'payment',
          recordId: input.providerReference,
          status: 'processing',
          payload: JSON.stringify({ id: input.providerReference, status: 'processing' }),
        },
      };
    },
    verifyNotification(input): VerifiedNotification {
      const secret = sandboxNotificationSecret(options.notificationKey, input.configuration.id);
      const header = input.headers[sandboxSignatureHeader];
      const given = typeof header === 'string' ? header : null;
      if (!secret || !given) return { ok: false, statusCode: 401, body: 'Missing signature' };
      const parts = signaturePattern.exec(given);
      if (!parts) return { ok: false, statusCode: 401, body: 'Invalid signature' };
      const timestamp = Number(parts[1]);
      const expected = Buffer.from(signatureOf(secret, timestamp, input.rawBody), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(parts[2]!, 'hex')))
        return { ok: false, statusCode: 401, body: 'Invalid signature' };
      // Checked once the time is known to be the Sandbox's own.
      if (Math.abs(now() - timestamp) > sandboxNotificationTolerance)
        return { ok: false, statusCode: 401, body: 'Notification timestamp outside the tolerance' };
      let body: SandboxEventBody;
      try {
        body = JSON.parse(input.rawBody.toString('utf8')) as SandboxEventBody;
      } catch {
        return { ok: false, statusCode: 400, body: 'Body is not JSON' };
      }
      if (typeof body.id !== 'string' || body.id.length === 0 || body.id.length > 200)
        return { ok: false, statusCode: 400, body: 'Event id missing' };
      const data = body.data ?? {};
      const status = statuses.find((s) => s === data.status) ?? null;
      const event: NotificationEvent = {
        eventId: body.id,
        paymentTransactionId: typeof data.paymentId === 'string' ? data.paymentId : null,
        providerReference: typeof data.reference === 'string' ? data.reference : null,
        status,
        eventType: typeof body.type === 'string' ? body.type : 'payment.updated',
        payload: input.rawBody.toString('utf8'),
        errorMessage: typeof data.message === 'string' ? data.message : null,
        ...(data.lateFailure === true ? { lateFailure: true } : {}),
      };
      const refund = refundOf(data.refund);
      const dispute = disputeOf(data.dispute);
      if (refund) event.refund = refund;
      if (dispute) event.dispute = dispute;
      return { ok: true, events: [event] };
    },
  };
}
