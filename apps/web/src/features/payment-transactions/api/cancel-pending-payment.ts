import { pendingActionResultSchema, type CancelBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentTransactionKeys } from './get-payment-transactions';
import { providerEventKeys } from './get-provider-events';

/** spec 2 §7 POST payment-transactions/{id}/pending/cancel. */
export function cancelPendingPayment(id: string, body: CancelBody) {
  return companyClient.post(`/payment-transactions/${encodeURIComponent(id)}/pending/cancel`, body, { schema: pendingActionResultSchema });
}

export function useCancelPendingPayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CancelBody) => cancelPendingPayment(id, body),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: paymentTransactionKeys().all() });
      await queryClient.invalidateQueries({ queryKey: providerEventKeys(id) });
    },
  });
}
