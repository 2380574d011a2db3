import { featureFlagsResponse, type FeatureFlags } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicClient } from '../http';
import { queryKeys } from '../query-keys';

/** spec 1 §4: the admin portal's flag set, loaded before the application renders. */
export const featureFlagsTarget = 'adminPortal';

export async function getFeatureFlags(signal?: AbortSignal): Promise<FeatureFlags> {
  const response = await publicClient.get('/info/feature-flags', {
    query: { target: featureFlagsTarget },
    // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
    schema: import.meta.env.DEV ? featureFlagsResponse : undefined,
    signal,
  });
  return response.featureFlags;
}

export const featureFlagsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.info.featureFlags(featureFlagsTarget),
    queryFn: ({ signal }) => getFeatureFlags(signal),
    staleTime: Infinity,
    gcTime: Infinity,
    // The flags gate (app/feature-flags-gate.tsx) shows its own error with a Try again button.
    meta: { statusRouting: false },
  });

export function useFeatureFlagsQuery() {
  return useQuery(featureFlagsQueryOptions());
}
