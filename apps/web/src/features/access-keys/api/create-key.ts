import {
  createdAccessKeySchema,
  type AccessKeyBody,
  type CreatedAccessKey,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { keyPaths, keyQueryKeys, type KeyKind } from './key-kinds';

/**
 * spec 1 §7 POST access-keys: the answer holds the full key, the only time it exists. Subscription
 * keys are created for the whole tenant (noDataset=true).
 */
export function createKey(kind: KeyKind, body: AccessKeyBody): Promise<CreatedAccessKey> {
  return tenantClient.post(keyPaths[kind], body, {
    schema: createdAccessKeySchema,
    query: kind === 'subscription' ? { noDataset: true } : undefined,
  });
}

export function useCreateKey(kind: KeyKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccessKeyBody) => createKey(kind, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keyQueryKeys(kind).all() }),
  });
}
