import { paymentProviderSchema, type PaymentProvider } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §7 GET providers/{id}: one configuration; stored secrets read as the sentinel. */
export function getPaymentProvider(id: string, signal?: AbortSignal): Promise<PaymentProvider> {
  return companyClient.get(`/providers/${encodeURIComponent(id)}`, {
    schema: paymentProviderSchema,
    signal,
  });
}

export const paymentProviderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: paymentProviderKeys().detail(id),
    queryFn: ({ signal }) => getPaymentProvider(id, signal),
    // spec 3 §2: the page shows a failed load itself.
    meta: { inlineErrors: true },
  });

export function usePaymentProvider(id: string) {
  return useQuery(paymentProviderQueryOptions(id));
}
