import { paymentProviderTypeSchema } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

const typesResponse = z.array(paymentProviderTypeSchema);

/** spec 3 §7 GET providers/types: the kinds the add dialog offers. */
export function getPaymentProviderTypes(signal?: AbortSignal) {
  return companyClient.get('/providers/types', { schema: typesResponse, signal });
}

export const paymentProviderTypesQueryOptions = () =>
  queryOptions({
    queryKey: paymentProviderKeys().types(),
    queryFn: ({ signal }) => getPaymentProviderTypes(signal),
    staleTime: Infinity,
  });

export function usePaymentProviderTypes() {
  return useQuery(paymentProviderTypesQueryOptions());
}
