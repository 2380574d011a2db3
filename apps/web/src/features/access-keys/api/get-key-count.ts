import { accessKeyCountResponse } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { keyPaths, keyQueryKeys, type KeyKind } from './key-kinds';

/** spec 1 §7 GET access-keys/count: how many keys the tenant has. */
export async function getKeyCount(kind: KeyKind, signal?: AbortSignal): Promise<number> {
  const response = await tenantClient.get(`${keyPaths[kind]}/count`, {
    schema: accessKeyCountResponse,
    signal,
  });
  return response.count;
}

export const keyCountQueryOptions = (kind: KeyKind) =>
  queryOptions({
    queryKey: keyQueryKeys(kind).count(),
    queryFn: ({ signal }) => getKeyCount(kind, signal),
  });

export function useKeyCount(kind: KeyKind) {
  return useQuery(keyCountQueryOptions(kind));
}
