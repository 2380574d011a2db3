import { estimatedPageOf, paymentTransactionSchema, type PageQueryParams } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentTransactionKeys } from './get-payment-transactions';

const pageResponse = estimatedPageOf(paymentTransactionSchema);

/** spec 1 §7 GET payment-transactions/status/all-failures: the rejected payments panel. */
export function getFailedPaymentTransactions(params: PageQueryParams, signal?: AbortSignal) {
  return companyClient.get('/payment-transactions/status/all-failures', { query: { ...params }, schema: pageResponse, signal });
}

export const failedPaymentTransactionsQueryOptions = (params: PageQueryParams) =>
  queryOptions({
    queryKey: [...paymentTransactionKeys().lists(), 'all-failures', params] as const,
    queryFn: ({ signal }) => getFailedPaymentTransactions(params, signal),
  });

export function useFailedPaymentTransactions(params: PageQueryParams) {
  return useQuery(failedPaymentTransactionsQueryOptions(params));
}
