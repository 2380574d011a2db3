import { siteInfoResponse, type SiteInfo } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** The installation's terms and privacy addresses and whether the site reports (server config). */
export function getSiteInfo(signal?: AbortSignal): Promise<SiteInfo> {
  return publicClient.get('/info/site', {
    schema: import.meta.env.DEV ? siteInfoResponse : undefined,
    signal,
  });
}

export const siteInfoQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.info.site(),
    queryFn: ({ signal }) => getSiteInfo(signal),
    staleTime: Infinity,
    // Without it the menus leave the legal items out and nothing is reported: no error page.
    meta: { statusRouting: false },
  });

export function useSiteInfo() {
  return useQuery(siteInfoQueryOptions());
}
