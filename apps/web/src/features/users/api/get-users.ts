import { userSchema, type User } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

const usersAllResponse = z.object({ items: z.array(userSchema) });

/** spec 1 §7 GET users/all: every user of the tenant (the users grid sorts and pages them). */
export async function getUsers(signal?: AbortSignal): Promise<User[]> {
  const response = await tenantClient.get('/users/all', { schema: usersAllResponse, signal });
  return response.items;
}

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.users.list({ all: true }),
    queryFn: ({ signal }) => getUsers(signal),
  });

export function useUsers() {
  return useQuery(usersQueryOptions());
}
