import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountExpandQuery,
  accountExpansions,
  accountQuery,
  accountReferenceParam,
  accountSchema,
  accountSettingsBody,
  createAccountBody,
  estimatedPageOf,
  idempotencyKeyHeaders,
  pageQuerySchema,
  parseExpand,
  parsePageQuery,
  upsertAccountBody,
  uuidParam,
} from '@ledgerline/contract';
import { runIdempotent, sendIdempotent } from '../../platform/idempotency.js';
import { datasetScopeOf } from '../../platform/scope.js';
import { erpWriteAccess } from './erp-write-access.js';
import { createAccountsRepository } from './accounts.repository.js';
import { createAccountsService, type AccountsService } from './accounts.service.js';
import { payersRoutes } from './payers.routes.js';
import { createPayersRepository } from './payers.repository.js';

export interface AccountsRoutesOptions {
  accounts?: AccountsService;
}

const tags = ['accounts'];
const totals =
  '`totalItems` is exact up to 10,000 and the database’s estimate past that; `totalItemsEstimated` says which.';

/**
 * spec 2 §2, §7 accounts: the list, one account, its settings, and the ERP connector's writes.
 * Reads need no named permission (design §4: a Viewer reads everything in the tenant).
 */
export async function accountsRoutes(app: FastifyInstance, options: AccountsRoutesOptions = {}) {
  const accounts =
    options.accounts ??
    createAccountsService({
      accounts: createAccountsRepository(),
      payers: createPayersRepository(),
    });
  await app.register(payersRoutes, { accounts });
  listAccounts(app, accounts);
  getAccount(app, accounts);
  updateAccountSettings(app, accounts);
  createAccount(app, accounts);
  updateAccount(app, accounts);
  upsertAccountByReference(app, accounts);
}

function listAccounts(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/accounts',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: "The company's customer accounts, paged",
        description:
          'Default sort: accountReference ascending. Filters: accountReference, name, shortName, accountType, currency ' +
          '(ct, nct, sw, ew, eq, neq); balance, overdueAmount, disputedAmount, creditLimit (eq, neq, gt, ge, lt, le); ' +
          `createdOn, updatedOn (date operators); id (eq, neq). ${totals}`,
        querystring: pageQuerySchema,
        response: { 200: estimatedPageOf(accountSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(accountQuery, request.query);
      return request.tenantRead((tx) => accounts.page(tx, datasetScopeOf(request), query));
    },
  );
}

function getAccount(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/accounts/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'One account with its settings',
        description:
          "`expand=counts` adds `counts`: the account's accounting transactions, payment transactions, payment " +
          'requests and payers, each exact up to 10,000. An account of another company or tenant answers 404.',
        params: uuidParam,
        querystring: accountExpandQuery,
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      const expand = parseExpand(accountExpansions, request.query.expand);
      return request.tenantRead((tx) =>
        accounts.get(tx, datasetScopeOf(request), request.params.id, expand),
      );
    },
  );
}

function updateAccountSettings(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/v0/accounts/:id/settings',
    {
      config: {
        access: 'dataset',
        permission: 'EditAccountSettings',
        operation: 'UpdateAccountSettings',
      },
      schema: {
        tags,
        summary: "Change an account's settings",
        description:
          'Needs EditAccountSettings. Auto-apply of settlements: disableAutoApplySettlements true = none, false with ' +
          'no group = the company default, false with a group id = that settlement configuration group; the same ' +
          'for late payments (its id is a late payment configuration). A chosen group or configuration that does not exist in the company is a 422.',
        params: uuidParam,
        body: accountSettingsBody,
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'Account', id: request.params.id };
      return request.unitOfWork((tx) =>
        accounts.updateSettings(tx, datasetScopeOf(request), request.params.id, request.body),
      );
    },
  );
}

function createAccount(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/accounts',
    {
      config: { access: 'dataset', permission: 'PushErpData', operation: 'CreateAccount' },
      schema: {
        tags,
        summary: 'Create an account (ERP connectors)',
        description:
          `${erpWriteAccess} The account reference is unique in the company (409 otherwise). Settings start at ` +
          'their defaults. Limits: docs/api.md. Send an Idempotency-Key to retry safely.',
        headers: idempotencyKeyHeaders,
        body: createAccountBody,
        response: { 201: accountSchema },
      },
    },
    async (request, reply) => {
      const answer = await request.unitOfWork(async (tx) => {
        const created = await runIdempotent(tx, request, 201, () =>
          accounts.create(tx, datasetScopeOf(request), request.body),
        );
        request.auditResource = { type: 'Account', id: created.body.id };
        return created;
      }, 201);
      return sendIdempotent(reply, answer);
    },
  );
}

function updateAccount(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/v0/accounts/:id',
    {
      config: { access: 'dataset', permission: 'PushErpData', operation: 'UpdateAccount' },
      schema: {
        tags,
        summary: 'Replace an account (ERP connectors)',
        description:
          `Replaces every field the connector owns, email addresses, contacts and addresses included; the ` +
          `settings, id and createdOn stay. ${erpWriteAccess} Limits: docs/api.md.`,
        params: uuidParam,
        body: createAccountBody,
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'Account', id: request.params.id };
      return request.unitOfWork((tx) =>
        accounts.update(tx, datasetScopeOf(request), request.params.id, request.body),
      );
    },
  );
}

function upsertAccountByReference(app: FastifyInstance, accounts: AccountsService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/v0/accounts/by-reference/:accountReference',
    {
      config: { access: 'dataset', permission: 'PushErpData', operation: 'UpsertAccount' },
      schema: {
        tags,
        summary: 'Create or replace the account with this reference (ERP connectors)',
        description:
          'The sync call of a connector: replaces the account whose accountReference is in the path (200), or ' +
          `creates it (201). Safe to repeat. ${erpWriteAccess} Limits: docs/api.md.`,
        params: accountReferenceParam,
        body: upsertAccountBody,
        response: { 200: accountSchema, 201: accountSchema },
      },
    },
    async (request, reply) => {
      const scope = datasetScopeOf(request);
      const { accountReference } = request.params;
      // The audit records the status the caller gets, so learn it before the unit of work.
      const exists = await request.tenantRead((tx) => accounts.exists(tx, scope, accountReference));
      const result = await request.unitOfWork(
        async (tx) => {
          const upserted = await accounts.upsert(tx, scope, accountReference, request.body);
          request.auditResource = { type: 'Account', id: upserted.account.id };
          return upserted;
        },
        exists ? 200 : 201,
      );
      return reply.status(result.created ? 201 : 200).send(result.account);
    },
  );
}

/** app.ts registers the area with `app.register(import('./features/accounts/accounts.routes.js'))`. */
export default accountsRoutes;
