import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderOutcome,
  RefundCall,
  RefundOutcome,
} from '../adapter.js';
import { exchangeOf, missingConfiguration, outcomeOf } from '../exchange.js';
import { formBody, providerFetch, ProviderUnreachableError } from '../http.js';
import { minorUnits } from '../money.js';

interface PaymentIntentAnswer {
  id?: string;
  status?: string;
  error?: { code?: string; message?: string };
}

/**
 * Stripe Connect payments on the merchant's account (header Stripe-Account): a PaymentIntent
 * made with capture_method=manual is captured (`amount_to_capture`, once) or cancelled. Each call
 * carries an Idempotency-Key, so a retry after a lost answer cannot capture twice.
 */
export function createStripeAdapter(options: {
  apiUrl: string;
  secretKey: string | undefined;
  timeoutMs: number;
}): PaymentProviderAdapter {
  const api = options.apiUrl.replace(/\/$/, '');

  async function act(
    kind: 'capture' | 'cancel',
    call: PendingPaymentCall,
  ): Promise<ProviderOutcome> {
    const eventType = kind === 'capture' ? 'payment_intent.capture' : 'payment_intent.cancel';
    const account = call.configuration?.credentials.stripeAccountId;
    if (typeof account !== 'string' || !account || !options.secretKey || !call.providerReference)
      return missingConfiguration('Stripe', eventType);
    const url = `${api}/v1/payment_intents/${encodeURIComponent(call.providerReference)}/${kind}`;
    const fields: Record<string, string> =
      kind === 'capture'
        ? { amount_to_capture: minorUnits(call.amount, call.currency) }
        : { cancellation_reason: 'requested_by_customer' };
    const request = { method: 'POST', url, body: { ...fields, stripeAccount: account } };
    return outcomeOf(
      async () => {
        const send = () =>
          providerFetch('Stripe', url, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${options.secretKey}`,
              'stripe-account': account,
              'idempotency-key': `${call.paymentTransactionId}-${kind}-${fields.amount_to_capture ?? 'all'}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: formBody(fields),
            timeoutMs: options.timeoutMs,
          });
        // One retry of a call that got no answer: the same Idempotency-Key makes Stripe replay
        // the first outcome instead of capturing twice.
        const answer = await send().catch((error: unknown) => {
          if (error instanceof ProviderUnreachableError) return send();
          throw error;
        });
        const body = answer.json<PaymentIntentAnswer>();
        const expected = kind === 'capture' ? 'succeeded' : 'canceled';
        const exchange = exchangeOf({
          eventType,
          recordType: 'payment_intent',
          recordId: body?.id ?? call.providerReference,
          status: body?.status ?? body?.error?.code ?? `http_${answer.status}`,
          request,
          response: { status: answer.status, body: answer.text },
        });
        if (answer.status === 200 && body?.status === expected) return { ok: true, exchange };
        return {
          ok: false,
          errorMessage: body?.error?.message ?? `Stripe answered HTTP ${answer.status}.`,
          exchange,
        };
      },
      (error) => ({
        ok: false,
        errorMessage: error.message,
        exchange: exchangeOf({
          eventType,
          recordType: 'payment_intent',
          recordId: call.providerReference,
          status: 'unreachable',
          request,
          response: { error: error.message },
        }),
      }),
    );
  }

  /**
   * A refund on the connected account (`POST /v1/refunds` with Stripe-Account: direct charges are
   * refunded by the account that took them), of the payment intent, in minor units, with our
   * refund's id as the Idempotency-Key so a retry after a lost answer cannot refund twice.
   */
  async function refund(call: RefundCall): Promise<RefundOutcome> {
    const eventType = 'refund.create';
    const account = call.configuration?.credentials.stripeAccountId;
    const reference = call.providerReference;
    if (typeof account !== 'string' || !account || !options.secretKey || !reference)
      return missingConfiguration('Stripe', eventType);
    if (!reference.startsWith('pi_') && !reference.startsWith('ch_'))
      return notRefundable(eventType, reference);
    const url = `${api}/v1/refunds`;
    const stripeReason = stripeReasonOf(call.reason);
    const fields: Record<string, string> = {
      [reference.startsWith('ch_') ? 'charge' : 'payment_intent']: reference,
      amount: minorUnits(call.amount, call.currency),
      ...(stripeReason ? { reason: stripeReason } : {}),
      'metadata[ledgerlinePaymentId]': call.paymentTransactionId,
      'metadata[ledgerlineRefundId]': call.refundTransactionId,
      ...(call.reason ? { 'metadata[ledgerlineReason]': call.reason.slice(0, 500) } : {}),
    };
    const request = { method: 'POST', url, body: { ...fields, stripeAccount: account } };
    const unreachable = (error: ProviderUnreachableError): RefundOutcome => ({
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
    });
    const send = () =>
      providerFetch('Stripe', url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          'stripe-account': account,
          'idempotency-key': call.refundTransactionId,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: formBody(fields),
        timeoutMs: options.timeoutMs,
      });
    try {
      // One retry of a call that got no answer: the same Idempotency-Key replays the first refund.
      const answer = await send().catch((error: unknown) => {
        if (error instanceof ProviderUnreachableError) return send();
        throw error;
      });
      const body = answer.json<RefundAnswer>();
      const exchange = exchangeOf({
        eventType,
        recordType: 'refund',
        recordId: body?.id ?? null,
        status: body?.status ?? body?.error?.code ?? `http_${answer.status}`,
        request,
        response: { status: answer.status, body: answer.text },
      });
      if (answer.status !== 200 || !body?.id)
        return {
          ok: false,
          errorMessage: body?.error?.message ?? `Stripe answered HTTP ${answer.status}.`,
          exchange,
        };
      if (body.status === 'failed' || body.status === 'canceled')
        return {
          ok: false,
          errorMessage: `Stripe did not make the refund (${body.failure_reason ?? body.status}).`,
          refundReference: body.id,
          exchange,
        };
      // pending and requires_action finish later: refund.updated says how.
      return {
        ok: true,
        refundReference: body.id,
        pending: body.status !== 'succeeded',
        exchange,
      };
    } catch (error) {
      if (error instanceof ProviderUnreachableError) return unreachable(error);
      throw error;
    }
  }

  return {
    name: 'Stripe',
    capture: (call) => act('capture', call),
    cancel: (call) => act('cancel', call),
    refund,
  };
}

interface RefundAnswer {
  id?: string;
  status?: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  failure_reason?: string | null;
  error?: { code?: string; message?: string };
}

/** Stripe's own refund reasons; staff's words that name one are sent as it, the rest as metadata. */
const stripeReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

function stripeReasonOf(reason: string | null): string | null {
  const key = reason
    ?.trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return stripeReasons.find((r) => r === key) ?? null;
}

/** A payment whose checkout never gave a payment intent cannot be refunded: nothing was taken. */
function notRefundable(eventType: string, reference: string): RefundOutcome {
  const errorMessage = 'The payment has no Stripe payment intent to refund.';
  return {
    ok: false,
    errorMessage,
    exchange: exchangeOf({
      eventType,
      recordType: 'refund',
      recordId: reference,
      status: 'not_sent',
      request: { method: 'none', url: '' },
      response: { error: errorMessage },
    }),
  };
}
