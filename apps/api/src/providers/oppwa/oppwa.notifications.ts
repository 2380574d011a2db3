import { createDecipheriv } from 'node:crypto';
import type {
  NotificationEvent,
  NotificationInput,
  NotificationRefund,
  VerifiedNotification,
} from '../checkout.js';
import { headerOf, refused, textOf } from '../checkout-support.js';
import { oppwaPending, oppwaSuccess, oppwaSuccessNeedingReview } from './oppwa.adapter.js';

/**
 * OPPWA's notifications (reference/providers.md "ACI Worldwide OPPWA"): the body is
 * hex of AES-256-GCM ciphertext, keyed with the listener's secret (64 hex characters, kept as the
 * configuration's `webhookSecret` credential), the IV in `X-Initialization-Vector` and the tag in
 * `X-Authentication-Tag` (both hex). A body that does not decrypt and authenticate under the key
 * is refused before anything of it is read. Inside: `{ type: PAYMENT | REGISTRATION | RISK,
 * payload }`, the payload as the payment answers give it.
 */
export const oppwaIvHeader = 'x-initialization-vector';
export const oppwaTagHeader = 'x-authentication-tag';

const hex = (value: string | undefined, bytes?: number) =>
  value !== undefined &&
  /^(?:[0-9a-f]{2})+$/i.test(value) &&
  (bytes === undefined || value.length === bytes * 2)
    ? Buffer.from(value, 'hex')
    : null;

/** The notification's plain text, or null when it is not this key's (or is malformed). */
export function decryptOppwaNotification(
  secret: string,
  iv: string | undefined,
  tag: string | undefined,
  body: string,
): string | null {
  const key = hex(secret, 32);
  const ivBytes = hex(iv);
  const tagBytes = hex(tag, 16);
  const cipherText = hex(body.trim());
  if (!key || !ivBytes || !tagBytes || !cipherText) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(cipherText), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

interface OppwaPayload {
  id?: unknown;
  referencedId?: unknown;
  paymentType?: unknown;
  amount?: unknown;
  currency?: unknown;
  merchantTransactionId?: unknown;
  result?: { code?: unknown; description?: unknown };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** A refund's outcome from its result code's class. */
function refundStatus(code: string): NotificationRefund['status'] {
  if (oppwaSuccess.test(code) || oppwaSuccessNeedingReview.test(code)) return 'Succeeded';
  if (oppwaPending.test(code)) return 'Pending';
  return 'Failed';
}

/**
 * One PAYMENT notification as an event. `RF` is a refund of the payment `referencedId` names
 * (staff's, matched by its id, or one made in OPPWA's own portal); `CB` a chargeback of it (Lost:
 * the issuer took the money back); `CR` the chargeback's reversal (Won). Other payment types (DB,
 * PA, CP, RV) are recorded but move nothing: the payment's outcome and its reference come from the
 * status call (docs/decisions/094-oppwa-notifications-refunds-and-chargebacks.md "OPPWA refunds and notifications").
 */
export function oppwaEvent(
  type: string,
  payload: OppwaPayload,
  raw: string,
): NotificationEvent | null {
  const id = text(payload.id);
  if (!id) return null;
  const paymentType = text(payload.paymentType) ?? '';
  const code = text(payload.result?.code) ?? '';
  const description = text(payload.result?.description);
  const amount = text(payload.amount);
  const currency = text(payload.currency);
  const referencedId = text(payload.referencedId);
  const base = {
    eventId: `${id}:${code || paymentType}`,
    paymentTransactionId: null,
    status: null,
    eventType: `${type.toLowerCase()}.${paymentType.toLowerCase() || 'unknown'}`,
    payload: raw,
  };
  if (paymentType === 'RF' && referencedId)
    return {
      ...base,
      providerReference: referencedId,
      refund: { refundReference: id, amount, status: refundStatus(code), reason: description },
    };
  if ((paymentType === 'CB' || paymentType === 'CR') && referencedId)
    return {
      ...base,
      providerReference: referencedId,
      dispute: {
        // OPPWA has no dispute id of its own: the payment's, so a CR finds its CB's dispute.
        disputeReference: referencedId,
        stage: paymentType === 'CB' ? 'Lost' : 'Won',
        amount,
        currency,
        reason: description,
        respondBy: null,
      },
    };
  // Only here is `amount` what the payment took: a refund's or a chargeback's amount is its own.
  return { ...base, providerReference: id, amount, currency };
}

export function verifyOppwaNotification(input: NotificationInput): VerifiedNotification {
  const secret = textOf(input.configuration.credentials, 'webhookSecret');
  if (!secret) return refused(401, 'No webhook secret is configured');
  const plain = decryptOppwaNotification(
    secret,
    headerOf(input.headers, oppwaIvHeader),
    headerOf(input.headers, oppwaTagHeader),
    input.rawBody.toString('utf8'),
  );
  if (plain === null) return refused(401, 'Invalid signature');
  let body: { type?: unknown; payload?: unknown };
  try {
    body = JSON.parse(plain) as typeof body;
  } catch {
    return refused(400, 'Body is not JSON');
  }
  const type = text(body.type) ?? '';
  // Registrations and risk checks say nothing about a payment's money: received, nothing stored.
  if (type !== 'PAYMENT' || typeof body.payload !== 'object' || body.payload === null)
    return { ok: true, events: [] };
  const event = oppwaEvent(type, body.payload as OppwaPayload, plain);
  return { ok: true, events: event ? [event] : [] };
}
