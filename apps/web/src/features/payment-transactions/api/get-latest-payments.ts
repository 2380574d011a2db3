import type { PageQueryParams, PaymentTransaction } from '@ledgerline/contract';
import { useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/** What a dashboard panel shows of a payment. */
export type LatestPayment = Pick<
  PaymentTransaction,
  'id' | 'statusDateTime' | 'totalAmount' | 'currency' | 'customerName' | 'companyName' | 'paymentRequest'
>;

/**
 * spec 1 §2.4 dashboard panels: the latest payments, read without the contract's zod schema of a
 * payment (docs/decisions/049-first-load-javascript-lazy-routes-precompressed.md, "First-load JavaScript"): the dashboard is the first screen, and that
 * schema (with the transaction and currency lists it names) is 7 KB of the first load. The list
 * and detail pages still check every answer.
 */
function latestPayments(path: string, params: PageQueryParams, signal?: AbortSignal) {
  return companyClient.get<{ items: LatestPayment[] }>(path, { query: { ...params }, signal });
}

const keys = companyQueryKeys('payment-transactions');

/** GET payment-transactions with the panel's filter. */
export function useLatestPayments(params: PageQueryParams) {
  return useQuery({
    queryKey: [...keys.lists(), 'latest', params] as const,
    queryFn: ({ signal }) => latestPayments('/payment-transactions', params, signal),
  });
}

/** spec 1 §7 GET payment-transactions/status/all-failures: the rejected payments panel. */
export function useLatestFailedPayments(params: PageQueryParams) {
  return useQuery({
    queryKey: [...keys.lists(), 'all-failures', params] as const,
    queryFn: ({ signal }) => latestPayments('/payment-transactions/status/all-failures', params, signal),
  });
}
