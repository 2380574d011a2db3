import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderOutcome,
  RefundCall,
  RefundOutcome,
} from '../adapter.js';
import { exchangeOf, missingConfiguration, outcomeOf } from '../exchange.js';
import { formBody, providerFetch } from '../http.js';
import { majorUnits, minorUnits } from '../money.js';
import { opayoPiRefund, opayoRefundUnsupported, opayoServerRefund } from './opayo.refund.js';
import {
  opayoProtocol,
  opayoServiceUrl,
  parseOpayoAnswer,
  readServerSecret,
  type OpayoServerSecret,
} from './opayo.server.js';

interface InstructionAnswer {
  instructionType?: string;
  date?: string;
  code?: number;
  description?: string;
  errors?: { description?: string }[];
}

/**
 * Opayo Server: a DEFERRED transaction is released (`release.vsp`, ReleaseAmount in major units)
 * or aborted (`abort.vsp`) with the SecurityKey, VendorTxCode and TxAuthNo kept sealed with the
 * payment (PendingPaymentCall.providerSecret); the answer's `Status=OK` is success.
 * Opayo Pi: released (with the amount, in minor units) or aborted by
 * `POST /api/v1/transactions/{id}/instructions`, Basic integrationKey:integrationPassword; 201 is
 * success. A Server payment Ledgerline holds no SecurityKey for (taken before it kept them, or not
 * through the payer page) cannot be released or aborted here.
 */
export const opayoServerUnsupported =
  "Ledgerline holds no Opayo security key for this payment; release or abort it in Opayo's own portal.";

