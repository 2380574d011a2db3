import { datasetSchema, pageOf, type Dataset, type Page } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';
import type { GridQuery } from '@/ui/grid-state';
import { datasetsPollInterval } from '@/lib/api/get-datasets-all';

const datasetsPageResponse = pageOf(datasetSchema);

/** spec 1 §7 GET data-sets: the companies grid, paged, sorted and filtered by the server. */
export function getDatasetsPage(query: GridQuery, signal?: AbortSignal): Promise<Page<Dataset>> {
  return tenantClient.get('/data-sets', {
    query: { ...query },
    schema: datasetsPageResponse,
    signal,
  });
}

export const datasetsPageQueryOptions = (query: GridQuery) =>
  queryOptions({
    queryKey: queryKeys.datasets.list({ ...query }),
    queryFn: ({ signal }) => getDatasetsPage(query, signal),
    placeholderData: keepPreviousData,
    // spec 1 §4: a company in a working state shows a spinner until it settles.
    refetchInterval: (query) => datasetsPollInterval(query.state.data?.items),
  });

export function useDatasetsPage(query: GridQuery) {
  return useQuery(datasetsPageQueryOptions(query));
}
