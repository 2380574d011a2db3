import type { PaymentProviderAdapter, PendingPaymentCall, ProviderOutcome } from '../adapter.js';
import { exchangeOf, missingConfiguration, outcomeOf } from '../exchange.js';
import { providerFetch } from '../http.js';
import { minorUnits } from '../money.js';

interface InstructionAnswer {
  instructionType?: string;
  date?: string;
  code?: number;
  description?: string;
  errors?: { description?: string }[];
}

/**
 * Opayo Pi: a deferred transaction is released (with the amount, in minor units) or aborted by
 * `POST /api/v1/transactions/{id}/instructions`, Basic integrationKey:integrationPassword; 201 is
 * success. Server-integration payments (release.vsp / abort.vsp) need the transaction's security
 * key from the notification, which Ledgerline does not receive yet: they answer not supported.
 */
export const opayoServerUnsupported =
  "Ledgerline cannot release or abort Opayo Server payments yet; use Opayo's own portal.";

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
  return {
    name: 'Opayo',
    capture: (call) => act('capture', call),
    cancel: (call) => act('cancel', call),
  };
}
