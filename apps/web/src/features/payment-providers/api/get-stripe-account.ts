import { stripeAccountSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §7 GET stripe/payment-provider/{id}/account */
export function getStripeAccount(id: string, signal?: AbortSignal) {
  return companyClient.get(`/stripe/payment-provider/${encodeURIComponent(id)}/account`, {
    schema: stripeAccountSchema,
    signal,
  });
}

export function useStripeAccount(id: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: [...paymentProviderKeys().detail(id), 'stripe-account'],
      queryFn: ({ signal }) => getStripeAccount(id, signal),
      enabled,
      meta: { inlineErrors: true },
    }),
  );
}
