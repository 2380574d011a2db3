import { companyClient, type DownloadedFile } from '@/lib/http';

/**
 * spec 2 §7 GET transactions/{id}/documents/{documentId}/data: the bytes as a blob, with the file
 * name of the answer's Content-Disposition.
 */
export function getDocumentData(transactionId: string, documentId: string): Promise<DownloadedFile> {
  return companyClient.get<DownloadedFile>(
    `/transactions/${encodeURIComponent(transactionId)}/documents/${encodeURIComponent(documentId)}/data`,
    { responseType: 'file' },
  );
}
