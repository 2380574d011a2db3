import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { webHookKeys } from './web-hook-keys';

/** DELETE web-hooks/endpoints/{id} (204): the endpoint and its delivery log. */
export function useDeleteEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => companyClient.delete(`/web-hooks/endpoints/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webHookKeys().all() }),
  });
}
