import { ukLatePaymentInfoSchema, type UkLatePaymentInfo } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { latePaymentKeys } from './late-payment-keys';

/** spec 3 §7 GET late-payment-configurations/uk/info. */
export function getUkInfo(signal?: AbortSignal): Promise<UkLatePaymentInfo> {
  return companyClient.get('/late-payment-configurations/uk/info', {
    schema: ukLatePaymentInfoSchema,
    signal,
  });
}

export function useUkInfo() {
  return useQuery(
    queryOptions({
      queryKey: latePaymentKeys().detail('uk-info'),
      queryFn: ({ signal }) => getUkInfo(signal),
    }),
  );
}
