import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { settlementKeys } from './settlement-keys';

/** 409 when the group is the company default or an account's choice (docs/decisions/040-settlement-groups-and-late-payment.md). */
export function deleteSettlementGroup(id: string): Promise<unknown> {
  return companyClient.delete(`/settlement-configuration-groups/${encodeURIComponent(id)}`);
}

export function useDeleteSettlementGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSettlementGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settlementKeys().all() }),
  });
}
