import { agedReceivablesSchema, type AgingBasis } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';
import type { GridQuery } from '@/ui/grid-state';

export const reportKeys = () => companyQueryKeys('reports');

/** What the Reports page asks for: the day, the basis, the currency (the company's when absent). */
export interface AgedReceivablesChoice {
  asOf: string;
  basis: AgingBasis;
  currency?: string;
}

const queryOf = (choice: AgedReceivablesChoice, grid?: GridQuery) => ({
  asOf: choice.asOf,
  basis: choice.basis,
  ...(choice.currency ? { currency: choice.currency } : {}),
  ...(grid ? { page: grid.page, itemsPerPage: grid.itemsPerPage, sort: grid.sort } : {}),
});

/** `GET reports/aged-receivables`: one page of accounts, the company totals. */
export function getAgedReceivables(
  choice: AgedReceivablesChoice,
  grid: GridQuery,
  signal?: AbortSignal,
) {
  return companyClient.get('/reports/aged-receivables', {
    query: queryOf(choice, grid),
    schema: agedReceivablesSchema,
    signal,
  });
}

export const agedReceivablesQueryOptions = (choice: AgedReceivablesChoice, grid: GridQuery) =>
  queryOptions({
    queryKey: reportKeys().list({ report: 'aged-receivables', ...queryOf(choice, grid) }),
    queryFn: ({ signal }) => getAgedReceivables(choice, grid, signal),
    placeholderData: keepPreviousData,
  });

export function useAgedReceivables(
  choice: AgedReceivablesChoice,
  grid: GridQuery,
  enabled: boolean,
) {
  return useQuery({ ...agedReceivablesQueryOptions(choice, grid), enabled });
}

/** The whole report as CSV (every account and a Total line), as the server names it. */
export async function downloadAgedReceivablesCsv(choice: AgedReceivablesChoice): Promise<Blob> {
  return companyClient.get<Blob>('/reports/aged-receivables', {
    query: { ...queryOf(choice), format: 'csv' },
    responseType: 'blob',
  });
}
