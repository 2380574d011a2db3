import { estimatedPageOf, paymentRequestSchema, type PageQueryParams } from '@ledgerline/contract';
import { queryOptions, useQuery, type keepPreviousData } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

export const paymentRequestKeys = () => companyQueryKeys('payment-requests');

const pageResponse = estimatedPageOf(paymentRequestSchema);

/** spec 2 §7 GET payment-requests (paged, sorted, filtered). */
export function getPaymentRequests(params: PageQueryParams, signal?: AbortSignal) {
  return companyClient.get('/payment-requests', { query: { ...params }, schema: pageResponse, signal });
}

export const paymentRequestsQueryOptions = (params: PageQueryParams) =>
  queryOptions({
    queryKey: paymentRequestKeys().list({ ...params }),
    queryFn: ({ signal }) => getPaymentRequests(params, signal),
  });

export function usePaymentRequests(params: PageQueryParams, options: { placeholderData?: typeof keepPreviousData } = {}) {
  return useQuery({ ...paymentRequestsQueryOptions(params), ...options });
}
