import { estimatedPageOf, payerSchema } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import type { GridQuery } from '@/ui/grid-state';
import { payerKeys } from './account-keys';

const payersPageResponse = estimatedPageOf(payerSchema);

/** spec 2 §7 GET accounts/{id}/payers. */
export function getAccountPayers(accountId: string, query: GridQuery, signal?: AbortSignal) {
  return companyClient.get(`/accounts/${encodeURIComponent(accountId)}/payers`, {
    query: { ...query },
    schema: payersPageResponse,
    signal,
  });
}

export const accountPayersQueryOptions = (accountId: string, query: GridQuery) =>
  queryOptions({
    queryKey: payerKeys(accountId).list({ ...query }),
    queryFn: ({ signal }) => getAccountPayers(accountId, query, signal),
    placeholderData: keepPreviousData,
  });

export function useAccountPayers(accountId: string, query: GridQuery) {
  return useQuery(accountPayersQueryOptions(accountId, query));
}
