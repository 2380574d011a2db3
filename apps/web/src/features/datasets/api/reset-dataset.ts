import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { invalidateDatasets } from './invalidate-datasets';

/** spec 1 §7 POST data-sets/{id}/reset: refills a demo company with fresh demo data (202). */
export function resetDataset(id: number): Promise<unknown> {
  return tenantClient.post(`/data-sets/${id}/reset`);
}

export function useResetDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetDataset,
    onSuccess: () => invalidateDatasets(queryClient),
  });
}
