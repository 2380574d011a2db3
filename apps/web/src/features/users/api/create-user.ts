import type { CreateUserBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** spec 1 §7 POST users: creates the user and sends the invitation (201). */
export function createUser(body: CreateUserBody): Promise<unknown> {
  return tenantClient.post('/users', body);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.lists() }),
  });
}
