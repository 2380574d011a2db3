import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountPayerParams,
  countSchema,
  createPayerBody,
  estimatedPageOf,
  idempotencyKeyHeaders,
  pageQuerySchema,
  parsePageQuery,
  payerQuery,
  payerSchema,
  uuidParam,
} from '@ledgerline/contract';
import { runIdempotent, sendIdempotent } from '../../platform/idempotency.js';
import { datasetScopeOf } from '../../platform/scope.js';
import { erpWriteAccess } from './erp-write-access.js';
import type { AccountsService } from './accounts.service.js';

const tags = ['payers'];

/** spec 2 §2, §7: the payers of an account (GET accounts/{id}/payers…), and their creation by connectors. */
export async function payersRoutes(app: FastifyInstance, options: { accounts: AccountsService }) {
  const { accounts } = options;
  listAccountPayers(app, accounts);
  listPayers(app, accounts);
  countAccountPayers(app, accounts);
  getAccountPayer(app, accounts);
  createAccountPayer(app, accounts);
}

function listAccountPayers(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/accounts/:id/payers',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The payers of an account, paged',
        description:
          'Default sort: createdOn descending. Filters: companyName, firstNames, surname, emailAddress, postCode, city, ' +
          'country (string operators), createdOn (date operators), id. 404 when the account is not in the company.',
        params: uuidParam,
        querystring: pageQuerySchema,
        response: { 200: estimatedPageOf(payerSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(payerQuery, request.query);
      return request.tenantRead((tx) =>
        accounts.payersPage(tx, datasetScopeOf(request), request.params.id, query),
      );
    },
  );
}

function listPayers(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payers',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The payers of every account of the company, paged',
        description:
          'The /payers list (spec 1 §2.1). Default sort: createdOn descending. Filters: as for the payers ' +
          'of an account. Each payer names its account (accountId).',
        querystring: pageQuerySchema,
        response: { 200: estimatedPageOf(payerSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(payerQuery, request.query);
      return request.tenantRead((tx) =>
        accounts.companyPayersPage(tx, datasetScopeOf(request), query),
      );
    },
  );
}

function countAccountPayers(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/accounts/:id/payers/count',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'How many payers an account has',
        description:
          'Exact up to 10,000; past that the database’s estimate, with `estimated: true`.',
        params: uuidParam,
        response: { 200: countSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) =>
        accounts.payersCount(tx, datasetScopeOf(request), request.params.id),
      ),
  );
}

function getAccountPayer(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/accounts/:id/payers/:payerId',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'One payer of an account',
        description:
          'A payer of another account, company or tenant answers 404, as one that does not exist.',
        params: accountPayerParams,
        response: { 200: payerSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) =>
        accounts.payer(tx, datasetScopeOf(request), request.params.id, request.params.payerId),
      ),
  );
}

function createAccountPayer(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/accounts/:id/payers',
    {
      config: { access: 'dataset', permission: 'PushErpData', operation: 'CreatePayer' },
      schema: {
        tags,
        summary: 'Add a payer to an account (ERP connectors)',
        description:
          `Needs a company name, a first name, a surname or an email address. ${erpWriteAccess} ` +
          'Limits: docs/api.md. Send an Idempotency-Key to retry safely.',
        params: uuidParam,
        headers: idempotencyKeyHeaders,
        body: createPayerBody,
        response: { 201: payerSchema },
      },
    },
    async (request, reply) => {
      const answer = await request.unitOfWork(async (tx) => {
        const created = await runIdempotent(tx, request, 201, () =>
          accounts.createPayer(tx, datasetScopeOf(request), request.params.id, request.body),
        );
        request.auditResource = { type: 'Payer', id: created.body.id };
        return created;
      }, 201);
      return sendIdempotent(reply, answer);
    },
  );
}