export function createOpayoAdapter(options: {
  testUrl: string;
  liveUrl: string;
  timeoutMs: number;
}): PaymentProviderAdapter {
  async function act(
    kind: 'capture' | 'cancel',
    call: PendingPaymentCall,
  ): Promise<ProviderOutcome> {
    const eventType = kind === 'capture' ? 'instruction.release' : 'instruction.abort';
    const serverSecret = readServerSecret(call.providerSecret);
    if (call.configuration && serverSecret) return server(kind, call, serverSecret);
    const { integrationKey, integrationPassword } = call.configuration?.credentials ?? {};
    if (call.configuration && !integrationKey) {
      const errorMessage = opayoServerUnsupported;
      return {
        ok: false,
        errorMessage,
        exchange: exchangeOf({
          eventType,
          recordType: 'instruction',
          recordId: call.providerReference,
          status: 'not_sent',
          request: { method: 'none', url: '' },
          response: { error: errorMessage },
        }),
      };
    }
    if (
      typeof integrationKey !== 'string' ||
      typeof integrationPassword !== 'string' ||
      !integrationKey ||
      !call.providerReference
    ) {
      return missingConfiguration('Opayo Pi', eventType);
    }
    const base = (call.configuration!.isTest ? options.testUrl : options.liveUrl).replace(
      /\/$/,
      '',
    );
    const url = `${base}/api/v1/transactions/${encodeURIComponent(call.providerReference)}/instructions`;
    const body =
      kind === 'capture'
        ? { instructionType: 'release', amount: Number(minorUnits(call.amount, call.currency)) }
        : { instructionType: 'abort' };
    const request = { method: 'POST', url, body };
    return outcomeOf(
      async () => {
        const answer = await providerFetch('Opayo', url, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${integrationKey}:${integrationPassword}`).toString('base64')}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
          timeoutMs: options.timeoutMs,
        });
        const answered = answer.json<InstructionAnswer>();
        const exchange = exchangeOf({
          eventType,
          recordType: 'instruction',
          recordId: call.providerReference,
          status:
            answer.status === 201
              ? (answered?.instructionType ?? 'created')
              : String(answered?.code ?? `http_${answer.status}`),
          request,
          response: { status: answer.status, body: answer.text },
        });
        if (answer.status === 201) return { ok: true, exchange };
        return {
          ok: false,
          errorMessage:
            answered?.description ??
            answered?.errors?.[0]?.description ??
            `Opayo answered HTTP ${answer.status}.`,
          exchange,
        };
      },
      (error) => ({
        ok: false,
        errorMessage: error.message,
        exchange: exchangeOf({
          eventType,
          recordType: 'instruction',
          recordId: call.providerReference,
          status: 'unreachable',
          request,
          response: { error: error.message },
        }),
      }),
    );
  }
  /** release.vsp / abort.vsp of an Opayo Server DEFERRED transaction. */
  async function server(
    kind: 'capture' | 'cancel',
    call: PendingPaymentCall,
    secret: OpayoServerSecret,
  ): Promise<ProviderOutcome> {
    const txType = kind === 'capture' ? 'RELEASE' : 'ABORT';
    const eventType = kind === 'capture' ? 'transaction.release' : 'transaction.abort';
    const vendor = call.configuration!.credentials.vendorName;
    if (typeof vendor !== 'string' || !vendor || !call.providerReference || !secret.txAuthNo)
      return missingConfiguration('Opayo Server', eventType);
    const base = call.configuration!.isTest ? options.testUrl : options.liveUrl;
    const url = opayoServiceUrl(base, kind === 'capture' ? 'release' : 'abort');
    const fields: Record<string, string> = {
      VPSProtocol: opayoProtocol,
      TxType: txType,
      Vendor: vendor,
      VendorTxCode: secret.vendorTxCode,
      VPSTxId: call.providerReference,
      SecurityKey: secret.securityKey,
      TxAuthNo: secret.txAuthNo,
      ...(kind === 'capture' ? { ReleaseAmount: majorUnits(call.amount, call.currency) } : {}),
    };
    // The SecurityKey travels to Opayo only, never into the provider event.
    const request = { method: 'POST', url, body: { ...fields, SecurityKey: '[kept sealed]' } };
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
    return outcomeOf(
      async () => {
        const answer = await providerFetch('Opayo', url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        });
        const answered = parseOpayoAnswer(answer.text);
        const exchange = exchangeWith(answered.Status ?? `http_${answer.status}`, {
          status: answer.status,
          body: answer.text,
        });
        if (answered.Status === 'OK') return { ok: true, exchange };
        return {
          ok: false,
          errorMessage: answered.StatusDetail ?? `Opayo answered HTTP ${answer.status}.`,
          exchange,
        };
      },
      (error) => ({
        ok: false,
        errorMessage: error.message,
        exchange: exchangeWith('unreachable', { error: error.message }),
      }),
    );
  }

  /**
   * A Server payment (its sealed SecurityKey) is refunded with `refund.vsp`, a Pi one
   * with a Refund transaction (opayo.refund.ts); a Server payment without a kept key is refused
   * with no call.
   */
  async function refund(call: RefundCall): Promise<RefundOutcome> {
    if (!call.configuration) return missingConfiguration('Opayo', 'transaction.refund');
    const host = call.configuration.isTest ? options.testUrl : options.liveUrl;
    const serverSecret = readServerSecret(call.providerSecret);
    if (serverSecret)
      return opayoServerRefund(call, serverSecret, { host, timeoutMs: options.timeoutMs });
    if (!call.configuration.credentials.integrationKey)
      return {
        ok: false,
        errorMessage: opayoRefundUnsupported,
        exchange: exchangeOf({
          eventType: 'transaction.refund',
          recordType: 'transaction',
          recordId: call.providerReference,
          status: 'not_sent',
          request: { method: 'none', url: '' },
          response: { error: opayoRefundUnsupported },
        }),
      };
    return opayoPiRefund(call, { host, timeoutMs: options.timeoutMs });
  }

  return {
    name: 'Opayo',
    capture: (call) => act('capture', call),
    cancel: (call) => act('cancel', call),
    refund,
  };
}
