import { accessKeyMaximumResponse } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { keyPaths, keyQueryKeys, type KeyKind } from './key-kinds';

/** spec 1 §7 GET access-keys/maximum: how many keys the tenant may have (spec 1 §9). */
export async function getKeyMaximum(kind: KeyKind, signal?: AbortSignal): Promise<number> {
  const response = await tenantClient.get(`${keyPaths[kind]}/maximum`, {
    schema: accessKeyMaximumResponse,
    signal,
  });
  return response.maximumKeyCount;
}

export const keyMaximumQueryOptions = (kind: KeyKind) =>
  queryOptions({
    queryKey: keyQueryKeys(kind).maximum(),
    queryFn: ({ signal }) => getKeyMaximum(kind, signal),
    staleTime: Infinity,
  });

export function useKeyMaximum(kind: KeyKind) {
  return useQuery(keyMaximumQueryOptions(kind));
}
