import { bankSchema, type Bank } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { bankKeys } from './bank-keys';
import { isRecordId } from '@/ui/detail-load-error';

/** spec 2 §7 GET banks/{id}. */
export function getBank(id: string, signal?: AbortSignal): Promise<Bank> {
  return companyClient.get(`/banks/${encodeURIComponent(id)}`, { schema: bankSchema, signal });
}

export const bankQueryOptions = (id: string) =>
  queryOptions({
    queryKey: bankKeys().detail(id),
    queryFn: ({ signal }) => getBank(id, signal),
    // spec 2 §8: a failed bank load "returns nothing"; the detail page shows its own error state.
    meta: { inlineErrors: true },
    // A malformed id names no record: the page says so without a call.
    enabled: isRecordId(id),
  });

export function useBank(id: string) {
  return useQuery(bankQueryOptions(id));
}
