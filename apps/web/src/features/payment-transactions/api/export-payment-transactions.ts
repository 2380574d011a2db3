import type { AllocatedStatus, ExportType } from '@ledgerline/contract';
import { useMutation } from '@tanstack/react-query';
import { companyClient, type DownloadedFile } from '@/lib/http';

export interface ExportRequest {
  exportType: ExportType;
  /** UTC midnights (spec 2 §5). */
  fromDate: string | null;
  toDate: string | null;
  excludeAllocatedStatus: AllocatedStatus[];
  /** One provider configuration's payments; null for all. */
  paymentProviderId: string | null;
  /** The grid's filter when "include table filters" is ticked. */
  filter: string | null;
  /** The grid's search box when "include table filters" is ticked. */
  search: string | null;
}

/**
 * spec 2 §7 GET payment-transactions/export: the CSV as a blob, with the file name of the answer's
 * Content-Disposition (the dialog's default is PaymentTransactions.csv).
 */
export function exportPaymentTransactions(request: ExportRequest): Promise<DownloadedFile> {
  return companyClient.get<DownloadedFile>('/payment-transactions/export', {
    query: {
      exportType: request.exportType,
      fromDate: request.fromDate,
      toDate: request.toDate,
      paymentProviderId: request.paymentProviderId,
      excludeAllocatedStatus: request.excludeAllocatedStatus.join(','),
      filter: request.filter,
      search: request.search,
    },
    headers: { Accept: 'text/csv' },
    responseType: 'file',
  });
}

export function useExportPaymentTransactions() {
  return useMutation({ mutationFn: exportPaymentTransactions });
}
