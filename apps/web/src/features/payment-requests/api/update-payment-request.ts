import { paymentRequestSchema, type UpdatePaymentRequestBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentRequestKeys } from './get-payment-requests';

/** spec 2 §7 PATCH payment-requests: the body carries the id; absent fields stay. */
export function updatePaymentRequest(body: UpdatePaymentRequestBody) {
  return companyClient.patch('/payment-requests', body, { schema: paymentRequestSchema });
}

export function useUpdatePaymentRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePaymentRequest,
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentRequestKeys().all() }),
  });
}
