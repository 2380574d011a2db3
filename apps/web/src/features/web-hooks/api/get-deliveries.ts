import { webHookDeliveriesSchema, webHookDeliverySchema } from '@ledgerline/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { webHookKeys } from './web-hook-keys';

/** GET web-hooks/endpoints/{id}/deliveries: the delivery log, newest first; refreshed while open. */
export function useDeliveries(endpointId: string, page: number, itemsPerPage: number) {
  return useQuery({
    queryKey: webHookKeys().list({ endpointId, page, itemsPerPage }),
    queryFn: ({ signal }) =>
      companyClient.get(`/web-hooks/endpoints/${endpointId}/deliveries`, {
        schema: webHookDeliveriesSchema,
        query: { page, itemsPerPage },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  });
}

/** POST web-hooks/deliveries/{id}/resend. */
export function useResendDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      companyClient.post(`/web-hooks/deliveries/${id}/resend`, undefined, {
        schema: webHookDeliverySchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webHookKeys().all() }),
  });
}
