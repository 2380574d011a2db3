import { fundingSearchSchema } from '@ledgerline/contract';
import { useQuery } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { tenantQueryKeys } from '@/lib/query-keys';

/** GET funding/search: the address of Capitalise's funding search, or null when not set up. */
export function useFundingSearch() {
  return useQuery({
    queryKey: [...tenantQueryKeys('funding').all(), 'search'],
    queryFn: ({ signal }) =>
      tenantClient.get('/funding/search', { schema: fundingSearchSchema, signal }),
    staleTime: Infinity,
  });
}
