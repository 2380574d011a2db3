import type { ProviderExchange } from './adapter.js';
import { exchangeOf } from './exchange.js';
import { providerFetch, ProviderUnreachableError, type ProviderAnswer } from './http.js';

/** Receives the exchange a configuration call made, for its provider event. */
export type ExchangeRecorder = (exchange: ProviderExchange) => void;

/** What stands in a provider event for a secret, as in a payment's events (opayo.server.ts). */
export const keptSealed = '[kept sealed]';

function maskValue(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => maskValue(item, keys));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        keys.has(key) ? keptSealed : maskValue(item, keys),
      ]),
    );
  return value;
}

/** A JSON answer with the named fields masked at any depth; a non-JSON answer as it is. */
export function maskedJson(text: string, keys: readonly string[]): string {
  try {
    return JSON.stringify(maskValue(JSON.parse(text), new Set(keys)));
  } catch {
    return text;
  }
}

/** A form or JSON request body with the named fields masked. */
export const maskedFields = (
  fields: Record<string, string>,
  keys: readonly string[],
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, keys.includes(key) ? keptSealed : value]),
  );

/**
 * `providerFetch` that hands the exchange to `recorder`: the request as described by the caller
 * (headers, where the credentials travel, are never recorded; secret fields already masked) and
 * the answer with `maskAnswer` applied. A call that got no answer is recorded as `unreachable`
 * and still throws.
 */
export async function recordedFetch(
  provider: string,
  url: string,
  init: RequestInit & { timeoutMs: number },
  record: {
    recorder: ExchangeRecorder | undefined;
    eventType: string;
    recordType: string;
    recordId?: string | null;
    request: { method: string; url: string; body?: unknown };
    status: (answer: ProviderAnswer) => string;
    maskAnswer?: (text: string) => string;
  },
): Promise<ProviderAnswer> {
  const base = {
    eventType: record.eventType,
    recordType: record.recordType,
    recordId: record.recordId ?? null,
    request: record.request,
  };
  let answer: ProviderAnswer;
  try {
    answer = await providerFetch(provider, url, init);
  } catch (error) {
    if (error instanceof ProviderUnreachableError)
      record.recorder?.(
        exchangeOf({ ...base, status: 'unreachable', response: { error: error.message } }),
      );
    throw error;
  }
  record.recorder?.(
    exchangeOf({
      ...base,
      status: record.status(answer),
      response: {
        status: answer.status,
        body: record.maskAnswer ? record.maskAnswer(answer.text) : answer.text,
      },
    }),
  );
  return answer;
}
