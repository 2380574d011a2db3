import { defaultPaymentProviderSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §4 "Default provider": the company's default configuration, or null. */
export function getDefaultPaymentProvider(signal?: AbortSignal) {
  return companyClient.get('/providers/default', { schema: defaultPaymentProviderSchema, signal });
}

export const defaultPaymentProviderQueryOptions = () =>
  queryOptions({
    queryKey: paymentProviderKeys().default(),
    queryFn: ({ signal }) => getDefaultPaymentProvider(signal),
  });

export function useDefaultPaymentProvider() {
  return useQuery(defaultPaymentProviderQueryOptions());
}
