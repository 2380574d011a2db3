import { datasetSchema, type Dataset, type UpdateDatasetBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { invalidateDatasets } from './invalidate-datasets';

/** spec 1 §7 PUT data-sets: the body carries the company's id. */
export function updateDataset(body: UpdateDatasetBody): Promise<Dataset> {
  return tenantClient.put('/data-sets', body, { schema: datasetSchema });
}

export function useUpdateDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDataset,
    onSuccess: () => invalidateDatasets(queryClient),
  });
}
