import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  allocationInfoBody,
  countSchema,
  createPaymentRequestBody,
  estimatedPageOf,
  idempotencyKeyHeaders,
  pageQuerySchema,
  parsePageQuery,
  paymentRequestListQuery,
  paymentRequestQuery,
  paymentRequestSchema,
  paymentRequestSendSchema,
  updatePaymentRequestBody,
  uuidParam,
} from '@ledgerline/contract';
import { datasetScopeOf } from '../../platform/scope.js';
import { runIdempotent, sendIdempotent } from '../../platform/idempotency.js';
import { randomUUID } from 'node:crypto';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { createPaymentRequestsRepository } from './payment-requests.repository.js';
import type { PaymentRequestMails } from './payment-requests.mail.js';
import {
  createPaymentRequestsService,
  type PaymentRequestsService,
} from './payment-requests.service.js';

export interface PaymentRequestsRoutesOptions {
  /** PUBLIC_URL: each request's payment URL is `<publicUrl>/pay/<id>`. */
  publicUrl: string;
  paymentRequests?: PaymentRequestsService;
  /** Mails a request's link to its payer after the send's commit. */
  requestMails: PaymentRequestMails;
}

const tags = ['payment-requests'];
const writes =
  'Needs EditPaymentRequest. Only Open requests without applied settlement discounts or late payments can be edited (409 otherwise).';

/** spec 2 §7 payment-requests calls. */
export async function paymentRequestsRoutes(
  app: FastifyInstance,
  options: PaymentRequestsRoutesOptions,
) {
  const service =
    options.paymentRequests ??
    createPaymentRequestsService({
      repository: createPaymentRequestsRepository(),
      publicUrl: options.publicUrl,
    });
  listPaymentRequests(app, service);
  countPaymentRequests(app, service);
  getPaymentRequest(app, service);
  createPaymentRequest(app, service);
  updatePaymentRequest(app, service);
  cancelPaymentRequest(app, service);
  sendPaymentRequest(app, service, options);
  updateAllocationInfo(app, service);
}

/** The company's payment requests, paged. */
function listPaymentRequests(app: FastifyInstance, service: PaymentRequestsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-requests',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'Payment requests, paged (default sort: -createdOn; expand or includeTransactions: transactions)',
        description:
          '`totalItems` is exact up to 10,000 and the database’s estimate past that; `totalItemsEstimated` says which.',
        querystring: pageQuerySchema.extend(paymentRequestListQuery.shape),
        response: { 200: estimatedPageOf(paymentRequestSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(paymentRequestQuery, request.query);
      return request.tenantRead((tx) =>
        service.page(tx, datasetScopeOf(request), query, request.query.includeTransactions),
      );
    },
  );
}

/** How many payment requests match the filter. */
function countPaymentRequests(app: FastifyInstance, service: PaymentRequestsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-requests/count',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'How many payment requests match the filter',
        querystring: pageQuerySchema.pick({ filter: true }),
        response: { 200: countSchema },
      },
    },
    async (request) => {
      const { filters } = parsePageQuery(paymentRequestQuery, { filter: request.query.filter });
      return request.tenantRead((tx) => service.count(tx, datasetScopeOf(request), { filters }));
    },
  );
}

/** One payment request with its allocations and payment attempts. */
function getPaymentRequest(app: FastifyInstance, service: PaymentRequestsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-requests/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'One payment request with its allocations and payment transactions (expand=transactions adds the transactions)',
        params: uuidParam,
        querystring: pageQuerySchema.pick({ expand: true }),
        response: { 200: paymentRequestSchema },
      },
    },
    async (request) => {
      const { expand } = parsePageQuery(paymentRequestQuery, { expand: request.query.expand });
      return request.tenantRead((tx) =>
        service.get(
          tx,
          datasetScopeOf(request),
          request.params.id,
          expand.includes('transactions'),
        ),
      );
    },
  );
}

/** A new payment request, with its payment-request.created web hook event; honours Idempotency-Key. */
function createPaymentRequest(app: FastifyInstance, service: PaymentRequestsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/payment-requests',
    {
      config: {
        access: 'dataset',
        permission: 'EditPaymentRequest',
        operation: 'CreatePaymentRequest',
      },
      schema: {
        tags,
        summary: 'Create a payment request',
        description:
          "requestType 'Transaction' (New Request dialog) creates an invoice and a request paying it; 'Account' (account page) a request on the account. " +
          'Needs EditPaymentRequest. Send an Idempotency-Key to retry safely.',
        headers: idempotencyKeyHeaders,
        body: createPaymentRequestBody,
        response: { 201: paymentRequestSchema },
      },
    },
    async (request, reply) => {
      const answer = await request.unitOfWork(async (tx) => {
        const scope = datasetScopeOf(request);
        const created = await runIdempotent(tx, request, 201, async () => {
          const paymentRequest = await service.create(tx, scope, request.body);
          await recordWebhookEvent(tx, scope, {
            type: 'payment-request.created',
            recordType: 'PaymentRequest',
            recordId: paymentRequest.id,
            payload: paymentRequest,
          });
          return paymentRequest;
        });
        request.auditResource = { type: 'PaymentRequest', id: created.body.id };
        return created;
      }, 201);
      return sendIdempotent(reply, answer);
    },
  );
}

