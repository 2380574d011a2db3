import type { PaymentProviderAdapter, PendingPaymentCall, ProviderOutcome } from '../adapter.js';
import { exchangeOf, missingConfiguration, outcomeOf } from '../exchange.js';
import { providerFetch } from '../http.js';
import { majorUnits } from '../money.js';
import { tranSafeRefund } from './transafe.refund.js';

interface TranSafeAnswer {
  code?: string;
  msoft_code?: string;
  verbiage?: string;
  ttid?: string;
}

/** A capture completes the preauth with the amount; a cancel reverses it. */
function requestOf(kind: 'capture' | 'cancel', base: string, call: PendingPaymentCall) {
  const ttid = encodeURIComponent(call.providerReference!);
  if (kind === 'cancel')
    return { method: 'DELETE', url: `${base}/api/v2/transaction/${ttid}`, body: undefined };
  return {
    method: 'PATCH',
    url: `${base}/api/v2/transaction/${ttid}/complete`,
    body: { money: { amount: majorUnits(call.amount, call.currency) } },
  };
}

/**
 * TranSafe (Monetra) REST v2: a preauth is completed (`PATCH transaction/{ttid}/complete`, the
 * amount in `money`) or reversed (`DELETE transaction/{ttid}`); `code: AUTH` is success.
 */
export function createTranSafeAdapter(options: {
  testUrl: string;
  liveUrl: string;
  timeoutMs: number;
}): PaymentProviderAdapter {
  async function act(
    kind: 'capture' | 'cancel',
    call: PendingPaymentCall,
  ): Promise<ProviderOutcome> {
    const eventType = kind === 'capture' ? 'transaction.complete' : 'transaction.reverse';
    const { userName, password } = call.configuration?.credentials ?? {};
    if (typeof userName !== 'string' || typeof password !== 'string' || !call.providerReference)
      return missingConfiguration('TranSafe', eventType);
    const base = (call.configuration!.isTest ? options.testUrl : options.liveUrl).replace(
      /\/$/,
      '',
    );
    const request = requestOf(kind, base, call);
    const { method, url, body } = request;
    return outcomeOf(
      async () => {
        const answer = await providerFetch('TranSafe', url, {
          method,
          headers: {
            authorization: `Basic ${Buffer.from(`${userName.replace(/:/g, '|')}:${password}`).toString('base64')}`,
            accept: 'application/json',
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
          timeoutMs: options.timeoutMs,
        });
        const answered = answer.json<TranSafeAnswer>();
        const exchange = exchangeOf({
          eventType,
          recordType: 'transaction',
          recordId: answered?.ttid ?? call.providerReference,
          status: answered?.code ?? `http_${answer.status}`,
          request,
          response: { status: answer.status, body: answer.text },
        });
        if (answered?.code === 'AUTH') return { ok: true, exchange };
        return {
          ok: false,
          errorMessage: answered?.verbiage ?? `TranSafe answered HTTP ${answer.status}.`,
          exchange,
        };
      },
      (error) => ({
        ok: false,
        errorMessage: error.message,
        exchange: exchangeOf({
          eventType,
          recordType: 'transaction',
          recordId: call.providerReference,
          status: 'unreachable',
          request,
          response: { error: error.message },
        }),
      }),
    );
  }
  return {
    name: 'TranSafe',
    capture: (call) => act('capture', call),
    cancel: (call) => act('cancel', call),
    // Refund, or reversal of a whole unsettled payment (transafe.refund.ts).
    refund: (call) =>
      call.configuration
        ? tranSafeRefund(call, {
            host: call.configuration.isTest ? options.testUrl : options.liveUrl,
            timeoutMs: options.timeoutMs,
          })
        : Promise.resolve(missingConfiguration('TranSafe', 'transaction.refund')),
  };
}
