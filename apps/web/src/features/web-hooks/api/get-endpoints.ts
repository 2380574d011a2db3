import { webHookEndpointSchema } from '@ledgerline/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { webHookKeys } from './web-hook-keys';

const endpointsResponse = z.object({ items: z.array(webHookEndpointSchema) });

/** GET web-hooks/endpoints: the company's endpoints (embedded delivery). */
export function useEndpoints(enabled = true) {
  return useQuery({
    queryKey: webHookKeys().list(),
    queryFn: async ({ signal }) =>
      (await companyClient.get('/web-hooks/endpoints', { schema: endpointsResponse, signal }))
        .items,
    enabled,
  });
}
