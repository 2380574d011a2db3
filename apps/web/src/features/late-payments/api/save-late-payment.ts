import {
  latePaymentConfigurationSchema,
  type CreateLatePaymentBody,
  type LatePaymentConfiguration,
  type UpdateLatePaymentBody,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { latePaymentKeys } from './late-payment-keys';

const path = '/late-payment-configurations';

export function saveLatePayment(
  body: CreateLatePaymentBody | UpdateLatePaymentBody,
): Promise<LatePaymentConfiguration> {
  return 'id' in body
    ? companyClient.put(path, body, { schema: latePaymentConfigurationSchema })
    : companyClient.post(path, body, { schema: latePaymentConfigurationSchema });
}

export function deleteLatePayment(id: string): Promise<unknown> {
  return companyClient.delete(`${path}/${encodeURIComponent(id)}`);
}

export function useSaveLatePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLatePayment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: latePaymentKeys().all() }),
  });
}

export function useDeleteLatePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLatePayment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: latePaymentKeys().all() }),
  });
}
