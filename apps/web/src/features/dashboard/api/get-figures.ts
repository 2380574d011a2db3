import { dashboardFiguresSchema } from '@ledgerline/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/** Outstanding, overdue, DSO and the months (`GET dashboard/figures`). */
export function useDashboardFigures(months: number) {
  return useQuery({
    queryKey: companyQueryKeys('dashboard').detail(`figures-${months}`),
    queryFn: ({ signal }) =>
      // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
      companyClient.get('/dashboard/figures', {
        query: { months },
        schema: import.meta.env.DEV ? dashboardFiguresSchema : undefined,
        signal,
      }),
    placeholderData: keepPreviousData,
    // Payments arrive all the time: fresh figures each time the dashboard opens.
    refetchOnMount: 'always',
  });
}
