import { webHookEndpointSchema } from '@ledgerline/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { webHookKeys } from './web-hook-keys';

const endpointsResponse = z.object({ items: z.array(webHookEndpointSchema) });

/** GET web-hooks/endpoints: the company's endpoints (embedded delivery). */
export function useEndpoints(enabled = true, search = '') {
  return useQuery({
    queryKey: webHookKeys().list(search ? { search } : {}),
    queryFn: async ({ signal }) =>
      (
        await companyClient.get('/web-hooks/endpoints', {
          // The search box's words, found by the server.
          ...(search ? { query: { search } } : {}),
          schema: endpointsResponse,
          signal,
        })
      ).items,
    placeholderData: keepPreviousData,
    enabled,
  });
}
