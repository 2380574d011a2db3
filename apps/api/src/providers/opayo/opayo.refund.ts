import type { ProviderExchange, RefundCall, RefundOutcome } from '../adapter.js';
import { exchangeOf, missingConfiguration } from '../exchange.js';
import { formBody, providerFetch, ProviderUnreachableError } from '../http.js';
import { majorUnits, minorUnits } from '../money.js';
import {
  opayoProtocol,
  opayoServiceUrl,
  parseOpayoAnswer,
  withoutSecrets,
  type OpayoServerSecret,
} from './opayo.server.js';

/**
 * Refunds through Opayo (reference/providers.md "Opayo"): Server's shared REFUND
 * (`refund.vsp`, the original's VPSTxId, VendorTxCode, SecurityKey and TxAuthNo as Related*) and
 * Pi's Refund transaction (`POST /api/v1/transactions`, referenceTransactionId). Each refund has
 * its own VendorTxCode, made from our refund transaction's id, so Opayo refuses a second post of
 * the same refund (4042) rather than paying it twice.
 */
export const opayoRefundUnsupported =
  "Ledgerline holds no Opayo security key for this payment; refund it in Opayo's own portal.";

/** `RF-` and our refund's id (36): 39 characters, within Opayo's 40, unique per refund. */
export const refundVendorTxCode = (refundTransactionId: string) => `RF-${refundTransactionId}`;

/** Opayo's Description is required (3013) and at most 100 characters. */
const descriptionOf = (call: RefundCall, original: string) =>
  (call.reason?.trim() || `Refund of ${original}`).slice(0, 100);

interface PiRefundAnswer {
  transactionId?: string;
  status?: string;
  statusCode?: string;
  statusDetail?: string;
  code?: number | string;
  description?: string;
  errors?: { description?: string; property?: string }[];
}

const notSent = (eventType: string, recordId: string | null, message: string): RefundOutcome => ({
  ok: false,
  errorMessage: message,
  exchange: exchangeOf({
    eventType,
    recordType: 'transaction',
    recordId,
    status: 'not_sent',
    request: { method: 'none', url: '' },
    response: { error: message },
  }),
});

const unreachable = (
  exchange: (status: string, response: { error: string }) => ProviderExchange,
  error: ProviderUnreachableError,
): RefundOutcome => ({
  ok: false,
  errorMessage: error.message,
  exchange: exchange('unreachable', { error: error.message }),
});

/** `refund.vsp`: a shared REFUND of an Opayo Server payment (PAYMENT, or a released DEFERRED). */
export async function opayoServerRefund(
  call: RefundCall,
  secret: OpayoServerSecret,
  options: { host: string; timeoutMs: number },
): Promise<RefundOutcome> {
  const eventType = 'transaction.refund';
  const vendor = call.configuration?.credentials.vendorName;
  if (typeof vendor !== 'string' || !vendor || !call.providerReference)
    return missingConfiguration('Opayo Server', eventType);
  // Only an authorised payment has a TxAuthNo (its notification brought it): nothing to refund.
  if (!secret.txAuthNo) return notSent(eventType, call.providerReference, opayoRefundUnsupported);
  const url = opayoServiceUrl(options.host, 'refund');
  const fields: Record<string, string> = {
    VPSProtocol: opayoProtocol,
    TxType: 'REFUND',
    Vendor: vendor,
    VendorTxCode: refundVendorTxCode(call.refundTransactionId),
    Amount: majorUnits(call.amount, call.currency),
    Currency: call.currency,
    Description: descriptionOf(call, secret.vendorTxCode),
    RelatedVPSTxId: call.providerReference,
    RelatedVendorTxCode: secret.vendorTxCode,
    RelatedSecurityKey: secret.securityKey,
    RelatedTxAuthNo: secret.txAuthNo,
  };
  // The original's SecurityKey travels to Opayo only, never into the provider event.
  const request = {
    method: 'POST',
    url,
    body: { ...fields, RelatedSecurityKey: '[kept sealed]' },
  };
  const exchangeWith = (
    status: string,
    response: { status: number; body: string } | { error: string },
  ) =>
    exchangeOf({
      eventType,
      recordType: 'transaction',
      recordId: call.providerReference,
      status,
      request,
      response,
    });
  try {
    const answer = await providerFetch('Opayo', url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(fields),
      timeoutMs: options.timeoutMs,
    });
    const answered = parseOpayoAnswer(answer.text);
    const exchange = exchangeWith(answered.Status ?? `http_${answer.status}`, {
      status: answer.status,
      body: formBody(withoutSecrets(answered)),
    });
    if (answered.Status === 'OK')
      return { ok: true, refundReference: answered.VPSTxId ?? null, exchange };
    return {
      ok: false,
      errorMessage: answered.StatusDetail ?? `Opayo answered HTTP ${answer.status}.`,
      exchange,
    };
  } catch (error) {
    if (error instanceof ProviderUnreachableError) return unreachable(exchangeWith, error);
    throw error;
  }
}

/** A Pi payment's transaction id, without the page's `:challenge` bookkeeping. */
const piTransactionOf = (reference: string | null) =>
  reference && !reference.startsWith('pi-session:') ? reference.split(':')[0]! : null;

/** Pi: a Refund transaction referencing the original (amount in minor units). */
export async function opayoPiRefund(
  call: RefundCall,
  options: { host: string; timeoutMs: number },
): Promise<RefundOutcome> {
  const eventType = 'transaction.refund';
  const { integrationKey, integrationPassword } = call.configuration?.credentials ?? {};
  const transactionId = piTransactionOf(call.providerReference);
  if (
    typeof integrationKey !== 'string' ||
    typeof integrationPassword !== 'string' ||
    !integrationKey ||
    !transactionId
  )
    return missingConfiguration('Opayo Pi', eventType);
  const url = `${options.host.replace(/\/$/, '')}/api/v1/transactions`;
  const body = {
    transactionType: 'Refund',
    referenceTransactionId: transactionId,
    vendorTxCode: refundVendorTxCode(call.refundTransactionId),
    amount: Number(minorUnits(call.amount, call.currency)),
    currency: call.currency,
    description: descriptionOf(call, transactionId),
  };
  const request = { method: 'POST', url, body };
  const exchangeWith = (
    status: string,
    response: { status: number; body: string } | { error: string },
  ) =>
    exchangeOf({
      eventType,
      recordType: 'transaction',
      recordId: transactionId,
      status,
      request,
      response,
    });
  try {
    const answer = await providerFetch('Opayo', url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${integrationKey}:${integrationPassword}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      timeoutMs: options.timeoutMs,
    });
    const answered = answer.json<PiRefundAnswer>();
    const exchange = exchangeWith(
      answered?.status ?? String(answered?.code ?? `http_${answer.status}`),
      { status: answer.status, body: answer.text },
    );
    if (answer.status < 300 && answered?.status === 'Ok')
      return { ok: true, refundReference: answered.transactionId ?? null, exchange };
    return {
      ok: false,
      // Opayo's own words: `1018 This refund amount will exceed the amount of the original
      // transaction`, a declined refund's statusDetail, or the first field error.
      errorMessage:
        answered?.statusDetail ??
        answered?.description ??
        answered?.errors?.[0]?.description ??
        `Opayo answered HTTP ${answer.status}.`,
      exchange,
    };
  } catch (error) {
    if (error instanceof ProviderUnreachableError) return unreachable(exchangeWith, error);
    throw error;
  }
}
