import { paymentRequestSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentRequestKeys } from './get-payment-requests';
import { isRecordId } from '@/ui/detail-load-error';

/** spec 2 §7 GET payment-requests/{id}, with expand=transactions for the Transactions tab. */
export function getPaymentRequest(id: string, signal?: AbortSignal) {
  return companyClient.get(`/payment-requests/${encodeURIComponent(id)}`, {
    query: { expand: 'transactions' },
    schema: paymentRequestSchema,
    signal,
  });
}

export const paymentRequestQueryOptions = (id: string) =>
  queryOptions({
    queryKey: paymentRequestKeys().detail(id),
    queryFn: ({ signal }) => getPaymentRequest(id, signal),
    // spec 2 §8: the detail page shows its own error state.
    meta: { inlineErrors: true },
    // A malformed id names no record: the page says so without a call.
    enabled: isRecordId(id),
  });

export function usePaymentRequest(id: string) {
  return useQuery(paymentRequestQueryOptions(id));
}
