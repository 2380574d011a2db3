import { type AccessKeyBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { keyPaths, keyQueryKeys, type KeyKind } from './key-kinds';

/** spec 1 §7 PUT access-keys/{id}: a new name or expiry. */
export function updateKey(kind: KeyKind, id: string, body: AccessKeyBody): Promise<unknown> {
  return tenantClient.put(`${keyPaths[kind]}/${id}`, body);
}

export function useUpdateKey(kind: KeyKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AccessKeyBody }) => updateKey(kind, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyQueryKeys(kind).lists() }),
  });
}
