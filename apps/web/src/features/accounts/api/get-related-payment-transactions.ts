import { countSchema, estimatedPageOf, paymentTransactionSchema } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import type { GridQuery } from '@/ui/grid-state';
import { relatedPaymentTransactionKeys } from './account-keys';

const pageResponse = estimatedPageOf(paymentTransactionSchema);

/** Whose payment transactions: spec 2 §7 "account-related lists use accountId eq {id}", payers payerId. */
export interface PaymentTransactionOwner {
  field: 'accountId' | 'payerId';
  id: string;
}

/** The grid's own filters plus the owner's, as one filter list (spec 1 §7). */
export function ownerQuery(owner: PaymentTransactionOwner, query: GridQuery): GridQuery {
  const ownerFilter = `${owner.field} eq ${owner.id}`;
  return { ...query, filter: query.filter ? `${ownerFilter},${query.filter}` : ownerFilter };
}

/** spec 2 §7 GET payment-transactions, narrowed to one account or payer. */
export function getRelatedPaymentTransactions(
  owner: PaymentTransactionOwner,
  query: GridQuery,
  signal?: AbortSignal,
) {
  return companyClient.get('/payment-transactions', {
    query: { ...ownerQuery(owner, query) },
    schema: pageResponse,
    signal,
  });
}

export const relatedPaymentTransactionsQueryOptions = (
  owner: PaymentTransactionOwner,
  query: GridQuery,
) =>
  queryOptions({
    queryKey: relatedPaymentTransactionKeys().list({ ...ownerQuery(owner, query) }),
    queryFn: ({ signal }) => getRelatedPaymentTransactions(owner, query, signal),
    placeholderData: keepPreviousData,
  });

export function useRelatedPaymentTransactions(owner: PaymentTransactionOwner, query: GridQuery) {
  return useQuery(relatedPaymentTransactionsQueryOptions(owner, query));
}

/** spec 2 §7 GET payment-transactions/count for one account or payer; runs once `enabled`. */
export function useRelatedPaymentTransactionsCount(
  owner: PaymentTransactionOwner,
  enabled: boolean,
) {
  const filter = `${owner.field} eq ${owner.id}`;
  return useQuery({
    queryKey: [...relatedPaymentTransactionKeys().all(), 'count', filter],
    queryFn: ({ signal }) =>
      companyClient.get('/payment-transactions/count', {
        query: { filter },
        schema: countSchema,
        signal,
      }),
    enabled,
  });
}
