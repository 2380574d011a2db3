import { companyClient } from '@/lib/http';

/** spec 2 §7 GET transactions/{id}/documents/{documentId}/data: the bytes as a blob. */
export function getDocumentData(transactionId: string, documentId: string): Promise<Blob> {
  return companyClient.get<Blob>(
    `/transactions/${encodeURIComponent(transactionId)}/documents/${encodeURIComponent(documentId)}/data`,
    { responseType: 'blob' },
  );
}
