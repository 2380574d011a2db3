import {
  paymentProviderSchema,
  type PaymentProvider,
  type UpdatePaymentProviderBody,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §7 PUT providers (the body carries the id; a secret sent as the sentinel is kept). */
export function updatePaymentProvider(body: UpdatePaymentProviderBody): Promise<PaymentProvider> {
  return companyClient.put('/providers', body, { schema: paymentProviderSchema });
}

export function useUpdatePaymentProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePaymentProvider,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentProviderKeys().all() }),
  });
}
