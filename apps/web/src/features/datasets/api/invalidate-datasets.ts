import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/**
 * After a change: the companies grid and the shell's data-sets/all (the company dropdown) both
 * sit under the datasets list keys, so both refetch and start polling a working state.
 */
export function invalidateDatasets(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.datasets.lists() });
}
