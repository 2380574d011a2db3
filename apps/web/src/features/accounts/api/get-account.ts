import { accountSchema, type Account } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { accountKeys } from './account-keys';
import { isRecordId } from '@/ui/detail-load-error';

/** spec 2 §7 GET accounts/{id}, with the counts of the page's tab badges. */
export function getAccount(id: string, signal?: AbortSignal): Promise<Account> {
  return companyClient.get(`/accounts/${encodeURIComponent(id)}`, {
    query: { expand: 'counts' },
    schema: accountSchema,
    signal,
  });
}

export const accountQueryOptions = (id: string) =>
  queryOptions({
    queryKey: accountKeys().detail(id),
    queryFn: ({ signal }) => getAccount(id, signal),
    // spec 2 §8 accounts.accountGet: the detail page shows its own error state.
    meta: { inlineErrors: true },
    // A malformed id names no record: the page says so without a call.
    enabled: isRecordId(id),
  });

export function useAccount(id: string) {
  return useQuery(accountQueryOptions(id));
}
