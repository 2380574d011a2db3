import { estimatedPageOf, paymentTransactionSchema, type PageQueryParams } from '@ledgerline/contract';
import { queryOptions, useQuery, type keepPreviousData } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

export const paymentTransactionKeys = () => companyQueryKeys('payment-transactions');

const pageResponse = estimatedPageOf(paymentTransactionSchema);

/** spec 2 §7 GET payment-transactions (paged, sorted, filtered, expandable). */
export function getPaymentTransactions(params: PageQueryParams, signal?: AbortSignal) {
  return companyClient.get('/payment-transactions', { query: { ...params }, schema: pageResponse, signal });
}

export const paymentTransactionsQueryOptions = (params: PageQueryParams) =>
  queryOptions({
    queryKey: paymentTransactionKeys().list({ ...params }),
    queryFn: ({ signal }) => getPaymentTransactions(params, signal),
  });

export function usePaymentTransactions(params: PageQueryParams, options: { placeholderData?: typeof keepPreviousData } = {}) {
  return useQuery({ ...paymentTransactionsQueryOptions(params), ...options });
}
