import { userSchema, type User } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

const usersAllResponse = z.object({ items: z.array(userSchema) });

/**
 * spec 1 §7 GET users/all: every user of the tenant (the users grid sorts and pages them), or with
 * `search` those the search box finds.
 */
export async function getUsers(signal?: AbortSignal, search = ''): Promise<User[]> {
  const response = await tenantClient.get('/users/all', {
    ...(search ? { query: { search } } : {}),
    schema: usersAllResponse,
    signal,
  });
  return response.items;
}

export const usersQueryOptions = (search = '') =>
  queryOptions({
    queryKey: queryKeys.users.list({ all: true, ...(search ? { search } : {}) }),
    queryFn: ({ signal }) => getUsers(signal, search),
    placeholderData: keepPreviousData,
  });

export function useUsers(search = '') {
  return useQuery(usersQueryOptions(search));
}
