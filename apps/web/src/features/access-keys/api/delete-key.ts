import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { keyPaths, keyQueryKeys, type KeyKind } from './key-kinds';

/** spec 1 §7 DELETE access-keys/{id}: the key stops working at once (204). */
export function deleteKey(kind: KeyKind, id: string): Promise<unknown> {
  return tenantClient.delete(`${keyPaths[kind]}/${id}`);
}

export function useDeleteKey(kind: KeyKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteKey(kind, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyQueryKeys(kind).all() }),
  });
}
