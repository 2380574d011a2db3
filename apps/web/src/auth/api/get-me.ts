import {
  defaultUserSetting,
  userMeSchema,
  type UserMe,
  type UserSetting,
} from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** spec 1 §7 GET users/me: the signed-in user's profile, permissions and display settings. */
export function getMe(signal?: AbortSignal): Promise<UserMe> {
  // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
  return tenantClient.get('/users/me', {
    schema: import.meta.env.DEV ? userMeSchema : undefined,
    signal,
  });
}

/** spec 1 §7: the profile is cached without expiry (saving settings invalidates it). */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.users.me(),
    queryFn: ({ signal }) => getMe(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });

export function useCurrentUser() {
  return useQuery(meQueryOptions());
}

/** The user's display settings, or the defaults while the profile is not there yet. */
export function useUserSetting(): UserSetting {
  const { data } = useCurrentUser();
  return data?.userSetting ?? defaultUserSetting;
}
