import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProviderExchange } from './adapter.js';
import type { CheckoutConfiguration, CheckoutStatus, VerifiedNotification } from './checkout.js';
import { exchangeOf } from './exchange.js';
import { ProviderUnreachableError, type ProviderAnswer } from './http.js';

/**
 * A checkout that could not be started: the provider refused it, did not answer, or the
 * configuration lacks what the call needs. `message` is fit for the payer ('Stripe could not
 * start the payment: …'); `exchange` is what was sent and received (credentials left out), for
 * the provider event the payer-page service records.
 */
export class CheckoutStartError extends Error {
  constructor(
    message: string,
    readonly exchange: ProviderExchange,
    /** The provider did not answer (timeout or network): nothing is known about the call. */
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/** One header, whatever its case, the first value when repeated. */
export function headerOf(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Hex HMAC-SHA256 of `content` keyed with `secret` as it is (Stripe, GoCardless). */
export const hmacHex = (secret: string, content: string | Buffer) =>
  createHmac('sha256', secret).update(content).digest('hex');

/** Two hex digests compared in constant time (false for anything that is not hex of one length). */
export function sameHex(expected: string, given: string): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}

export const refused = (statusCode: number, body: string): VerifiedNotification => ({
  ok: false,
  statusCode,
  body,
});

/** A credential or setting of a configuration as a non-empty string, or null. */
export function textOf(source: Record<string, unknown>, key: string): string | null {
  const value = source[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** A start call's exchange when the configuration lacks what the call needs: nothing was sent. */
export function notSent(provider: string, eventType: string, what: string): CheckoutStartError {
  const message = `The ${provider} configuration is not ready to take payments: ${what}.`;
  return new CheckoutStartError(
    message,
    exchangeOf({
      eventType,
      recordType: 'configuration',
      recordId: null,
      status: 'not_sent',
      request: { method: 'none', url: '' },
      response: { error: message },
    }),
  );
}

/**
 * Runs a start call; a provider that did not answer becomes a CheckoutStartError with the
 * exchange recorded as `unreachable`.
 */
export async function startCall<T>(
  provider: string,
  eventType: string,
  recordType: string,
  request: { method: string; url: string; body?: unknown },
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ProviderUnreachableError)) throw error;
    throw new CheckoutStartError(
      `${provider} could not be reached; please try again in a moment.`,
      exchangeOf({
        eventType,
        recordType,
        recordId: null,
        status: 'unreachable',
        request,
        response: { error: error.message },
      }),
      true,
    );
  }
}

/**
 * Runs a status call; a provider that did not answer leaves the payment Processing (the page
 * keeps polling), with the exchange recorded as `unreachable`.
 */
export async function statusCall(
  eventType: string,
  recordType: string,
  recordId: string | null,
  request: { method: string; url: string; body?: unknown },
  call: () => Promise<CheckoutStatus>,
): Promise<CheckoutStatus> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ProviderUnreachableError)) throw error;
    return {
      status: 'Processing',
      exchange: exchangeOf({
        eventType,
        recordType,
        recordId,
        status: 'unreachable',
        request,
        response: { error: error.message },
      }),
    };
  }
}

/** The exchange of one answered call. */
export function answered(
  eventType: string,
  recordType: string,
  recordId: string | null,
  status: string,
  request: { method: string; url: string; body?: unknown },
  answer: ProviderAnswer,
): ProviderExchange {
  return exchangeOf({
    eventType,
    recordType,
    recordId,
    status,
    request,
    response: { status: answer.status, body: answer.text },
  });
}

export type { CheckoutConfiguration };
