import { estimatedPageOf, transactionSchema, type PageQueryParams } from '@ledgerline/contract';
import { queryOptions, useQuery, type keepPreviousData } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { transactionKeys } from './transaction-keys';

const pageResponse = estimatedPageOf(transactionSchema);

/** spec 2 §7 GET transactions (paged, expand account for the account name column). */
export function getTransactions(params: PageQueryParams, signal?: AbortSignal) {
  return companyClient.get('/transactions', {
    query: { ...params, expand: 'account' },
    schema: pageResponse,
    signal,
  });
}

export const transactionsQueryOptions = (params: PageQueryParams) =>
  queryOptions({
    queryKey: transactionKeys().list({ ...params }),
    queryFn: ({ signal }) => getTransactions(params, signal),
  });

export function useTransactions(
  params: PageQueryParams,
  options: { placeholderData?: typeof keepPreviousData } = {},
) {
  return useQuery({ ...transactionsQueryOptions(params), ...options });
}
