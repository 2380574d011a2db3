import { importResultSchema } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentTransactionKeys } from './get-payment-transactions';

/** spec 2 §7 POST payment-transactions/allocated-status/import (multipart, field file). */
export function importAllocatedStatuses(file: File) {
  const form = new FormData();
  form.append('file', file);
  return companyClient.post('/payment-transactions/allocated-status/import', form, { schema: importResultSchema });
}

export function useImportAllocatedStatuses() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importAllocatedStatuses,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentTransactionKeys().all() }),
  });
}
