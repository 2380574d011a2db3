import {
  latePaymentConfigurationSchema,
  pageOf,
  type LatePaymentConfiguration,
} from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { latePaymentKeys } from './late-payment-keys';

const pageSize = 20;
const configurationsPage = pageOf(latePaymentConfigurationSchema);

/** spec 3 §7: every configuration, read in pages of 20 until a short page. */
export async function getAllLatePayments(
  signal?: AbortSignal,
): Promise<LatePaymentConfiguration[]> {
  const all: LatePaymentConfiguration[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await companyClient.get('/late-payment-configurations', {
      query: { page, itemsPerPage: pageSize, sort: 'name' },
      schema: configurationsPage,
      signal,
    });
    all.push(...answer.items);
    if (answer.items.length < pageSize || all.length >= answer.totalItems) return all;
  }
}

export function useLatePayments() {
  return useQuery(
    queryOptions({
      queryKey: latePaymentKeys().list({ all: true }),
      queryFn: ({ signal }) => getAllLatePayments(signal),
      // spec 3 §2: the page shows its own error state.
      meta: { inlineErrors: true },
    }),
  );
}
