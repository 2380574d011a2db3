import type { PaymentProviderAdapter, PendingPaymentCall, ProviderOutcome } from '../adapter.js';
import { exchangeOf, missingConfiguration, outcomeOf } from '../exchange.js';
import { formBody, providerFetch } from '../http.js';
import { majorUnits } from '../money.js';

interface OppwaAnswer {
  id?: string;
  paymentType?: string;
  result?: { code?: string; description?: string };
}

/** reference/providers.md: OPPWA's success codes (including test mode's 000.100.11x). */
export const oppwaSuccess = /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/;

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
  return {
    name: 'Oppwa',
    capture: (call) => act('capture', call),
    cancel: (call) => act('cancel', call),
  };
}
