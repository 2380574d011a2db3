import { payerSchema, type Payer } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { payerKeys } from './account-keys';
import { isRecordId } from '@/ui/detail-load-error';

/** spec 2 §7 GET accounts/{id}/payers/{payerId}. */
export function getPayer(accountId: string, id: string, signal?: AbortSignal): Promise<Payer> {
  return companyClient.get(
    `/accounts/${encodeURIComponent(accountId)}/payers/${encodeURIComponent(id)}`,
    {
      schema: payerSchema,
      signal,
    },
  );
}

export const payerQueryOptions = (accountId: string, id: string) =>
  queryOptions({
    queryKey: payerKeys(accountId).detail(id),
    queryFn: ({ signal }) => getPayer(accountId, id, signal),
    // spec 2 §8 accounts.payerGet: the payer page shows its own error state.
    meta: { inlineErrors: true },
    // A malformed id names no record: the page says so without a call.
    enabled: isRecordId(accountId) && isRecordId(id),
  });

export function usePayer(accountId: string, id: string) {
  return useQuery(payerQueryOptions(accountId, id));
}
