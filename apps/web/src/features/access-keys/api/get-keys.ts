import { accessKeySchema, type AccessKey } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantClient } from '@/lib/http';
import { keyPaths, keyQueryKeys, type KeyKind } from './key-kinds';

const keysResponse = z.object({ items: z.array(accessKeySchema) });

/**
 * spec 1 §7 GET access-keys (or subscription-keys): the tenant's keys, never their values; with
 * `search`, those the search box finds.
 */
export async function getKeys(
  kind: KeyKind,
  signal?: AbortSignal,
  search = '',
): Promise<AccessKey[]> {
  const response = await tenantClient.get(keyPaths[kind], {
    ...(search ? { query: { search } } : {}),
    schema: keysResponse,
    signal,
  });
  return response.items;
}

export const keysQueryOptions = (kind: KeyKind, search = '') =>
  queryOptions({
    queryKey: keyQueryKeys(kind).list(search ? { search } : {}),
    queryFn: ({ signal }) => getKeys(kind, signal, search),
    placeholderData: keepPreviousData,
  });

export function useKeys(kind: KeyKind, search = '') {
  return useQuery(keysQueryOptions(kind, search));
}
