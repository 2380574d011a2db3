import type { Role, UpdateUserBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';
import { updateUserRole } from './update-user-role';

/** spec 1 §7 PUT users/{id}: `{ id, displayName }`. */
export function updateUser(body: UpdateUserBody): Promise<unknown> {
  return tenantClient.put(`/users/${body.id}`, body);
}

export interface UserChanges {
  body: UpdateUserBody;
  /** The new role, only when it changed (it has its own call). */
  role?: Role;
}

/** Saves the name, then the role if it changed; the list is refetched either way. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, role }: UserChanges) => {
      await updateUser(body);
      if (role) await updateUserRole(body.id, role);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.lists() }),
  });
}
