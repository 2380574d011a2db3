import Big from 'big.js';
import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderOutcome,
  RefundCall,
  RefundOutcome,
} from '../adapter.js';
import { exchangeOf, missingConfiguration } from '../exchange.js';
import { providerFetch, ProviderUnreachableError, type ProviderAnswer } from '../http.js';
import { minorUnits } from '../money.js';

interface GoCardlessErrorBody {
  error?: {
    message?: string;
    type?: string;
    errors?: {
      reason?: string;
      field?: string;
      message?: string;
      links?: { conflicting_resource_id?: string };
    }[];
  };
}

interface Refund {
  id?: string;
  amount?: number | string;
  currency?: string;
  status?: string;
}

/** Where our ids travel in a refund's metadata (at most three keys; reference/providers.md). */
const paymentKey = 'ledgerline_payment_id';
const refundKey = 'ledgerline_refund_id';

/** GoCardless's words for a refusal: the first error's reason text, else the envelope's message. */
function refusalOf(body: GoCardlessErrorBody | null, answer: ProviderAnswer): string {
  const first = body?.error?.errors?.[0];
  if (first?.message)
    return `GoCardless refused the refund: ${first.field ? `${first.field} ${first.message}` : first.message}`;
  return `GoCardless refused the refund: ${body?.error?.message ?? `HTTP ${answer.status}`}`;
}

const notHeld = (kind: string): ProviderOutcome => {
  const errorMessage = `GoCardless payments are never held for ${kind}: a direct debit is collected on its charge date.`;
  return {
    ok: false,
    errorMessage,
    exchange: exchangeOf({
      eventType: `payment.${kind}`,
      recordType: 'payment',
      recordId: null,
      status: 'not_sent',
      request: { method: 'none', url: '' },
      response: { error: errorMessage },
    }),
  };
};

/**
 * GoCardless refunds (`POST /refunds`) on the merchant's access token: the payment's
 * `PM…` id, the amount in minor units and `total_amount_confirmation` (every refund of the
 * payment including this one, so two refunds made unaware of each other are refused), with our
 * refund's id as the Idempotency-Key. A refund is `created` first and finishes by its webhook
 * (`paid`, `refund_settled`; or `failed`, `funds_returned`), so a made refund is pending.
 */
export function createGoCardlessAdapter(options: {
  live: boolean;
  apiUrl?: string;
  timeoutMs: number;
}): PaymentProviderAdapter {
  const api = (
    options.apiUrl ??
    (options.live ? 'https://api.gocardless.com' : 'https://api-sandbox.gocardless.com')
  ).replace(/\/$/, '');
  const headers = (accessToken: string, idempotencyKey?: string): Record<string, string> => ({
    authorization: `Bearer ${accessToken}`,
    'gocardless-version': '2015-07-06',
    accept: 'application/json',
    ...(idempotencyKey
      ? { 'content-type': 'application/json', 'idempotency-key': idempotencyKey }
      : {}),
  });
  const get = (accessToken: string, path: string) =>
    providerFetch('GoCardless', `${api}${path}`, {
      method: 'GET',
      headers: headers(accessToken),
      timeoutMs: options.timeoutMs,
    });

  async function refund(call: RefundCall): Promise<RefundOutcome> {
    const eventType = 'refund.create';
    const accessToken = call.configuration?.credentials.accessToken;
    const payment = call.providerReference;
    if (typeof accessToken !== 'string' || !accessToken || !payment)
      return missingConfiguration('GoCardless', eventType);
    const url = `${api}/refunds`;
    const unreachable = (error: ProviderUnreachableError, request: object): RefundOutcome => ({
      ok: false,
      errorMessage: error.message,
      exchange: exchangeOf({
        eventType,
        recordType: 'refund',
        recordId: null,
        status: 'unreachable',
        request: request as { method: string; url: string },
        response: { error: error.message },
      }),
    });
    if (!payment.startsWith('PM')) {
      const errorMessage = 'The GoCardless payment is not known yet: nothing can be refunded.';
      return {
        ok: false,
        errorMessage,
        exchange: exchangeOf({
          eventType,
          recordType: 'refund',
          recordId: payment,
          status: 'not_sent',
          request: { method: 'none', url: '' },
          response: { error: errorMessage },
        }),
      };
    }
    const amount = Number(minorUnits(call.amount, call.currency));
    let before: number;
    if (call.alreadyRefunded != null)
      before = Number(minorUnits(call.alreadyRefunded, call.currency));
    else {
      // The books did not say: the payment's own amount_refunded is what GoCardless counts.
      const path = `/payments/${encodeURIComponent(payment)}`;
      try {
        const answer = await get(accessToken, path);
        const read = answer.json<{ payments?: { amount_refunded?: number | string } }>();
        before = Number(read?.payments?.amount_refunded ?? 0);
      } catch (error) {
        if (error instanceof ProviderUnreachableError)
          return unreachable(error, { method: 'GET', url: `${api}${path}` });
        throw error;
      }
    }
    const body = {
      refunds: {
        amount,
        total_amount_confirmation: new Big(before).plus(amount).toNumber(),
        metadata: {
          [paymentKey]: call.paymentTransactionId,
          [refundKey]: call.refundTransactionId,
          ...(call.reason ? { reason: call.reason.slice(0, 500) } : {}),
        },
        links: { payment },
      },
    };
    const request = { method: 'POST', url, body };
    try {
      let answer = await providerFetch('GoCardless', url, {
        method: 'POST',
        headers: headers(accessToken, call.refundTransactionId),
        body: JSON.stringify(body),
        timeoutMs: options.timeoutMs,
      });
      let made = answer.json<{ refunds?: Refund } & GoCardlessErrorBody>();
      // The same refund asked again: GoCardless names the one the first call made.
      const conflict = made?.error?.errors?.find(
        (e) => e.reason === 'idempotent_creation_conflict',
      );
      const earlier = conflict?.links?.conflicting_resource_id;
      if (answer.status === 409 && earlier) {
        answer = await get(accessToken, `/refunds/${encodeURIComponent(earlier)}`);
        made = answer.json<{ refunds?: Refund } & GoCardlessErrorBody>();
      }
      const refundMade = made?.refunds;
      const exchange = exchangeOf({
        eventType,
        recordType: 'refund',
        recordId: refundMade?.id ?? null,
        status:
          refundMade?.status ??
          made?.error?.errors?.[0]?.reason ??
          made?.error?.type ??
          `http_${answer.status}`,
        request,
        response: { status: answer.status, body: answer.text },
      });
      if (!refundMade?.id || answer.status >= 300)
        return { ok: false, errorMessage: refusalOf(made, answer), exchange };
      if (refundMade.status === 'cancelled' || refundMade.status === 'bounced')
        return {
          ok: false,
          errorMessage: `GoCardless did not make the refund (${refundMade.status}).`,
          refundReference: refundMade.id,
          exchange,
        };
      return {
        ok: true,
        refundReference: refundMade.id,
        pending: refundMade.status !== 'paid',
        exchange,
      };
    } catch (error) {
      if (error instanceof ProviderUnreachableError) return unreachable(error, request);
      throw error;
    }
  }

  return {
    name: 'GoCardless',
    capture: async (_call: PendingPaymentCall) => notHeld('capture'),
    cancel: async (_call: PendingPaymentCall) => notHeld('cancel'),
    refund,
  };
}
