import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createSettlementGroupBody,
  groupConfigurationParams,
  groupParams,
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  settlementConfigurationBody,
  settlementGroupQuery,
  settlementGroupSchema,
  updateSettlementConfigurationBody,
  updateSettlementGroupBody,
  uuidParam,
} from '@ledgerline/contract';

import { createSettlementsRepository } from './settlements.repository.js';
import { createSettlementsService, type SettlementsService } from './settlements.service.js';
import { datasetScopeOf } from '../../platform/scope.js';

const tags = ['settlements'];
const base = '/api/v0/settlement-configuration-groups';

/**
 * spec 3 §7 settlement-configuration-groups and their configurations. Reads need no permission;
 * writes need Create/Edit/DeleteSettlementConfigurations (spec 3 §6). Limits: docs/api.md.
 */
export async function settlementsRoutes(app: FastifyInstance) {
  const settlements = createSettlementsService({ repository: createSettlementsRepository() });
  listSettlementGroups(app, settlements);
  getSettlementGroup(app, settlements);
  createSettlementGroup(app, settlements);
  updateSettlementGroup(app, settlements);
  deleteSettlementGroup(app, settlements);
  addSettlementConfiguration(app, settlements);
  updateSettlementConfiguration(app, settlements);
  deleteSettlementConfiguration(app, settlements);
}

function listSettlementGroups(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    base,
    {
      config: { access: 'dataset', featureFlag: 'settlementConfigurations' },
      schema: {
        tags,
        summary:
          'Settlement configuration groups with their configurations, paged (default sort: name)',
        querystring: pageQuerySchema,
        response: { 200: pageOf(settlementGroupSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(settlementGroupQuery, request.query);
      return request.tenantRead((tx) => settlements.page(tx, datasetScopeOf(request), query));
    },
  );
}

function getSettlementGroup(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${base}/:id`,
    {
      config: { access: 'dataset', featureFlag: 'settlementConfigurations' },
      schema: {
        tags,
        summary: 'One settlement configuration group',
        params: uuidParam,
        response: { 200: settlementGroupSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) => settlements.get(tx, datasetScopeOf(request), request.params.id)),
  );
}

function createSettlementGroup(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    base,
    {
      config: {
        access: 'dataset',
        featureFlag: 'settlementConfigurations',
        permission: 'CreateSettlementConfigurations',
        operation: 'CreateSettlementConfigurationGroup',
      },
      schema: {
        tags,
        summary: 'Create a settlement configuration group',
        body: createSettlementGroupBody,
        response: { 201: settlementGroupSchema },
      },
    },
    async (request, reply) => {
      const group = await request.unitOfWork(async (tx) => {
        const created = await settlements.create(tx, datasetScopeOf(request), request.body);
        request.auditResource = { type: 'SettlementConfigurationGroup', id: created.id };
        return created;
      }, 201);
      return reply.status(201).send(group);
    },
  );
}

function updateSettlementGroup(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    base,
    {
      config: {
        access: 'dataset',
        featureFlag: 'settlementConfigurations',
        permission: 'EditSettlementConfigurations',
        operation: 'UpdateSettlementConfigurationGroup',
      },
      schema: {
        tags,
        summary: 'Update the group whose id the body carries',
        body: updateSettlementGroupBody,
        response: { 200: settlementGroupSchema },
      },
    },
    async (request) => {
      const { id, ...values } = request.body;
      request.auditResource = { type: 'SettlementConfigurationGroup', id };
      return request.unitOfWork((tx) =>
        settlements.update(tx, datasetScopeOf(request), id, values),
      );
    },
  );
}

function deleteSettlementGroup(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().delete(
    `${base}/:id`,
    {
      config: {
        access: 'dataset',
        featureFlag: 'settlementConfigurations',
        permission: 'DeleteSettlementConfigurations',
        operation: 'DeleteSettlementConfigurationGroup',
      },
      schema: {
        tags,
        summary: 'Delete a group and its configurations',
        description:
          'A group that is the company default or an account’s choice answers 409 (docs/decisions.md). Answers 204.',
        params: uuidParam,
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'SettlementConfigurationGroup', id: request.params.id };
      await request.unitOfWork(
        (tx) => settlements.remove(tx, datasetScopeOf(request), request.params.id),
        204,
      );
      return reply.status(204).send();
    },
  );
}

function addSettlementConfiguration(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${base}/:groupId/configurations`,
    {
      config: {
        access: 'dataset',
        featureFlag: 'settlementConfigurations',
        permission: 'CreateSettlementConfigurations',
        operation: 'CreateSettlementConfiguration',
      },
      schema: {
        tags,
        summary: 'Add a configuration to a group; answers the whole group',
        params: groupParams,
        body: settlementConfigurationBody,
        response: { 201: settlementGroupSchema },
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'SettlementConfigurationGroup', id: request.params.groupId };
      const group = await request.unitOfWork(
        (tx) =>
          settlements.addConfiguration(
            tx,
            datasetScopeOf(request),
            request.params.groupId,
            request.body,
          ),
        201,
      );
      return reply.status(201).send(group);
    },
  );
}

function updateSettlementConfiguration(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    `${base}/:groupId/configurations`,
    {
      config: {
        access: 'dataset',
        featureFlag: 'settlementConfigurations',
        permission: 'EditSettlementConfigurations',
        operation: 'UpdateSettlementConfiguration',
      },
      schema: {
        tags,
        summary: 'Replace the configuration whose id the body carries; answers the whole group',
        params: groupParams,
        body: updateSettlementConfigurationBody,
        response: { 200: settlementGroupSchema },
      },
    },
    async (request) => {
      const { id, ...input } = request.body;
      request.auditResource = { type: 'SettlementConfiguration', id };
      return request.unitOfWork((tx) =>
        settlements.updateConfiguration(
          tx,
          datasetScopeOf(request),
          request.params.groupId,
          id,
          input,
        ),
      );
    },
  );
}

function deleteSettlementConfiguration(app: FastifyInstance, settlements: SettlementsService) {
  app.withTypeProvider<ZodTypeProvider>().delete(
    `${base}/:groupId/configurations/:configurationId`,
    {
      config: {
        access: 'dataset',
        featureFlag: 'settlementConfigurations',
        permission: 'DeleteSettlementConfigurations',
        operation: 'DeleteSettlementConfiguration',
      },
      schema: {
        tags,
        summary: 'Delete a configuration of a group. Answers 204.',
        params: groupConfigurationParams,
      },
    },
    async (request, reply) => {
      const { groupId, configurationId } = request.params;
      request.auditResource = { type: 'SettlementConfiguration', id: configurationId };
      await request.unitOfWork(
        (tx) =>
          settlements.removeConfiguration(tx, datasetScopeOf(request), groupId, configurationId),
        204,
      );
      return reply.status(204).send();
    },
  );
}

export default settlementsRoutes;
