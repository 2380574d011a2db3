import { transactionQuoteSchema, type TransactionQuote } from '@ledgerline/contract';
import { useQueries } from '@tanstack/react-query';
import { useUserSetting } from '@/auth/api/get-me';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';
import { ianaTimeZone } from '@/ui/format';

/** Today in the user's time zone (YYYY-MM-DD), the day the quotes are for. */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/**
 * GET transactions/{id}/quote for each transaction of a payment request (the
 * transactions tab shows what each costs if paid today). A request pays a handful of
 * transactions, so one small call each; keyed under the transactions area so a change to one
 * reloads it.
 */
export function useRequestTransactionQuotes(transactionIds: readonly string[]) {
  const paidOn = todayIn(ianaTimeZone(useUserSetting().timeZoneId));
  const results = useQueries({
    queries: transactionIds.map((id) => ({
      queryKey: [...companyQueryKeys('transactions').detail(id), 'quote', paidOn],
      queryFn: ({ signal }: { signal: AbortSignal }): Promise<TransactionQuote> =>
        companyClient.get(`/transactions/${encodeURIComponent(id)}/quote`, {
          query: { paidOn },
          schema: transactionQuoteSchema,
          signal,
        }),
      meta: { inlineErrors: true },
    })),
  });
  const byId = new Map<string, TransactionQuote>();
  results.forEach((result, index) => {
    if (result.data) byId.set(transactionIds[index]!, result.data);
  });
  return byId;
}
