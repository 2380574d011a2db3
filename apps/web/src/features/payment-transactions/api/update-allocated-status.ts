import { paymentTransactionSchema, type AllocatedStatus } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentTransactionKeys } from './get-payment-transactions';

/** spec 2 §7 PATCH payment-transactions/{id}/allocated-status. */
export function updateAllocatedStatus(id: string, status: AllocatedStatus) {
  return companyClient.patch(`/payment-transactions/${encodeURIComponent(id)}/allocated-status`, { status }, { schema: paymentTransactionSchema });
}

/** Changes the status, then refreshes the page's payment and every list (spec 2 §4). */
export function useUpdateAllocatedStatus(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: AllocatedStatus) => updateAllocatedStatus(id, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentTransactionKeys().all() }),
  });
}
