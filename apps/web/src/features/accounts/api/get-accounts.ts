import { accountSchema, estimatedPageOf } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import type { GridQuery } from '@/ui/grid-state';
import { accountKeys } from './account-keys';

const accountsPageResponse = estimatedPageOf(accountSchema);

/** spec 2 §7 GET accounts: the accounts grid, paged, sorted and filtered by the server. */
export function getAccounts(query: GridQuery, signal?: AbortSignal) {
  return companyClient.get('/accounts', {
    query: { ...query },
    schema: accountsPageResponse,
    signal,
  });
}

export const accountsQueryOptions = (query: GridQuery) =>
  queryOptions({
    queryKey: accountKeys().list({ ...query }),
    queryFn: ({ signal }) => getAccounts(query, signal),
    placeholderData: keepPreviousData,
  });

export function useAccounts(query: GridQuery) {
  return useQuery(accountsQueryOptions(query));
}
