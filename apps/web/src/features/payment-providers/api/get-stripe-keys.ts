import { stripeKeysSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §7 GET stripe/keys: the platform's test mode and Connect client id. */
export function getStripeKeys(signal?: AbortSignal) {
  return companyClient.get('/stripe/keys', { schema: stripeKeysSchema, signal });
}

export function useStripeKeys() {
  return useQuery(
    queryOptions({
      queryKey: [...paymentProviderKeys().all(), 'stripe-keys'],
      queryFn: ({ signal }) => getStripeKeys(signal),
      staleTime: Infinity,
    }),
  );
}
