import { stripeConnectResult } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §7 POST stripe/account/connect: the return route hands over code and state. */
export function connectStripeAccount(input: { code: string; state: string }) {
  return companyClient.post('/stripe/account/connect', undefined, {
    query: input,
    schema: stripeConnectResult,
  });
}

export function useConnectStripeAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectStripeAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentProviderKeys().all() }),
  });
}
