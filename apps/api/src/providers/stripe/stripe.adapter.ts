import type { PaymentProviderAdapter, PendingPaymentCall, ProviderOutcome } from '../adapter.js';
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

  return {
    name: 'Stripe',
    capture: (call) => act('capture', call),
    cancel: (call) => act('cancel', call),
  };
}
