import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderOutcome,
  RefundCall,
  RefundOutcome,
} from '../adapter.js';
import { textOf } from '../checkout-support.js';
import { exchangeOf } from '../exchange.js';
import { providerFetch, ProviderUnreachableError } from '../http.js';
import { minorUnits } from '../money.js';
import {
  createTrueLayerCheckout,
  referenceOf,
  TrueLayerTokenError,
  type TrueLayerHosts,
} from './truelayer.checkout.js';
import { tlSignRequest } from './truelayer.signing.js';

/** TrueLayer's problem document (RFC 7807) as its v3 API answers a refusal. */
interface Problem {
  id?: string;
  type?: string;
  title?: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

const notSent = (eventType: string, errorMessage: string, recordId: string | null = null) => ({
  ok: false as const,
  errorMessage,
  exchange: exchangeOf({
    eventType,
    recordType: 'refund',
    recordId,
    status: 'not_sent',
    request: { method: 'none', url: '' },
    response: { error: errorMessage },
  }),
});

const notHeld = (kind: string): ProviderOutcome =>
  notSent(
    `payment.${kind}`,
    `TrueLayer payments are never held for ${kind}: the payer's bank pays at once.`,
  );

/**
 * TrueLayer refunds: `POST /v3/payments/{id}/refunds` on the v3 API host with the
 * client's token, an Idempotency-Key (our refund's id) and a Tl-Signature made with the merchant's
 * request signing key (credentials `signingKeyId`, `signingPrivateKey`). TrueLayer answers with
 * the refund's id only; the refund stays pending until `refund_executed` or `refund_failed`.
 * Only payments into a TrueLayer merchant account (v3) can be refunded (docs/decisions/091-refunds-disputes-and-late-failures-from-stripe.md,
 * "TrueLayer refunds through v3").
 */
export function createTrueLayerAdapter(
  options: TrueLayerHosts & {
    timeoutMs: number;
    now?: () => number;
  },
): PaymentProviderAdapter {
  const tokens = createTrueLayerCheckout(options);

  async function refund(call: RefundCall): Promise<RefundOutcome> {
    const eventType = 'refund.create';
    const credentials = call.configuration?.credentials ?? {};
    const keyId = textOf(credentials, 'signingKeyId');
    const privateKeyPem = textOf(credentials, 'signingPrivateKey');
    const payment = call.providerReference;
    if (!call.configuration || !textOf(credentials, 'clientId') || !payment)
      return notSent(
        eventType,
        "The payment's TrueLayer configuration is missing or not connected.",
      );
    if (!keyId || !privateKeyPem)
      return notSent(
        eventType,
        "The TrueLayer configuration has no request signing key: refund this payment in TrueLayer's console.",
      );
    if (call.currency !== 'GBP')
      return notSent(eventType, 'TrueLayer refunds are made in GBP only.');
    const base = (
      credentials.useSandbox === true ? options.apiSandboxUrl : options.apiLiveUrl
    ).replace(/\/$/, '');
    const url = `${base}/v3/payments/${encodeURIComponent(payment)}/refunds`;
    const body = {
      amount_in_minor: Number(minorUnits(call.amount, call.currency)),
      // What the payer's statement shows: the payment's reference, as Faster Payments carries it.
      reference: referenceOf(
        call.ledgerlineReference ?? `Refund ${call.refundTransactionId.slice(0, 8)}`,
        {},
      ),
      metadata: {
        ledgerlinePaymentId: call.paymentTransactionId,
        ledgerlineRefundId: call.refundTransactionId,
      },
    };
    const request = { method: 'POST', url, body };
    let accessToken: string;
    try {
      accessToken = await tokens.token(call.configuration);
    } catch (error) {
      if (error instanceof TrueLayerTokenError)
        return {
          ok: false,
          errorMessage: error.message,
          exchange: exchangeOf({
            eventType: 'token',
            recordType: 'token',
            recordId: null,
            status: 'refused',
            request: { method: 'POST', url: 'connect/token' },
            response: { error: error.message },
          }),
        };
      if (error instanceof ProviderUnreachableError)
        return {
          ok: false,
          errorMessage: error.message,
          exchange: exchangeOf({
            eventType: 'token',
            recordType: 'token',
            recordId: null,
            status: 'unreachable',
            request: { method: 'POST', url: 'connect/token' },
            response: { error: error.message },
          }),
        };
      throw error;
    }
    let signature: string;
    const text = JSON.stringify(body);
    try {
      signature = tlSignRequest({
        privateKeyPem,
        keyId,
        method: 'POST',
        path: new URL(url).pathname,
        headers: [['Idempotency-Key', call.refundTransactionId]],
        body: text,
      });
    } catch {
      return notSent(
        eventType,
        'The TrueLayer request signing key could not be read (an EC P-521 private key in PEM).',
      );
    }
    const send = () =>
      providerFetch('TrueLayer', url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'idempotency-key': call.refundTransactionId,
          'tl-signature': signature,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: text,
        timeoutMs: options.timeoutMs,
      });
    try {
      // One retry of a call that got no answer: the same Idempotency-Key and body replay the first.
      const answer = await send().catch((error: unknown) => {
        if (error instanceof ProviderUnreachableError) return send();
        throw error;
      });
      const made = answer.json<Problem>();
      const ok = answer.status >= 200 && answer.status < 300 && Boolean(made?.id);
      const exchange = exchangeOf({
        eventType,
        recordType: 'refund',
        recordId: ok ? made!.id! : null,
        status: ok ? 'pending' : (made?.title ?? `http_${answer.status}`),
        request,
        response: { status: answer.status, body: answer.text },
      });
      if (!ok) {
        const detail = made?.detail ?? made?.title ?? `HTTP ${answer.status}`;
        const fields = Object.entries(made?.errors ?? {})
          .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
          .join('; ');
        return {
          ok: false,
          errorMessage: `TrueLayer refused the refund: ${detail}${fields ? ` (${fields})` : ''}`,
          exchange,
        };
      }
      return { ok: true, refundReference: made!.id!, pending: true, exchange };
    } catch (error) {
      if (error instanceof ProviderUnreachableError)
        return {
          ok: false,
          errorMessage: error.message,
          exchange: exchangeOf({
            eventType,
            recordType: 'refund',
            recordId: null,
            status: 'unreachable',
            request,
            response: { error: error.message },
          }),
        };
      throw error;
    }
  }

  return {
    name: 'TrueLayer',
    capture: async (_call: PendingPaymentCall) => notHeld('capture'),
    cancel: async (_call: PendingPaymentCall) => notHeld('cancel'),
    refund,
  };
}
