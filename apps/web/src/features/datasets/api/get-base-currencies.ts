import { baseCurrencies, type BaseCurrency } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

const baseCurrenciesResponse = z.object({ items: z.array(z.enum(baseCurrencies)) });

/** GET data-sets/base-currencies: the currencies a new company can keep its books in. */
export async function getBaseCurrencies(signal?: AbortSignal): Promise<BaseCurrency[]> {
  const response = await tenantClient.get('/data-sets/base-currencies', {
    schema: baseCurrenciesResponse,
    signal,
  });
  return response.items;
}

export const baseCurrenciesQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.datasets.all(), 'base-currencies'] as const,
    queryFn: ({ signal }) => getBaseCurrencies(signal),
    staleTime: Infinity,
  });

export function useBaseCurrencies() {
  return useQuery(baseCurrenciesQueryOptions());
}
