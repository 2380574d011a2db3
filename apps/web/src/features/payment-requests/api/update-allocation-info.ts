import { paymentRequestSchema, type AllocationInfoBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentRequestKeys } from './get-payment-requests';

/** spec 2 §7 PATCH payment-requests/{id}/transaction-allocation-info. */
export function updateAllocationInfo(id: string, body: AllocationInfoBody) {
  return companyClient.patch(`/payment-requests/${encodeURIComponent(id)}/transaction-allocation-info`, body, {
    schema: paymentRequestSchema,
  });
}

export function useUpdateAllocationInfo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AllocationInfoBody) => updateAllocationInfo(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentRequestKeys().all() }),
  });
}
