import {
  estimatedPageOf,
  payableTransactionTypes,
  transactionSchema,
  type Transaction,
} from '@ledgerline/contract';
import { useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

const pageResponse = estimatedPageOf(transactionSchema);
const payable: ReadonlySet<string> = new Set(payableTransactionTypes);
/** The most invoices one request can ask for (POST payment-requests, transactionAllocations). */
export const unpaidInvoicesShown = 100;

/** What a transaction still owes (spec 2 §4 amount owed), rounded to 4 decimals. */
export function amountOwed(transaction: Transaction): number {
  const owed =
    transaction.transactionAmount - transaction.allocatedAmount - transaction.discountedAmount;
  return Math.round(owed * 10_000) / 10_000;
}

/**
 * spec 2 §7 GET transactions of the account that are not FullyPaid, oldest due first; only the
 * invoice-like ones that still owe something can be requested for payment.
 */
export async function getAccountUnpaidInvoices(accountId: string, signal?: AbortSignal) {
  const page = await companyClient.get('/transactions', {
    query: {
      filter: `accountId eq ${accountId},paidStatus neq FullyPaid`,
      sort: 'dueDate,transactionReference',
      page: 1,
      itemsPerPage: unpaidInvoicesShown,
    },
    schema: pageResponse,
    signal,
  });
  return page.items.filter(
    (transaction) => payable.has(transaction.transactionType) && amountOwed(transaction) > 0,
  );
}

export function useAccountUnpaidInvoices(accountId: string, enabled: boolean) {
  return useQuery({
    queryKey: companyQueryKeys('transactions').list({ accountId, unpaidInvoices: true }),
    queryFn: ({ signal }) => getAccountUnpaidInvoices(accountId, signal),
    enabled,
  });
}
