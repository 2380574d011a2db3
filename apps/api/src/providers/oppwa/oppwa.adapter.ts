import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderOutcome,
  RefundCall,
  RefundOutcome,
} from '../adapter.js';
import { exchangeOf, missingConfiguration, outcomeOf } from '../exchange.js';
import { formBody, providerFetch, ProviderUnreachableError } from '../http.js';
import { majorUnits } from '../money.js';

interface OppwaAnswer {
  id?: string;
  paymentType?: string;
  result?: { code?: string; description?: string };
}

/** reference/providers.md: OPPWA's success codes (including test mode's 000.100.11x). */
export const oppwaSuccess = /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/;
/** Success that the processor flags for manual review: the money moved. */
export const oppwaSuccessNeedingReview = /^(000\.400\.0[^3]|000\.400\.100)/;
/** Pending: within about 30 minutes (000.200), or days later (800.400.5, 100.400.500). */
export const oppwaPending = /^(000\.200|800\.400\.5|100\.400\.500)/;

/**
 * ACI / PAY.ON OPPWA (card processor): a pre-authorisation (PA) is captured with a CP of the
 * amount, or reversed with an RV, by `POST /v1/payments/{id}` with the entity id (form) and the
 * Bearer access token.
 */
export function createOppwaAdapter(options: {
  testUrl: string;
  liveUrl: string;
  timeoutMs: number;
}): PaymentProviderAdapter {
  async function act(
    kind: 'capture' | 'cancel',
    call: PendingPaymentCall,
  ): Promise<ProviderOutcome> {
    const eventType = kind === 'capture' ? 'payment.capture' : 'payment.reversal';
    const credentials = call.configuration?.credentials ?? {};
    const { entityId, accessToken } = credentials;
    if (typeof entityId !== 'string' || typeof accessToken !== 'string' || !call.providerReference)
      return missingConfiguration('Total Processing', eventType);
    const base = (credentials.useSandbox === true ? options.testUrl : options.liveUrl).replace(
      /\/$/,
      '',
    );
    const url = `${base}/v1/payments/${encodeURIComponent(call.providerReference)}`;
    const fields: Record<string, string> =
      kind === 'capture'
        ? {
            entityId,
            amount: majorUnits(call.amount, call.currency),
            currency: call.currency,
            paymentType: 'CP',
          }
        : { entityId, paymentType: 'RV' };
    const request = { method: 'POST', url, body: fields };
    return outcomeOf(
      async () => {
        const answer = await providerFetch('Total Processing', url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        });
        const body = answer.json<OppwaAnswer>();
        const code = body?.result?.code ?? '';
        const exchange = exchangeOf({
          eventType,
          recordType: 'payment',
          recordId: body?.id ?? null,
          status: code || `http_${answer.status}`,
          request,
          response: { status: answer.status, body: answer.text },
        });
        if (oppwaSuccess.test(code)) return { ok: true, exchange };
        return {
          ok: false,
          errorMessage:
            body?.result?.description ?? `Total Processing answered HTTP ${answer.status}.`,
          exchange,
        };
      },
      (error) => ({
        ok: false,
        errorMessage: error.message,
        exchange: exchangeOf({
          eventType,
          recordType: 'payment',
          recordId: null,
          status: 'unreachable',
          request,
          response: { error: error.message },
        }),
      }),
    );
  }
  /**
   * An RF of the amount against the payment (a DB, or a PA that was captured: its own
   * id, which Ledgerline keeps as the reference), with our refund's id as merchantTransactionId so
   * OPPWA can block a duplicate. Success and success-for-review are refunded, 000.200 and the
   * other pending classes are pending (a notification finishes them), anything else is refused
   * with OPPWA's description.
   */
  async function refund(call: RefundCall): Promise<RefundOutcome> {
    const eventType = 'payment.refund';
    const credentials = call.configuration?.credentials ?? {};
    const { entityId, accessToken } = credentials;
    if (typeof entityId !== 'string' || typeof accessToken !== 'string' || !call.providerReference)
      return missingConfiguration('Total Processing', eventType);
    const base = (credentials.useSandbox === true ? options.testUrl : options.liveUrl).replace(
      /\/$/,
      '',
    );
    const url = `${base}/v1/payments/${encodeURIComponent(call.providerReference)}`;
    const fields: Record<string, string> = {
      entityId,
      amount: majorUnits(call.amount, call.currency),
      currency: call.currency,
      paymentType: 'RF',
      merchantTransactionId: call.refundTransactionId,
      ...(credentials.useSandbox === true ? { testMode: 'EXTERNAL' } : {}),
    };
    const request = { method: 'POST', url, body: fields };
    const exchangeWith = (
      status: string,
      recordId: string | null,
      response: { status: number; body: string } | { error: string },
    ) => exchangeOf({ eventType, recordType: 'payment', recordId, status, request, response });
    try {
      const answer = await providerFetch('Total Processing', url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: formBody(fields),
        timeoutMs: options.timeoutMs,
      });
      const body = answer.json<OppwaAnswer>();
      const code = body?.result?.code ?? '';
      const exchange = exchangeWith(code || `http_${answer.status}`, body?.id ?? null, {
        status: answer.status,
        body: answer.text,
      });
      if (oppwaSuccess.test(code) || oppwaSuccessNeedingReview.test(code))
        return { ok: true, refundReference: body?.id ?? null, exchange };
      if (oppwaPending.test(code))
        return { ok: true, pending: true, refundReference: body?.id ?? null, exchange };
      return {
        ok: false,
        errorMessage:
          body?.result?.description ?? `Total Processing answered HTTP ${answer.status}.`,
        exchange,
      };
    } catch (error) {
      if (!(error instanceof ProviderUnreachableError)) throw error;
      return {
        ok: false,
        errorMessage: error.message,
        exchange: exchangeWith('unreachable', null, { error: error.message }),
      };
    }
  }

  return {
    name: 'Oppwa',
    capture: (call) => act('capture', call),
    cancel: (call) => act('cancel', call),
    refund,
  };
}
