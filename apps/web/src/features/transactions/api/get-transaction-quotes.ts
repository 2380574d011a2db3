import {
  estimatedPageOf,
  transactionQuoteSummarySchema,
  transactionSchema,
  type PageQueryParams,
} from '@ledgerline/contract';
import { queryOptions, useQuery, type keepPreviousData } from '@tanstack/react-query';
import { useUserSetting } from '@/auth/api/get-me';
import { companyClient } from '@/lib/http';
import { ianaTimeZone } from '@/ui/format';
import { todayIn } from './get-transaction-quote';
import { transactionKeys } from './transaction-keys';

const pageResponse = estimatedPageOf(
  transactionSchema.extend({ quote: transactionQuoteSummarySchema.optional() }),
);

/**
 * GET transactions/quotes: the list page of GET transactions, each row with what it costs if paid
 * on paidOn (the list's discounted amount), in one request.
 */
export function getTransactionsWithQuotes(
  params: PageQueryParams,
  paidOn: string,
  signal?: AbortSignal,
) {
  return companyClient.get('/transactions/quotes', {
    query: { ...params, expand: 'account', paidOn },
    schema: pageResponse,
    signal,
  });
}

export function useTransactionsWithQuotes(
  params: PageQueryParams,
  options: { placeholderData?: typeof keepPreviousData } = {},
) {
  const paidOn = todayIn(ianaTimeZone(useUserSetting().timeZoneId));
  return useQuery({
    ...queryOptions({
      queryKey: transactionKeys().list({ ...params, paidOn }),
      queryFn: ({ signal }) => getTransactionsWithQuotes(params, paidOn, signal),
    }),
    ...options,
  });
}
