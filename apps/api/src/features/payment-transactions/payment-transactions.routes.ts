import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { inArray } from 'drizzle-orm';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  allocatedStatusBody,
  countSchema,
  estimatedPageOf,
  failedPaymentTransactionStatuses,
  importLimits,
  pageQuerySchema,
  parsePageQuery,
  paymentTransactionDetailQuery,
  paymentTransactionQuery,
  paymentTransactionSchema,
  providerEventSchema,
  uuidParam,
  type AllocatedStatus,
} from '@ledgerline/contract';
import { paymentTransactions } from '../../db/schema-receivables.js';
import type { Tx } from '../../db/client.js';
import { NotFoundError } from '../../platform/errors.js';
import { datasetScopeOf } from '../../platform/scope.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import type { ExportSources } from './payment-transactions.download.js';
import {
  exportPaymentTransactions,
  importAllocatedStatus,
} from './payment-transactions.files.routes.js';
import type { PendingPayments } from './payment-transactions.pending.js';
import type { Refunds } from './payment-transactions.refunds.js';
import type { PaymentTransactionsRepository } from './payment-transactions.repository.js';
import type { Reservations } from './payment-transactions.reservations.js';
import {
  actOnPendingPayment,
  actOnReservations,
  listReservations,
  refundPayment,
} from './payment-transactions.actions.routes.js';

export interface PaymentTransactionsRoutesOptions {
  repository: PaymentTransactionsRepository;
  pending: PendingPayments;
  exports: ExportSources;
  refunds: Refunds;
  /** A transaction of the tenant without the call's audit activity (a refund's reservation). */
  withTenant: <T>(tenantId: string, fn: (tx: Tx) => Promise<T>) => Promise<T>;
  reservations: Reservations;
}

export const tags = ['payment-transactions'];
const page = estimatedPageOf(paymentTransactionSchema);
const listDescription =
  '`totalItems` is exact up to 10,000 and the database’s estimate past that; `totalItemsEstimated` says which.';

/** spec 2 §2, §7: payment transactions of the company in the Dataset-Id header. */
export async function paymentTransactionsRoutes(
  app: FastifyInstance,
  options: PaymentTransactionsRoutesOptions,
) {
  // Scoped to this plugin: the import's file upload.
  await app.register(multipart, {
    limits: { fileSize: importLimits.maxBytes, files: 1, fields: 5, parts: 6 },
  });
  listPaymentTransactions(app, options);
  listFailedPaymentTransactions(app, options);
  countPaymentTransactions(app, options);
  getPaymentTransaction(app, options);
  changeAllocatedStatus(app, options);
  exportPaymentTransactions(app, options);
  importAllocatedStatus(app);
  for (const action of ['capture', 'cancel'] as const) actOnPendingPayment(app, options, action);
  refundPayment(app, options);
  listReservations(app, options);
  for (const action of ['capture', 'cancel'] as const) actOnReservations(app, options, action);
  listProviderEvents(app, options);
  getProviderEventPayload(app, options);
}

function listPaymentTransactions(
  app: FastifyInstance,
  { repository }: PaymentTransactionsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-transactions',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'Payment transactions, paged (default sort: -statusDateTime; expand: paymentrequest)',
        description: listDescription,
        querystring: pageQuerySchema,
        response: { 200: page },
      },
    },
    async (request) => {
      const query = parsePageQuery(paymentTransactionQuery, request.query);
      return request.tenantRead((tx) => repository.page(tx, datasetScopeOf(request), query));
    },
  );
}

function listFailedPaymentTransactions(
  app: FastifyInstance,
  { repository }: PaymentTransactionsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-transactions/status/all-failures',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'Failed, not authorised and rejected payment transactions, paged (the dashboard’s rejected payments)',
        description: listDescription,
        querystring: pageQuerySchema,
        response: { 200: page },
      },
    },
    async (request) => {
      const query = parsePageQuery(paymentTransactionQuery, request.query);
      const failed = inArray(paymentTransactions.status, [...failedPaymentTransactionStatuses]);
      return request.tenantRead((tx) =>
        repository.page(tx, datasetScopeOf(request), query, { name: 'failed', where: failed }),
      );
    },
  );
}

function countPaymentTransactions(
  app: FastifyInstance,
  { repository }: PaymentTransactionsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-transactions/count',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'How many payment transactions match the filter',
        description:
          'Exact up to 10,000; past that the database’s estimate, with `estimated: true`.',
        querystring: pageQuerySchema.pick({ filter: true }),
        response: { 200: countSchema },
      },
    },
    async (request) => {
      const { filters } = parsePageQuery(paymentTransactionQuery, { filter: request.query.filter });
      return request.tenantRead((tx) => repository.count(tx, datasetScopeOf(request), { filters }));
    },
  );
}

function getPaymentTransaction(
  app: FastifyInstance,
  { repository }: PaymentTransactionsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-transactions/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'One payment transaction with its account, payment request, allocations, late-payment fee lines and payment provider',
        params: uuidParam,
        querystring: paymentTransactionDetailQuery,
        response: { 200: paymentTransactionSchema },
      },
    },
    async (request) => {
      const found = await request.tenantRead((tx) =>
        repository.findWithDetails(tx, datasetScopeOf(request), request.params.id, request.query),
      );
      if (!found) throw new NotFoundError('The payment transaction was not found.');
      return found;
    },
  );
}

function changeAllocatedStatus(
  app: FastifyInstance,
  { repository }: PaymentTransactionsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().patch(
    '/api/v0/payment-transactions/:id/allocated-status',
    {
      config: {
        access: 'dataset',
        permission: 'ChangeAllocatedStatus',
        operation: 'ChangeAllocatedStatus',
      },
      schema: {
        tags,
        summary: 'Change the allocated status of a payment transaction',
        params: uuidParam,
        body: allocatedStatusBody,
        response: { 200: paymentTransactionSchema },
      },
    },
    async (request) => {
      const scope = datasetScopeOf(request);
      request.auditResource = { type: 'PaymentTransaction', id: request.params.id };
      return request.unitOfWork(async (tx) => {
        const { id } = request.params;
        const { status } = request.body;
        const previous = await repository.setAllocatedStatus(tx, scope, id, status);
        if (previous === null) throw new NotFoundError('The payment transaction was not found.');
        if (previous !== status) {
          await recordWebhookEvent(tx, scope, {
            type: 'payment.allocated-status-changed',
            recordType: 'PaymentTransaction',
            recordId: id,
            payload: {
              id,
              allocatedStatus: status,
              previousAllocatedStatus: previous as AllocatedStatus,
            },
          });
        }
        return (await repository.find(tx, scope, id))!;
      });
    },
  );
}

function listProviderEvents(app: FastifyInstance, { pending }: PaymentTransactionsRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/provider-events/records/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['provider-events'],
        summary: 'What the payment provider said about a payment transaction, oldest first',
        params: uuidParam,
        response: { 200: z.object({ items: z.array(providerEventSchema) }) },
      },
    },
    async (request) => ({
      items: await request.tenantRead((tx) =>
        pending.events(tx, datasetScopeOf(request), request.params.id),
      ),
    }),
  );
}

function getProviderEventPayload(
  app: FastifyInstance,
  { pending }: PaymentTransactionsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/provider-events/payloads',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['provider-events'],
        summary: 'The payload of one provider event, as text',
        querystring: z.object({ id: z.uuid() }),
      },
    },
    async (request, reply) => {
      const payload = await request.tenantRead((tx) =>
        pending.payload(tx, datasetScopeOf(request), request.query.id),
      );
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(payload);
    },
  );
}
