import {
  pageOf,
  paymentProviderSummarySchema,
  type Page,
  type PaymentProviderSummary,
} from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import type { GridQuery } from '@/ui/grid-state';
import { paymentProviderKeys } from './payment-provider-keys';

const providersPageResponse = pageOf(paymentProviderSummarySchema);

/** spec 3 §7 GET providers (paged): the list's grid, and the unique-name lookup (`name eq`). */
export function getPaymentProviders(
  query: GridQuery,
  signal?: AbortSignal,
): Promise<Page<PaymentProviderSummary>> {
  return companyClient.get('/providers', {
    query: { ...query },
    schema: providersPageResponse,
    signal,
  });
}

export const paymentProvidersQueryOptions = (query: GridQuery) =>
  queryOptions({
    queryKey: paymentProviderKeys().list({ ...query }),
    queryFn: ({ signal }) => getPaymentProviders(query, signal),
    placeholderData: keepPreviousData,
    // spec 3 §2: the page shows a failed load itself.
    meta: { inlineErrors: true },
  });

export function usePaymentProviders(query: GridQuery) {
  return useQuery(paymentProvidersQueryOptions(query));
}
