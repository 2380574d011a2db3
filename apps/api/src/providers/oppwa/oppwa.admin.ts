import { formBody, providerFetch } from '../http.js';

/**
 * OPPWA's connection test (reference/providers.md): a `POST /v1/checkouts` of 1.00 GBP, DB.
 * `000.200.100` means the access token and entity are valid; a checkout charges nothing and lapses
 * after 30 minutes.
 */
export function createOppwaAdmin(options: { testUrl: string; liveUrl: string; timeoutMs: number }) {
  return {
    async testConnection(input: {
      useSandbox: boolean;
      entityId: string;
      accessToken: string;
    }): Promise<{ success: boolean; message: string }> {
      const base = (input.useSandbox ? options.testUrl : options.liveUrl).replace(/\/$/, '');
      const answer = await providerFetch('Total Processing', `${base}/v1/checkouts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${input.accessToken}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: formBody({
          entityId: input.entityId,
          amount: '1.00',
          currency: 'GBP',
          paymentType: 'DB',
        }),
        timeoutMs: options.timeoutMs,
      });
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
