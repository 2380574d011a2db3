import { transactionDetailSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { transactionKeys } from './transaction-keys';
import { isRecordId } from '@/ui/detail-load-error';

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
    // A malformed id names no record: the page says so without a call.
    enabled: isRecordId(id),
  });

export function useTransaction(id: string) {
  return useQuery(transactionQueryOptions(id));
}
