import { estimatedPageOf, transactionSchema } from '@ledgerline/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';
import type { GridQuery } from '@/ui/grid-state';
import { ownerQuery } from './get-related-payment-transactions';

const pageResponse = estimatedPageOf(transactionSchema);

/** spec 2 §7 GET transactions with `accountId eq {id}`: the account page's transactions tab. */
export function getAccountTransactions(accountId: string, query: GridQuery, signal?: AbortSignal) {
  return companyClient.get('/transactions', {
    query: { ...ownerQuery({ field: 'accountId', id: accountId }, query) },
    schema: pageResponse,
    signal,
  });
}

export function useAccountTransactions(accountId: string, query: GridQuery) {
  return useQuery({
    queryKey: companyQueryKeys('transactions').list({
      ...ownerQuery({ field: 'accountId', id: accountId }, query),
    }),
    queryFn: ({ signal }) => getAccountTransactions(accountId, query, signal),
    placeholderData: keepPreviousData,
  });
}
