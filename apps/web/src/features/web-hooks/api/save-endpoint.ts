import { webHookEndpointSchema, type WebHookEndpointInput } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { webHookKeys } from './web-hook-keys';

/** POST web-hooks/endpoints, or PUT web-hooks/endpoints/{id} when id is given. */
export function useSaveEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: WebHookEndpointInput }) =>
      id
        ? companyClient.put(`/web-hooks/endpoints/${id}`, body, { schema: webHookEndpointSchema })
        : companyClient.post('/web-hooks/endpoints', body, { schema: webHookEndpointSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webHookKeys().all() }),
  });
}
