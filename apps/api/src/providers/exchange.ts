import type { ProviderExchange, ProviderOutcome } from './adapter.js';
import { ProviderUnreachableError } from './http.js';

/** The request as sent (without credentials) and the answer as received: a provider event. */
export function exchangeOf(input: {
  eventType: string;
  recordType: string;
  recordId: string | null;
  status: string;
  request: { method: string; url: string; body?: unknown };
  response: { status: number; body: string } | { error: string };
}): ProviderExchange {
  return {
    eventType: input.eventType,
    recordType: input.recordType,
    recordId: input.recordId,
    status: input.status,
    payload: JSON.stringify({ request: input.request, response: input.response }, null, 2),
  };
}

/** A call that got no answer is a failed outcome, recorded like any other exchange. */
export async function outcomeOf(
  call: () => Promise<ProviderOutcome>,
  unreachable: (error: ProviderUnreachableError) => ProviderOutcome,
): Promise<ProviderOutcome> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderUnreachableError) return unreachable(error);
    throw error;
  }
}

export const missingConfiguration = (provider: string, eventType: string): ProviderOutcome => {
  const errorMessage = `The payment's ${provider} configuration is missing or not connected.`;
  return {
    ok: false,
    errorMessage,
    exchange: exchangeOf({
      eventType,
      recordType: 'configuration',
      recordId: null,
      status: 'not_sent',
      request: { method: 'none', url: '' },
      response: { error: errorMessage },
    }),
  };
};
