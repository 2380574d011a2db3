import { defaultPaymentProviderSchema } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §4: make a configuration the company's default; the list's tag follows. */
export function setDefaultPaymentProvider(paymentProviderId: string) {
  return companyClient.put(
    '/providers/default',
    { paymentProviderId },
    { schema: defaultPaymentProviderSchema },
  );
}

export function useSetDefaultPaymentProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDefaultPaymentProvider,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentProviderKeys().all() }),
  });
}
