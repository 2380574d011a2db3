import { datasetSchema, type CreateDatasetBody, type Dataset } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { invalidateDatasets } from './invalidate-datasets';

/** spec 1 §7 POST data-sets: registers a company, provisioned in the background (201). */
export function createDataset(body: CreateDatasetBody): Promise<Dataset> {
  return tenantClient.post('/data-sets', body, { schema: datasetSchema });
}

export function useCreateDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDataset,
    onSuccess: () => invalidateDatasets(queryClient),
  });
}
