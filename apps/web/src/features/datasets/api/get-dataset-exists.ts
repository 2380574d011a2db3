import { queryOptions, useQuery } from '@tanstack/react-query';
import { isApiError, tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** spec 1 §7 GET data-sets/{id}/exists: 204 yes, 404 no. */
export async function getDatasetExists(id: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await tenantClient.get(`/data-sets/${id}/exists`, { signal });
    return true;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return false;
    throw error;
  }
}

export const datasetExistsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.datasets.exists(id),
    queryFn: ({ signal }) => getDatasetExists(id, signal),
    staleTime: Infinity,
  });

export function useDatasetExists(id: number) {
  return useQuery(datasetExistsQueryOptions(id));
}
