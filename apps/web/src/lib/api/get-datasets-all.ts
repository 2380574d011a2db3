import { datasetSchema, isWorkingDatasetStatus, type Dataset } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** While a company is being set up, deleted, migrated or reset its status is polled this often. */
export const workingDatasetPollMs = 5000;

/** spec 1 §4: poll while any company is in a working state, so that its spinner ends by itself. */
export function datasetsPollInterval(datasets: readonly Dataset[] | undefined): number | false {
  return datasets?.some((dataset) => isWorkingDatasetStatus(dataset.status))
    ? workingDatasetPollMs
    : false;
}

/** spec 1 §7 GET data-sets/all: every company of the tenant (the company dropdown). */
export async function getDatasetsAll(signal?: AbortSignal): Promise<Dataset[]> {
  // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
  const response = await tenantClient.get('/data-sets/all', {
    schema: import.meta.env.DEV ? z.object({ items: z.array(datasetSchema) }) : undefined,
    signal,
  });
  return response.items;
}

export const datasetsAllQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.datasets.list({ all: true }),
    queryFn: ({ signal }) => getDatasetsAll(signal),
    refetchInterval: (query) => datasetsPollInterval(query.state.data),
  });

export function useDatasetsAll() {
  return useQuery(datasetsAllQueryOptions());
}
