import { refundResultSchema, type RefundBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { disputeKeys } from './get-disputes';
import { paymentTransactionKeys } from './get-payment-transactions';
import { providerEventKeys } from './get-provider-events';

/** POST payment-transactions/{id}/refund — give money back through the payment's provider. */
export function refundPayment(id: string, body: RefundBody) {
  return companyClient.post(`/payment-transactions/${encodeURIComponent(id)}/refund`, body, {
    schema: refundResultSchema,
  });
}

export function useRefundPayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundBody) => refundPayment(id, body),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: paymentTransactionKeys().all() }),
        queryClient.invalidateQueries({ queryKey: providerEventKeys(id) }),
        queryClient.invalidateQueries({ queryKey: disputeKeys().all() }),
      ]);
    },
  });
}
