import { transactionDocumentSchema, type TransactionDocument } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { transactionKeys } from './transaction-keys';

/** spec 2 §7 POST transactions/{id}/documents (multipart, field file). */
export function uploadDocument(transactionId: string, file: File): Promise<TransactionDocument> {
  const form = new FormData();
  form.append('file', file, file.name);
  return companyClient.post(`/transactions/${encodeURIComponent(transactionId)}/documents`, form, {
    schema: transactionDocumentSchema,
  });
}

export function useUploadDocument(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadDocument(transactionId, file),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: transactionKeys().detail(transactionId) }),
  });
}
