import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/**
 * What the export dialog shows of a payment provider configuration. The list call and its full
 * schema come with the payment providers area (spec 3, `GET /api/v0/providers`, docs/api.md); the
 * dialog reads only these three fields of each item.
 */
const exportProviders = z.object({
  items: z.array(z.object({ id: z.uuid(), name: z.string(), providerName: z.string() })),
});
export type ExportProvider = z.infer<typeof exportProviders>['items'][number];

/** Enough for every configuration a company has: the list is short (one per provider account). */
const providersRead = { page: 1, itemsPerPage: 1000, sort: 'name' } as const;

/** spec 2 §2, §3: the list of all payment providers, for the export dialog's provider select. */
export function getExportProviders(signal?: AbortSignal) {
  return companyClient.get('/providers', { query: providersRead, schema: exportProviders, signal });
}

export function useExportProviders(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: [...companyQueryKeys('payment-providers').all(), 'export', providersRead],
      queryFn: ({ signal }) => getExportProviders(signal),
      // The dialog says the list could not be read; exporting every provider still works.
      meta: { inlineErrors: true },
      enabled,
    }),
  );
}
