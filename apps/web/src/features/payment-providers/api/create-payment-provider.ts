import {
  paymentProviderSchema,
  type CreatePaymentProviderBody,
  type PaymentProvider,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §7 POST providers; the company's first configuration becomes its default. */
export function createPaymentProvider(body: CreatePaymentProviderBody): Promise<PaymentProvider> {
  return companyClient.post('/providers', body, { schema: paymentProviderSchema });
}

export function useCreatePaymentProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPaymentProvider,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentProviderKeys().all() }),
  });
}
