import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  disputeQuery,
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  paymentDisputeSchema,
} from '@ledgerline/contract';
import { requirePrincipal } from '../../platform/context.js';
import { createDisputesRepository } from './disputes.repository.js';

/** GET disputes — the company's disputes and chargebacks, newest first. */
export async function disputesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const repository = createDisputesRepository();
  r.get(
    '/api/v0/disputes',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['disputes'],
        summary:
          'Disputes and chargebacks of the company’s payments, paged (default sort: -openedOn; filter e.g. `stage eq Opened`)',
        querystring: pageQuerySchema,
        response: { 200: pageOf(paymentDisputeSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(disputeQuery, request.query);
      const scope = {
        tenantId: requirePrincipal(request.principal).tenantId,
        datasetId: request.datasetId!,
      };
      return request.tenantRead((tx) => repository.page(tx, scope, query));
    },
  );
}
