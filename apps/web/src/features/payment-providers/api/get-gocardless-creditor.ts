import { goCardlessCreditorSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** spec 3 §7 GET gocardless/payment-provider/{id}/creditor */
export function getGoCardlessCreditor(id: string, signal?: AbortSignal) {
  return companyClient.get(`/gocardless/payment-provider/${encodeURIComponent(id)}/creditor`, {
    schema: goCardlessCreditorSchema,
    signal,
  });
}

export function useGoCardlessCreditor(id: string) {
  return useQuery(
    queryOptions({
      queryKey: [...paymentProviderKeys().detail(id), 'creditor'],
      queryFn: ({ signal }) => getGoCardlessCreditor(id, signal),
      // spec 3 §2: the page shows a failed load itself.
      meta: { inlineErrors: true },
    }),
  );
}
