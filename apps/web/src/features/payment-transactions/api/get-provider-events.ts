import { providerEventSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

export const providerEventKeys = (paymentTransactionId: string) => [...companyQueryKeys('provider-events').all(), paymentTransactionId] as const;

const eventsResponse = z.object({ items: z.array(providerEventSchema) });

/** spec 2 §7 GET provider-events/records/{paymentTransactionId}: the dialog shows the last one. */
export function getProviderEvents(paymentTransactionId: string, signal?: AbortSignal) {
  return companyClient.get(`/provider-events/records/${encodeURIComponent(paymentTransactionId)}`, { schema: eventsResponse, signal });
}

export const providerEventsQueryOptions = (paymentTransactionId: string) =>
  queryOptions({
    queryKey: providerEventKeys(paymentTransactionId),
    queryFn: ({ signal }) => getProviderEvents(paymentTransactionId, signal),
    meta: { inlineErrors: true },
  });

export function useProviderEvents(paymentTransactionId: string, enabled: boolean) {
  return useQuery({ ...providerEventsQueryOptions(paymentTransactionId), enabled });
}
