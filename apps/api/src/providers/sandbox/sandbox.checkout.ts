import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type {
  CheckoutAdapter,
  CheckoutPaymentStatus,
  NotificationEvent,
  VerifiedNotification,
} from '../checkout.js';

/** The header a Sandbox notification carries: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const sandboxSignatureHeader = 'sandbox-signature';

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
 * SANDBOX_NOTIFICATION_KEY (docs/decisions.md "Sandbox notifications are signed"). Null when the
 * server has no key: Sandbox notifications are then refused.
 */
export function sandboxNotificationSecret(
  key: string | undefined,
  configurationId: string,
): string | null {
  if (!key) return null;
  return createHmac('sha256', key).update(`sandbox-notifications:${configurationId}`).digest('hex');
}

/** Signs a body as the Sandbox does: the value of the Sandbox-Signature header. */
export function signSandboxNotification(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

interface SandboxEventBody {
  id?: unknown;
  type?: unknown;
  data?: { paymentId?: unknown; reference?: unknown; status?: unknown; message?: unknown };
}

/**
 * Ledgerline's own test provider on the payer page (issue 14): the page shows its test card form
 * (POST pay/{id}/payments/{paymentId}/sandbox), so a checkout starts without leaving the site and
 * no money moves. It sends no status of its own (the card form decides at once); its notifications
 * are signed JSON `{ id, type, data: { paymentId, reference, status, message } }` with the
 * configuration's secret, so the notification path is tried end to end without a real provider.
 */
export function createSandboxCheckout(options: { notificationKey?: string }): CheckoutAdapter {
  return {
    name: 'Sandbox',
    async start(input) {
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
    },
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
      const expected = Buffer.from(signSandboxNotification(secret, input.rawBody));
      const received = Buffer.from(given);
      if (expected.length !== received.length || !timingSafeEqual(expected, received))
        return { ok: false, statusCode: 401, body: 'Invalid signature' };
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
      };
      return { ok: true, events: [event] };
    },
  };
}
