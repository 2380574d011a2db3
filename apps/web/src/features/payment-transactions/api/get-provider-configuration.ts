import { formatFilter, paymentProviderSummarySchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/**
 * What a payment's provider card shows of its configuration to someone who may not open it: the
 * providers list (which anyone in the company reads, docs/decisions/125-the-payment-provider-card-without.md) narrowed to the one id.
 */
const configurationPage = z.object({
  items: z.array(
    paymentProviderSummarySchema.pick({
      id: true,
      name: true,
      providerName: true,
      enabled: true,
      isTest: true,
    }),
  ),
});
export type ProviderConfiguration = z.infer<typeof configurationPage>['items'][number];

export async function getProviderConfiguration(
  id: string,
  signal?: AbortSignal,
): Promise<ProviderConfiguration | null> {
  const page = await companyClient.get('/providers', {
    query: {
      page: 1,
      itemsPerPage: 1,
      filter: formatFilter([{ field: 'id', operator: 'eq', value: id }]),
    },
    schema: configurationPage,
    signal,
  });
  return page.items[0] ?? null;
}

export function useProviderConfiguration(id: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: [...companyQueryKeys('payment-providers').all(), 'card', id],
      queryFn: ({ signal }) => getProviderConfiguration(id, signal),
      // The card falls back to the provider kind stored on the payment.
      meta: { inlineErrors: true },
      enabled,
    }),
  );
}
