import { transactionQuoteSchema, type TransactionQuote } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useUserSetting } from '@/auth/api/get-me';
import { companyClient } from '@/lib/http';
import { ianaTimeZone } from '@/ui/format';
import { transactionKeys } from './transaction-keys';

/** Today in the user's time zone, as the quote's paidOn (YYYY-MM-DD). */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** GET transactions/{id}/quote: what the transaction costs if paid on paidOn. */
export function getTransactionQuote(
  id: string,
  paidOn: string,
  signal?: AbortSignal,
): Promise<TransactionQuote> {
  return companyClient.get(`/transactions/${encodeURIComponent(id)}/quote`, {
    query: { paidOn },
    schema: transactionQuoteSchema,
    signal,
  });
}

/** Keyed under the transaction's detail, so whatever reloads the transaction reloads its quote. */
export function useTransactionQuote(id: string) {
  const paidOn = todayIn(ianaTimeZone(useUserSetting().timeZoneId));
  return useQuery(
    queryOptions({
      queryKey: [...transactionKeys().detail(id), 'quote', paidOn],
      queryFn: ({ signal }) => getTransactionQuote(id, paidOn, signal),
      meta: { inlineErrors: true },
    }),
  );
}
