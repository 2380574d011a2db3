import { paymentRequestSchema } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentRequestKeys } from './get-payment-requests';

/** POST payment-requests/{id}/cancel (an Open request only). */
export function cancelPaymentRequest(id: string) {
  return companyClient.post(`/payment-requests/${id}/cancel`, undefined, {
    schema: paymentRequestSchema,
  });
}

export function useCancelPaymentRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelPaymentRequest,
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentRequestKeys().all() }),
  });
}
