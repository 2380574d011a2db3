import {
  settlementGroupSchema,
  type SettlementConfigurationBody,
  type SettlementGroup,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { settlementKeys } from './settlement-keys';

const path = (groupId: string) =>
  `/settlement-configuration-groups/${encodeURIComponent(groupId)}/configurations`;

/** spec 3 §4: saving answers the whole group, which replaces the list. */
export function saveSettlementConfiguration(
  groupId: string,
  body: SettlementConfigurationBody & { id?: string },
): Promise<SettlementGroup> {
  return body.id
    ? companyClient.put(path(groupId), body, { schema: settlementGroupSchema })
    : companyClient.post(path(groupId), body, { schema: settlementGroupSchema });
}

export function deleteSettlementConfiguration(groupId: string, id: string): Promise<unknown> {
  return companyClient.delete(`${path(groupId)}/${encodeURIComponent(id)}`);
}

export function useSaveSettlementConfiguration(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettlementConfigurationBody & { id?: string }) =>
      saveSettlementConfiguration(groupId, body),
    onSuccess: (group) => {
      queryClient.setQueryData(settlementKeys().detail(groupId), group);
      return queryClient.invalidateQueries({ queryKey: settlementKeys().lists() });
    },
  });
}

/** spec 3 §4: deleting is followed by a reload of the group. */
export function useDeleteSettlementConfiguration(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteSettlementConfiguration(groupId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settlementKeys().all() }),
  });
}
