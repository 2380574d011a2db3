import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '@/lib/http';
import type { createErrorHandling } from './error-handling';

/** One retry for a call that got no answer or a temporary server error; none for the rest. */
function shouldRetry(failureCount: number, error: Error): boolean {
  if (failureCount >= 1 || !isApiError(error)) return false;
  return error.status === null || error.status === 500 || error.status === 504;
}

export function createAppQueryClient(
  handling: ReturnType<typeof createErrorHandling>,
): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: handling.onQueryError }),
    mutationCache: new MutationCache({ onError: handling.onMutationError }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
