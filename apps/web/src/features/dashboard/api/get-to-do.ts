import { dashboardTodoSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { refetchUnlessJustSeeded } from '@/lib/first-calls';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/** spec 1 §2.4: the to-do list, computed by the server (`GET dashboard/to-do`, docs/api.md). */
export const todoQueryOptions = () =>
  queryOptions({
    queryKey: companyQueryKeys('dashboard').detail('to-do'),
    queryFn: ({ signal }) =>
      // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
      companyClient.get('/dashboard/to-do', {
        schema: import.meta.env.DEV ? dashboardTodoSchema : undefined,
        signal,
      }),
    // Settings pages fix items without knowing this list: recompute each time the dashboard
    // opens, but not just after the page brought it (app/first-screen.ts).
    refetchOnMount: refetchUnlessJustSeeded,
  });

export function useTodo() {
  return useQuery(todoQueryOptions());
}
