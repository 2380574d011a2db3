import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createLatePaymentBody,
  latePaymentConfigurationSchema,
  latePaymentQuery,
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  ukLatePaymentInfoSchema,
  updateLatePaymentBody,
  uuidParam,
} from '@ledgerline/contract';

import { createLatePaymentsRepository } from './late-payments.repository.js';
import { createLatePaymentsService, type LatePaymentsService } from './late-payments.service.js';
import { datasetScopeOf } from '../../platform/scope.js';

const tags = ['late-payments'];
const base = '/api/v0/late-payment-configurations';

/** spec 3 §7 late-payment-configurations; writes need Create/Edit/DeleteLatePayments (spec 3 §6). */
export async function latePaymentsRoutes(app: FastifyInstance) {
  const latePayments = createLatePaymentsService({ repository: createLatePaymentsRepository() });
  listLatePayments(app, latePayments);
  getUkLatePaymentInfo(app, latePayments);
  getLatePayment(app, latePayments);
  createLatePayment(app, latePayments);
  updateLatePayment(app, latePayments);
  deleteLatePayment(app, latePayments);
}

function listLatePayments(app: FastifyInstance, latePayments: LatePaymentsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    base,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'Late payment configurations, paged (default sort: name)',
        querystring: pageQuerySchema,
        response: { 200: pageOf(latePaymentConfigurationSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(latePaymentQuery, request.query);
      return request.tenantRead((tx) => latePayments.page(tx, datasetScopeOf(request), query));
    },
  );
}

function getUkLatePaymentInfo(app: FastifyInstance, latePayments: LatePaymentsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${base}/uk/info`,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: "Today's UK statutory rates and the debt recovery cost table",
        description:
          'Rates are percentages; charges in pounds (to 0 means or more, from 0 means up to).',
        response: { 200: ukLatePaymentInfoSchema },
      },
    },
    async (request) => request.tenantRead((tx) => latePayments.ukInfo(tx, datasetScopeOf(request))),
  );
}

function getLatePayment(app: FastifyInstance, latePayments: LatePaymentsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${base}/:id`,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'One late payment configuration',
        params: uuidParam,
        response: { 200: latePaymentConfigurationSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) => latePayments.get(tx, datasetScopeOf(request), request.params.id)),
  );
}

function createLatePayment(app: FastifyInstance, latePayments: LatePaymentsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    base,
    {
      config: {
        access: 'dataset',
        permission: 'CreateLatePayments',
        operation: 'CreateLatePaymentConfiguration',
      },
      schema: {
        tags,
        summary: 'Create a UK statutory late payment configuration',
        body: createLatePaymentBody,
        response: { 201: latePaymentConfigurationSchema },
      },
    },
    async (request, reply) => {
      const created = await request.unitOfWork(async (tx) => {
        const configuration = await latePayments.create(tx, datasetScopeOf(request), request.body);
        request.auditResource = { type: 'LatePaymentConfiguration', id: configuration.id };
        return configuration;
      }, 201);
      return reply.status(201).send(created);
    },
  );
}

function updateLatePayment(app: FastifyInstance, latePayments: LatePaymentsService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    base,
    {
      config: {
        access: 'dataset',
        permission: 'EditLatePayments',
        operation: 'UpdateLatePaymentConfiguration',
      },
      schema: {
        tags,
        summary: 'Update the configuration whose id the body carries',
        body: updateLatePaymentBody,
        response: { 200: latePaymentConfigurationSchema },
      },
    },
    async (request) => {
      const { id, ...values } = request.body;
      request.auditResource = { type: 'LatePaymentConfiguration', id };
      return request.unitOfWork((tx) =>
        latePayments.update(tx, datasetScopeOf(request), id, values),
      );
    },
  );
}

function deleteLatePayment(app: FastifyInstance, latePayments: LatePaymentsService) {
  app.withTypeProvider<ZodTypeProvider>().delete(
    `${base}/:id`,
    {
      config: {
        access: 'dataset',
        permission: 'DeleteLatePayments',
        operation: 'DeleteLatePaymentConfiguration',
      },
      schema: {
        tags,
        summary: 'Delete a late payment configuration',
        description:
          'The company default or an account’s choice answers 409 (docs/decisions.md). Answers 204.',
        params: uuidParam,
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'LatePaymentConfiguration', id: request.params.id };
      await request.unitOfWork(
        (tx) => latePayments.remove(tx, datasetScopeOf(request), request.params.id),
        204,
      );
      return reply.status(204).send();
    },
  );
}

export default latePaymentsRoutes;
