import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  paymentProviderEventQuery,
  paymentProviderEventSchema,
  uuidParam,
} from '@ledgerline/contract';
import { datasetScopeOf } from '../../platform/scope.js';
import type { PaymentProviderEventsService } from './payment-provider-events.service.js';

/** What the providers said about a configuration (its provider data dialog). */
export async function paymentProviderEventsRoutes(
  app: FastifyInstance,
  options: { events: PaymentProviderEventsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/providers/:id/events',
    {
      config: { access: 'dataset', permission: 'ConfigurePaymentProvider' },
      schema: {
        tags: ['payment-providers'],
        summary: "A configuration's provider events (its connection exchanges), newest first",
        description:
          'The Stripe and GoCardless authorisations, account and creditor reads, Stripe disconnection, connection tests and Opayo IP registration, ' +
          'each with the request as sent and the answer as received (`payload`, JSON text), every secret masked. ' +
          "Default sort: -createdOn. Filters: createdOn, eventType, status. Another company's or tenant's configuration answers 404.",
        params: uuidParam,
        querystring: pageQuerySchema,
        response: { 200: pageOf(paymentProviderEventSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(paymentProviderEventQuery, request.query);
      return request.tenantRead((tx) =>
        options.events.page(tx, datasetScopeOf(request), request.params.id, query),
      );
    },
  );
}
