import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/** spec 2 §7 GET provider-events/payloads: one event's payload as text. */
export function getProviderEventPayload(eventId: string, signal?: AbortSignal) {
  return companyClient.get('/provider-events/payloads', { query: { id: eventId }, headers: { Accept: 'text/plain' }, schema: z.string(), signal });
}

export const providerEventPayloadQueryOptions = (eventId: string) =>
  queryOptions({
    queryKey: [...companyQueryKeys('provider-events').all(), 'payload', eventId] as const,
    queryFn: ({ signal }) => getProviderEventPayload(eventId, signal),
    meta: { inlineErrors: true },
  });

export function useProviderEventPayload(eventId: string | undefined) {
  return useQuery({ ...providerEventPayloadQueryOptions(eventId ?? ''), enabled: eventId !== undefined });
}
