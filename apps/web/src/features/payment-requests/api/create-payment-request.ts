import { paymentRequestSchema, type CreatePaymentRequestBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentRequestKeys } from './get-payment-requests';

/** spec 2 §7 POST payment-requests: the created request is read back. */
export function createPaymentRequest(body: CreatePaymentRequestBody) {
  return companyClient.post('/payment-requests', body, { schema: paymentRequestSchema });
}

export function useCreatePaymentRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPaymentRequest,
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentRequestKeys().all() }),
  });
}
