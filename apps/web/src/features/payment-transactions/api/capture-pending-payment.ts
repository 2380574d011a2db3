import { pendingActionResultSchema, type CaptureBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentTransactionKeys } from './get-payment-transactions';
import { providerEventKeys } from './get-provider-events';

/** spec 2 §7 POST payment-transactions/{id}/pending/capture. */
export function capturePendingPayment(id: string, body: CaptureBody) {
  return companyClient.post(`/payment-transactions/${encodeURIComponent(id)}/pending/capture`, body, { schema: pendingActionResultSchema });
}

export function useCapturePendingPayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CaptureBody) => capturePendingPayment(id, body),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: paymentTransactionKeys().all() });
      await queryClient.invalidateQueries({ queryKey: providerEventKeys(id) });
    },
  });
}
