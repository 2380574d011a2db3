import { formBody } from '../http.js';
import { recordedFetch, type ExchangeRecorder } from '../recorded-fetch.js';

/**
 * OPPWA's connection test (reference/providers.md): a `POST /v1/checkouts` of 1.00 GBP, DB.
 * `000.200.100` means the access token and entity are valid; a checkout charges nothing and lapses
 * after 30 minutes.
 */
export function createOppwaAdmin(options: { testUrl: string; liveUrl: string; timeoutMs: number }) {
  return {
    async testConnection(
      input: {
        useSandbox: boolean;
        entityId: string;
        accessToken: string;
      },
      recorder?: ExchangeRecorder,
    ): Promise<{ success: boolean; message: string }> {
      const base = (input.useSandbox ? options.testUrl : options.liveUrl).replace(/\/$/, '');
      const fields = {
        entityId: input.entityId,
        amount: '1.00',
        currency: 'GBP',
        paymentType: 'DB',
      };
      const url = `${base}/v1/checkouts`;
      const answer = await recordedFetch(
        'Total Processing',
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${input.accessToken}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        },
        {
          recorder,
          eventType: 'checkout.test',
          recordType: 'checkout',
          // The access token travels only in the Authorization header, which is never recorded.
          request: { method: 'POST', url, body: fields },
          status: (answer) =>
            answer.json<{ result?: { code?: string } }>()?.result?.code ?? `http_${answer.status}`,
        },
      );
      const body = answer.json<{ result?: { code?: string; description?: string } }>();
      if (/^000\.200\.100/.test(body?.result?.code ?? ''))
        return { success: true, message: 'Connection successful.' };
      return {
        success: false,
        message: body?.result?.description ?? `Total Processing answered HTTP ${answer.status}.`,
      };
    },
  };
}
export type OppwaAdmin = ReturnType<typeof createOppwaAdmin>;
