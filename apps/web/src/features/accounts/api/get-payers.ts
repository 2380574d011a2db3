import { estimatedPageOf, payerSchema } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import type { GridQuery } from '@/ui/grid-state';
import { companyPayerKeys } from './account-keys';

const payersPageResponse = estimatedPageOf(payerSchema);

/** GET payers (docs/api.md): the payers of every account of the company, for /payers. */
export function getPayers(query: GridQuery, signal?: AbortSignal) {
  return companyClient.get('/payers', { query: { ...query }, schema: payersPageResponse, signal });
}

export const payersQueryOptions = (query: GridQuery) =>
  queryOptions({
    queryKey: companyPayerKeys().list({ ...query }),
    queryFn: ({ signal }) => getPayers(query, signal),
    placeholderData: keepPreviousData,
  });

export function usePayers(query: GridQuery) {
  return useQuery(payersQueryOptions(query));
}
