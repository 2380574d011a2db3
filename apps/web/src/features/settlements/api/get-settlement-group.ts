import { settlementGroupSchema, type SettlementGroup } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { settlementKeys } from './settlement-keys';

export function getSettlementGroup(id: string, signal?: AbortSignal): Promise<SettlementGroup> {
  return companyClient.get(`/settlement-configuration-groups/${encodeURIComponent(id)}`, {
    schema: settlementGroupSchema,
    signal,
  });
}

export function useSettlementGroup(id: string) {
  return useQuery(
    queryOptions({
      queryKey: settlementKeys().detail(id),
      queryFn: ({ signal }) => getSettlementGroup(id, signal),
      // spec 3 §2: the page shows its own error state.
      meta: { inlineErrors: true },
    }),
  );
}
