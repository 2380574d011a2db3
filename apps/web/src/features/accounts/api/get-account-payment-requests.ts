import { estimatedPageOf, paymentRequestSchema } from '@ledgerline/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';
import type { GridQuery } from '@/ui/grid-state';
import { ownerQuery } from './get-related-payment-transactions';

const pageResponse = estimatedPageOf(paymentRequestSchema);

/** spec 2 §7 GET payment-requests with `accountId eq {id}`: the account page's payment requests tab. */
export function getAccountPaymentRequests(
  accountId: string,
  query: GridQuery,
  signal?: AbortSignal,
) {
  return companyClient.get('/payment-requests', {
    query: { ...ownerQuery({ field: 'accountId', id: accountId }, query) },
    schema: pageResponse,
    signal,
  });
}

export function useAccountPaymentRequests(accountId: string, query: GridQuery) {
  return useQuery({
    queryKey: companyQueryKeys('payment-requests').list({
      ...ownerQuery({ field: 'accountId', id: accountId }, query),
    }),
    queryFn: ({ signal }) => getAccountPaymentRequests(accountId, query, signal),
    placeholderData: keepPreviousData,
  });
}
