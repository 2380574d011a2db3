import { selectableHostSystems } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

const hostSystemsResponse = z.object({ items: z.array(z.enum(selectableHostSystems)) });
export type SelectableHostSystem = (typeof selectableHostSystems)[number];

/** spec 1 §7 GET data-sets/host-systems: the ERP host systems a company can use. */
export async function getHostSystems(signal?: AbortSignal): Promise<SelectableHostSystem[]> {
  const response = await tenantClient.get('/data-sets/host-systems', {
    schema: hostSystemsResponse,
    signal,
  });
  return response.items;
}

export const hostSystemsQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.datasets.all(), 'host-systems'] as const,
    queryFn: ({ signal }) => getHostSystems(signal),
    staleTime: Infinity,
  });

export function useHostSystems() {
  return useQuery(hostSystemsQueryOptions());
}
