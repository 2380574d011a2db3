import { transactionDetailSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { transactionKeys } from './transaction-keys';

/** spec 2 §7 GET transactions/{id}: with account, contact, offers, documents, allocations, fees. */
export function getTransaction(id: string, signal?: AbortSignal) {
  return companyClient.get(`/transactions/${encodeURIComponent(id)}`, {
    schema: transactionDetailSchema,
    signal,
  });
}

export const transactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: transactionKeys().detail(id),
    queryFn: ({ signal }) => getTransaction(id, signal),
    // spec 2 §8: the detail page shows its own error state.
    meta: { inlineErrors: true },
  });

export function useTransaction(id: string) {
  return useQuery(transactionQueryOptions(id));
}
