import { pageOf, paymentDisputeSchema, type PageQueryParams } from '@ledgerline/contract';
import { queryOptions, useQuery, type keepPreviousData } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

export const disputeKeys = () => companyQueryKeys('disputes');

const pageResponse = pageOf(paymentDisputeSchema);

/** GET disputes (paged, newest first; filter by stage). */
export function getDisputes(params: PageQueryParams, signal?: AbortSignal) {
  return companyClient.get('/disputes', { query: { ...params }, schema: pageResponse, signal });
}

export const disputesQueryOptions = (params: PageQueryParams) =>
  queryOptions({
    queryKey: disputeKeys().list({ ...params }),
    queryFn: ({ signal }) => getDisputes(params, signal),
  });

export function useDisputes(
  params: PageQueryParams,
  options: { placeholderData?: typeof keepPreviousData } = {},
) {
  return useQuery({ ...disputesQueryOptions(params), ...options });
}
