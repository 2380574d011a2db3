import Big from 'big.js';
import type { ProviderExchange, RefundCall, RefundOutcome } from '../adapter.js';
import { missingConfiguration } from '../exchange.js';
import { providerFetch, ProviderUnreachableError } from '../http.js';
import { majorUnits } from '../money.js';

interface TranSafeAnswer {
  code?: string;
  msoft_code?: string;
  phard_code?: string;
  verbiage?: string;
  ttid?: string;
  report?: { amount?: string; ttid?: string }[];
}

interface Step {
  request: { method: string; url: string; body?: unknown };
  response: { status: number; body: string } | { error: string };
}

/**
 * Refunds through TranSafe (Monetra REST v2), as Monetra's own Magento plug-in decides
 * (Monetra/monetra_magento2 Helper/MonetraInterface.php `refund()`): first
 * `GET report/unsettled?ttid=…`. A payment still unsettled is reversed whole
 * (`DELETE transaction/{ttid}`, then `DELETE transaction/{ttid}/void` when the reversal is
 * refused) when the refund is its whole unsettled amount, and refunded
 * (`POST transaction/{ttid}/refund`, `money.amount`) for less; a settled one is always refunded.
 * When the report cannot be read the refund is asked for (it is right in both cases, a reversal
 * only spares the payer a pending authorisation). `code: AUTH` is success; anything else is
 * refused with TranSafe's verbiage. Every call made is kept in the one provider event.
 */
export async function tranSafeRefund(
  call: RefundCall,
  options: { host: string; timeoutMs: number },
): Promise<RefundOutcome> {
  const eventType = 'transaction.refund';
  const { userName, password } = call.configuration?.credentials ?? {};
  if (typeof userName !== 'string' || typeof password !== 'string' || !call.providerReference)
    return missingConfiguration('TranSafe', eventType);
  const base = `${options.host.replace(/\/$/, '')}/api/v2`;
  const ttid = encodeURIComponent(call.providerReference);
  const authorization = `Basic ${Buffer.from(`${userName.replace(/:/g, '|')}:${password}`).toString('base64')}`;
  const steps: Step[] = [];
  const amount = majorUnits(call.amount, call.currency);

  async function send(method: string, url: string, body?: unknown) {
    const request = { method, url, ...(body ? { body } : {}) };
    try {
      const answer = await providerFetch('TranSafe', url, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        timeoutMs: options.timeoutMs,
      });
      steps.push({ request, response: { status: answer.status, body: answer.text } });
      return answer.json<TranSafeAnswer>() ?? {};
    } catch (error) {
      if (!(error instanceof ProviderUnreachableError)) throw error;
      steps.push({ request, response: { error: error.message } });
      return null;
    }
  }
  const exchange = (kind: string, status: string, recordId: string | null): ProviderExchange => ({
    eventType: `transaction.${kind}`,
    recordType: 'transaction',
    recordId,
    status,
    payload: JSON.stringify({ steps }, null, 2),
  });
  const outcome = (kind: string, answered: TranSafeAnswer | null): RefundOutcome => {
    const said = answered?.code ?? (answered ? 'no_code' : 'unreachable');
    const recordId = answered?.ttid ?? call.providerReference;
    if (answered?.code === 'AUTH')
      return { ok: true, refundReference: recordId, exchange: exchange(kind, said, recordId) };
    return {
      ok: false,
      errorMessage: answered
        ? answered.verbiage?.trim() || `TranSafe refused the ${kind} (${said}).`
        : 'TranSafe could not be reached.',
      exchange: exchange(kind, said, recordId),
    };
  };
  const refund = async () =>
    outcome(
      'refund',
      await send('POST', `${base}/transaction/${ttid}/refund`, { money: { amount } }),
    );

  const report = await send('GET', `${base}/report/unsettled?ttid=${ttid}`);
  const unsettled = Array.isArray(report?.report) ? report.report : null;
  const original = unsettled?.[0]?.amount;
  if (!unsettled || unsettled.length === 0 || !original || !/^\d+(\.\d+)?$/.test(original))
    return refund();
  if (new Big(amount).lt(new Big(original))) return refund();
  const reversal = await send('DELETE', `${base}/transaction/${ttid}`);
  if (reversal?.code === 'AUTH') return outcome('reversal', reversal);
  // No answer to the reversal: nothing is known, so nothing more is sent.
  if (!reversal) return outcome('reversal', null);
  return outcome('void', await send('DELETE', `${base}/transaction/${ttid}/void`));
}
