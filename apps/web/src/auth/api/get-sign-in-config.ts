import { signInConfigResponse, type SignInConfig } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** How the site signs in: issuer, client id, scope, resource and the redirect paths. */
export function getSignInConfig(signal?: AbortSignal): Promise<SignInConfig> {
  // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
  return publicClient.get('/info/sign-in', {
    schema: import.meta.env.DEV ? signInConfigResponse : undefined,
    signal,
  });
}

export const signInConfigQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.info.signIn(),
    queryFn: ({ signal }) => getSignInConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
    // The sign-in screen shows its own error with a 'Sign in again' button.
    meta: { statusRouting: false },
  });

export function useSignInConfig() {
  return useQuery(signInConfigQueryOptions());
}
