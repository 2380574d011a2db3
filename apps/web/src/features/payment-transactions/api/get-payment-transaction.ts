import { paymentTransactionSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentTransactionKeys } from './get-payment-transactions';
import { isRecordId } from '@/ui/detail-load-error';

/** spec 2 §7 GET payment-transactions/{id}: the page shows every part, so it asks for each. */
export function getPaymentTransaction(id: string, signal?: AbortSignal) {
  return companyClient.get(`/payment-transactions/${encodeURIComponent(id)}`, {
    query: {
      includeAccount: 'true',
      includePaymentRequest: 'true',
      includePaymentAllocations: 'true',
      includeLatePaymentTransactions: 'true',
    },
    schema: paymentTransactionSchema,
    signal,
  });
}

export const paymentTransactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: paymentTransactionKeys().detail(id),
    queryFn: ({ signal }) => getPaymentTransaction(id, signal),
    // spec 2 §8: the detail page shows its own error state.
    meta: { inlineErrors: true },
    // A malformed id names no record: the page says so without a call.
    enabled: isRecordId(id),
  });

export function usePaymentTransaction(id: string) {
  return useQuery(paymentTransactionQueryOptions(id));
}
