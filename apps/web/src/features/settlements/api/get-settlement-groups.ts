import { pageOf, settlementGroupSchema, type SettlementGroup } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { settlementKeys } from './settlement-keys';

const pageSize = 20;
const groupsPage = pageOf(settlementGroupSchema);

/** spec 3 §7: every group, read in pages of 20 until a short page. */
export async function getAllSettlementGroups(signal?: AbortSignal): Promise<SettlementGroup[]> {
  const groups: SettlementGroup[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await companyClient.get('/settlement-configuration-groups', {
      query: { page, itemsPerPage: pageSize, sort: 'name' },
      schema: groupsPage,
      signal,
    });
    groups.push(...answer.items);
    if (answer.items.length < pageSize || groups.length >= answer.totalItems) return groups;
  }
}

export function useSettlementGroups() {
  return useQuery(
    queryOptions({
      queryKey: settlementKeys().list({ all: true }),
      queryFn: ({ signal }) => getAllSettlementGroups(signal),
      // spec 3 §2: the page shows its own error state.
      meta: { inlineErrors: true },
    }),
  );
}
