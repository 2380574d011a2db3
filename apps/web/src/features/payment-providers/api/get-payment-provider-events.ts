import {
  pageOf,
  paymentProviderEventSchema,
  type Page,
  type PaymentProviderEvent,
} from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

const eventsPageResponse = pageOf(paymentProviderEventSchema);
export const providerEventsPerPage = 10;

/** GET providers/{id}/events: the configuration's provider exchanges, newest first. */
export function getPaymentProviderEvents(
  id: string,
  page: number,
  signal?: AbortSignal,
): Promise<Page<PaymentProviderEvent>> {
  return companyClient.get(`/providers/${encodeURIComponent(id)}/events`, {
    query: { page, itemsPerPage: providerEventsPerPage },
    schema: eventsPageResponse,
    signal,
  });
}

export const paymentProviderEventsQueryOptions = (id: string, page: number) =>
  queryOptions({
    queryKey: [...paymentProviderKeys().detail(id), 'events', page],
    queryFn: ({ signal }) => getPaymentProviderEvents(id, page, signal),
    placeholderData: keepPreviousData,
    // A connection test just made adds an event: each opening of the dialog reads afresh.
    staleTime: 0,
    meta: { inlineErrors: true },
  });

export function usePaymentProviderEvents(id: string, page: number) {
  return useQuery(paymentProviderEventsQueryOptions(id, page));
}
