import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bankQuery,
  bankSchema,
  createBankBody,
  idempotencyKeyHeaders,
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  updateBankBody,
  uuidParam,
} from '@ledgerline/contract';

import { runIdempotent, sendIdempotent } from '../../platform/idempotency.js';
import { createBanksRepository } from './banks.repository.js';
import { createBanksService, type BanksService } from './banks.service.js';
import { datasetScopeOf } from '../../platform/scope.js';

export interface BanksRoutesOptions {
  banks?: BanksService;
}

/** The company of the call: the tenant of the caller and the Dataset-Id it sent (design §3). */

const tags = ['banks'];
const writeAccess =
  'Needs the PushErpData permission: an access key, an Administrator or a Standard user (docs/decisions.md, "ERP data writes").';

/**
 * spec 2 §2, §7 GET banks, GET banks/{id}; POST and PUT banks for ERP connectors. Reads and
 * writes need no named permission (docs/decisions/020-erp-data-writes.md). The area wires its own service (style.md §3).
 */
export async function banksRoutes(app: FastifyInstance, options: BanksRoutesOptions = {}) {
  const banks = options.banks ?? createBanksService({ repository: createBanksRepository() });
  listBanks(app, banks);
  getBank(app, banks);
  createBank(app, banks);
  updateBank(app, banks);
}

function listBanks(app: FastifyInstance, banks: BanksService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/banks',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: "The company's bank accounts, paged",
        description:
          'Default sort: accountName ascending. Every field filters (strings: ct, nct, sw, ew, eq, neq; ' +
          'createdOn: date operators; id: eq, neq) and every field but id sorts. Needs the Dataset-Id header.',
        querystring: pageQuerySchema,
        response: { 200: pageOf(bankSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(bankQuery, request.query);
      return request.tenantRead((tx) => banks.page(tx, datasetScopeOf(request), query));
    },
  );
}

function getBank(app: FastifyInstance, banks: BanksService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/banks/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'One bank account',
        description: 'A bank of another company or tenant answers 404, as one that does not exist.',
        params: uuidParam,
        response: { 200: bankSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) => banks.get(tx, datasetScopeOf(request), request.params.id)),
  );
}

function createBank(app: FastifyInstance, banks: BanksService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/banks',
    {
      config: { access: 'dataset', permission: 'PushErpData', operation: 'CreateBank' },
      schema: {
        tags,
        summary: 'Create a bank account (ERP connectors)',
        description: `${writeAccess} Limits and formats: docs/api.md. Send an Idempotency-Key to retry safely.`,
        headers: idempotencyKeyHeaders,
        body: createBankBody,
        response: { 201: bankSchema },
      },
    },
    async (request, reply) => {
      const answer = await request.unitOfWork(async (tx) => {
        const created = await runIdempotent(tx, request, 201, () =>
          banks.create(tx, datasetScopeOf(request), request.body),
        );
        request.auditResource = { type: 'Bank', id: created.body.id };
        return created;
      }, 201);
      return sendIdempotent(reply, answer);
    },
  );
}

function updateBank(app: FastifyInstance, banks: BanksService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/v0/banks',
    {
      config: { access: 'dataset', permission: 'PushErpData', operation: 'UpdateBank' },
      schema: {
        tags,
        summary: 'Update a bank account (ERP connectors)',
        description: `Replaces every field of the bank whose id the body carries. ${writeAccess} Limits and formats: docs/api.md.`,
        body: updateBankBody,
        response: { 200: bankSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'Bank', id: request.body.id };
      return request.unitOfWork((tx) => banks.update(tx, datasetScopeOf(request), request.body));
    },
  );
}

/** app.ts registers the area with `app.register(import('./features/banks/banks.routes.js'))`. */
export default banksRoutes;
