import { queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/** The part of OpenID Connect Discovery 1.0 §3 the site uses. */
export interface OidcDiscovery {
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
}

/**
 * Checked by hand, not with zod: signing in is part of the first load, which zod is not
 * (docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB").
 */
function readOidcDiscovery(answer: unknown): OidcDiscovery {
  const fields =
    typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
  const {
    authorization_endpoint: authorizationEndpoint,
    token_endpoint: tokenEndpoint,
    end_session_endpoint: endSessionEndpoint,
  } = fields;
  if (
    typeof authorizationEndpoint !== 'string' ||
    typeof tokenEndpoint !== 'string' ||
    (endSessionEndpoint !== undefined && typeof endSessionEndpoint !== 'string')
  ) {
    throw new Error(
      "The identity provider's configuration could not be read (not a discovery document).",
    );
  }
  return {
    authorization_endpoint: authorizationEndpoint,
    token_endpoint: tokenEndpoint,
    ...(endSessionEndpoint !== undefined && { end_session_endpoint: endSessionEndpoint }),
  };
}

export async function getOidcDiscovery(
  issuer: string,
  signal?: AbortSignal,
): Promise<OidcDiscovery> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(
      `The identity provider's configuration could not be read (${response.status}).`,
    );
  }
  return readOidcDiscovery(await response.json());
}

export const oidcDiscoveryQueryOptions = (issuer: string) =>
  queryOptions({
    queryKey: queryKeys.info.oidcDiscovery(issuer),
    queryFn: ({ signal }) => getOidcDiscovery(issuer, signal),
    staleTime: Infinity,
    meta: { statusRouting: false },
  });
