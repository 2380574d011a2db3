/** The provider did not answer (network failure or timeout): nothing is known about the call. */
export class ProviderUnreachableError extends Error {
  constructor(
    readonly provider: string,
    cause: unknown,
  ) {
    super(`${provider} could not be reached.`, { cause });
  }
}

export interface ProviderAnswer {
  status: number;
  text: string;
  json<T>(): T | null;
}

/**
 * One HTTP exchange with a provider (real HTTP, the base URL from configuration), given up after
 * `timeoutMs`. Never call it inside a database transaction (style.md §7).
 */
export async function providerFetch(
  provider: string,
  url: string,
  init: RequestInit & { timeoutMs: number },
): Promise<ProviderAnswer> {
  const { timeoutMs, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new ProviderUnreachableError(provider, error);
  }
  const text = await response.text();
  return {
    status: response.status,
    text,
    json<T>() {
      try {
        return JSON.parse(text) as T;
      } catch {
        return null;
      }
    },
  };
}

export const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
