import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { invalidateDatasets } from './invalidate-datasets';

/** spec 1 §7 DELETE data-sets/{id}: 202, the company goes to Deleting and then disappears. */
export function deleteDataset(id: number): Promise<unknown> {
  return tenantClient.delete(`/data-sets/${id}`);
}

export function useDeleteDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDataset,
    onSuccess: () => invalidateDatasets(queryClient),
  });
}
