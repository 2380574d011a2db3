import {
  settlementGroupSchema,
  type CreateSettlementGroupBody,
  type SettlementGroup,
  type UpdateSettlementGroupBody,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { settlementKeys } from './settlement-keys';

export function createSettlementGroup(body: CreateSettlementGroupBody): Promise<SettlementGroup> {
  return companyClient.post('/settlement-configuration-groups', body, {
    schema: settlementGroupSchema,
  });
}

export function updateSettlementGroup(body: UpdateSettlementGroupBody): Promise<SettlementGroup> {
  return companyClient.put('/settlement-configuration-groups', body, {
    schema: settlementGroupSchema,
  });
}

export function useSaveSettlementGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSettlementGroupBody | UpdateSettlementGroupBody) =>
      'id' in body ? updateSettlementGroup(body) : createSettlementGroup(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settlementKeys().all() }),
  });
}
