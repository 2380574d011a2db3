import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';

/** The part of OpenID Connect Discovery 1.0 §3 the site uses. */
const oidcDiscoverySchema = z.object({
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  end_session_endpoint: z.string().optional(),
});
export type OidcDiscovery = z.infer<typeof oidcDiscoverySchema>;

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
  return oidcDiscoverySchema.parse(await response.json());
}

export const oidcDiscoveryQueryOptions = (issuer: string) =>
  queryOptions({
    queryKey: queryKeys.info.oidcDiscovery(issuer),
    queryFn: ({ signal }) => getOidcDiscovery(issuer, signal),
    staleTime: Infinity,
    meta: { statusRouting: false },
  });
