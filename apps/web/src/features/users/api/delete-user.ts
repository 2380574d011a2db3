import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** spec 1 §7 DELETE users/{id} (204). */
export function deleteUser(id: string): Promise<unknown> {
  return tenantClient.delete(`/users/${id}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.lists() }),
  });
}
