import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { transactionKeys } from './transaction-keys';

/** DELETE transactions/{id}/documents/{documentId} (spec 2 §7 without the id; docs/api.md). */
export function deleteDocument(transactionId: string, documentId: string): Promise<unknown> {
  return companyClient.delete(
    `/transactions/${encodeURIComponent(transactionId)}/documents/${encodeURIComponent(documentId)}`,
  );
}

export function useDeleteDocument(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: string) => deleteDocument(transactionId, documentId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: transactionKeys().detail(transactionId) }),
  });
}
