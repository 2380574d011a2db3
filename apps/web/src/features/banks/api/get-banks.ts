import { bankSchema, pageOf, type Bank, type Page } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import type { GridQuery } from '@/ui/grid-state';
import { bankKeys } from './bank-keys';

const banksPageResponse = pageOf(bankSchema);

/** spec 2 §7 GET banks: the banks grid, paged, sorted and filtered by the server. */
export function getBanks(query: GridQuery, signal?: AbortSignal): Promise<Page<Bank>> {
  return companyClient.get('/banks', { query: { ...query }, schema: banksPageResponse, signal });
}

export const banksQueryOptions = (query: GridQuery) =>
  queryOptions({
    queryKey: bankKeys().list({ ...query }),
    queryFn: ({ signal }) => getBanks(query, signal),
    placeholderData: keepPreviousData,
  });

export function useBanks(query: GridQuery) {
  return useQuery(banksQueryOptions(query));
}