/** The details, usage type or contacts of a payment request. */
function updatePaymentRequest(app: FastifyInstance, service: PaymentRequestsService) {
  app.withTypeProvider<ZodTypeProvider>().patch(
    '/api/v0/payment-requests',
    {
      config: {
        access: 'dataset',
        permission: 'EditPaymentRequest',
        operation: 'UpdatePaymentRequest',
      },
      schema: {
        tags,
        summary: 'Update the details, usage type or contacts of a payment request',
        description: `Absent fields stay; null clears. ${writes}`,
        body: updatePaymentRequestBody,
        response: { 200: paymentRequestSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'PaymentRequest', id: request.body.id };
      return request.unitOfWork((tx) => service.update(tx, datasetScopeOf(request), request.body));
    },
  );
}

/** An Open request cancelled, with its payment-request.cancelled web hook event. */
function cancelPaymentRequest(app: FastifyInstance, service: PaymentRequestsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/payment-requests/:id/cancel',
    {
      config: {
        access: 'dataset',
        permission: 'EditPaymentRequest',
        operation: 'CancelPaymentRequest',
      },
      schema: {
        tags,
        summary: 'Cancel an Open payment request (its link then says it was cancelled)',
        description:
          'Needs EditPaymentRequest. 409 paymentRequestNotCancellable when the request is not Open; 409 paymentRequestPaymentInProgress while a payment of it is being made.',
        params: uuidParam,
        response: { 200: paymentRequestSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'PaymentRequest', id: request.params.id };
      return request.unitOfWork(async (tx) => {
        const scope = datasetScopeOf(request);
        const cancelled = await service.cancel(tx, scope, request.params.id);
        await recordWebhookEvent(tx, scope, {
          type: 'payment-request.cancelled',
          recordType: 'PaymentRequest',
          recordId: cancelled.id,
          payload: cancelled,
        });
        return cancelled;
      });
    },
  );
}

/** The link of an Open request mailed to its billing contact, after the commit. */
function sendPaymentRequest(
  app: FastifyInstance,
  service: PaymentRequestsService,
  options: PaymentRequestsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/payment-requests/:id/send',
    {
      config: {
        access: 'dataset',
        permission: 'EditPaymentRequest',
        operation: 'SendPaymentRequest',
      },
      schema: {
        tags,
        summary: 'Mail the payment link of an Open request to its billing contact (send or resend)',
        description:
          'Needs EditPaymentRequest. 202: the mail goes out in the background and then shows in the request’s `mails`. ' +
          '409 paymentRequestNotSendable when the request is not Open; 422 when its billing contact has no e-mail address.',
        params: uuidParam,
        response: { 202: paymentRequestSendSchema },
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'PaymentRequest', id: request.params.id };
      const scope = datasetScopeOf(request);
      const sendable = await request.unitOfWork(
        (tx) => service.sendable(tx, scope, request.params.id),
        202,
      );
      await options.requestMails.send({
        ...scope,
        paymentRequestId: sendable.row.id,
        emailAddress: sendable.emailAddress,
        requestUrl: sendable.requestUrl,
        sendId: randomUUID(),
      });
      return reply.code(202).send({ emailAddress: sendable.emailAddress });
    },
  );
}

/** The allocation info of a payment request's transactions. */
function updateAllocationInfo(app: FastifyInstance, service: PaymentRequestsService) {
  app.withTypeProvider<ZodTypeProvider>().patch(
    '/api/v0/payment-requests/:id/transaction-allocation-info',
    {
      config: {
        access: 'dataset',
        permission: 'EditPaymentRequest',
        operation: 'UpdatePaymentRequestAllocations',
      },
      schema: {
        tags,
        summary: 'Update the allocation info of transactions of a payment request',
        description: `Each entry replaces required, canEditAmount, minimumAmount and maximumAmount; an absent amount stays. ${writes}`,
        params: uuidParam,
        body: allocationInfoBody,
        response: { 200: paymentRequestSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'PaymentRequest', id: request.params.id };
      return request.unitOfWork((tx) =>
        service.updateAllocations(tx, datasetScopeOf(request), request.params.id, request.body),
      );
    },
  );
}

export default paymentRequestsRoutes;
