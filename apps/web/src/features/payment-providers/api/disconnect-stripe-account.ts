import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §4: the server deauthorises at Stripe, then clears the account id. */
export function disconnectStripeAccount(id: string): Promise<void> {
  return companyClient.post(
    `/stripe/payment-provider/${encodeURIComponent(id)}/account/disconnect`,
  );
}

export function useDisconnectStripeAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectStripeAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentProviderKeys().all() }),
  });
}
