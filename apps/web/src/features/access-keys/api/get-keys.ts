import { accessKeySchema, type AccessKey } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantClient } from '@/lib/http';
import { keyPaths, keyQueryKeys, type KeyKind } from './key-kinds';

const keysResponse = z.object({ items: z.array(accessKeySchema) });

/** spec 1 §7 GET access-keys (or subscription-keys): the tenant's keys, never their values. */
export async function getKeys(kind: KeyKind, signal?: AbortSignal): Promise<AccessKey[]> {
  const response = await tenantClient.get(keyPaths[kind], { schema: keysResponse, signal });
  return response.items;
}

export const keysQueryOptions = (kind: KeyKind) =>
  queryOptions({
    queryKey: keyQueryKeys(kind).list(),
    queryFn: ({ signal }) => getKeys(kind, signal),
  });

export function useKeys(kind: KeyKind) {
  return useQuery(keysQueryOptions(kind));
}
