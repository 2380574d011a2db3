import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  countSchema,
  createSettlementOfferBody,
  createTransactionBody,
  deleteSettlementOfferBody,
  deleteSettlementOfferQuery,
  estimatedPageOf,
  idempotencyKeyHeaders,
  matchExistingQuery,
  pageQuerySchema,
  parsePageQuery,
  settlementOfferSchema,
  transactionDetailSchema,
  transactionMessages,
  transactionQuery,
  transactionSchema,
  updateSettlementOfferBody,
  uuidParam,
} from '@ledgerline/contract';

import { ValidationError } from '../../platform/errors.js';
import { runIdempotent, sendIdempotent } from '../../platform/idempotency.js';
import type { CustomHostIdRebuild } from './custom-host-id.jobs.js';
import { createCustomHostIdRepository } from './custom-host-id.repository.js';
import { customHostIdRoutes } from './custom-host-id.routes.js';
import { createCustomHostIdService } from './custom-host-id.service.js';
import { createDocumentsRepository } from './documents.repository.js';
import { documentsRoutes } from './documents.routes.js';
import { createDocumentsService } from './documents.service.js';
import { createTransactionsRepository } from './transactions.repository.js';
import { createTransactionsService, type TransactionsService } from './transactions.service.js';
import { datasetScopeOf } from '../../platform/scope.js';

export interface TransactionsRoutesOptions {
  transactions?: TransactionsService;
  /** The custom host id rebuild job; app.ts registers its worker with the other jobs. */
  customHostIdRebuild: CustomHostIdRebuild;
}

/** The company of the call: the tenant of the caller and the Dataset-Id it sent (design §3). */

const tags = ['transactions'];
const listDescription =
  '`totalItems` is exact up to 10,000 and the database’s estimate past that; `totalItemsEstimated` says which. ' +
  'Filters: transactionReference, currency, accountName (strings), transactionType, paidStatus (enums), transactionAmount (number), ' +
  'transactionDate, dueDate (dates), id, accountId (uuid). Every field but accountName, id and accountId sorts.';
const offerRules =
  'spec 2 §4–§5: a Used offer cannot be edited or deleted (409); a FullyPaid transaction gets no new offer (409); once a transaction ' +
  'has offers only their types may be added (409); amount 0 up to the amount owed; percentage 0–100; description ≤ 100, trimmed; ' +
  'validFrom before validUntil. Limits and messages: docs/api.md.';

/**
 * spec 2 §2, §7: accounting transactions of the company in the Dataset-Id header, their
 * settlement offers, and POST transactions for ERP connectors. The area wires its own service.
 */
export async function transactionsRoutes(app: FastifyInstance, options: TransactionsRoutesOptions) {
  const repository = createTransactionsRepository();
  const customHostIds = createCustomHostIdService({ repository: createCustomHostIdRepository() });
  const transactions =
    options.transactions ?? createTransactionsService({ repository, customHostIds });
  await app.register(customHostIdRoutes, {
    service: customHostIds,
    rebuild: options.customHostIdRebuild,
  });
  await app.register(documentsRoutes, {
    documents: createDocumentsService({
      documents: createDocumentsRepository(),
      transactions: repository,
    }),
  });
  listTransactions(app, transactions);
  countTransactions(app, transactions);
  getTransaction(app, transactions);
  createTransaction(app, transactions);
  addSettlementOffers(app, transactions);
  updateSettlementOffers(app, transactions);
  deleteSettlementOffers(app, transactions);
}

function listTransactions(app: FastifyInstance, transactions: TransactionsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/transactions',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'Accounting transactions, paged (default sort: -transactionDate; expand: account)',
        description: listDescription,
        querystring: pageQuerySchema,
        response: { 200: estimatedPageOf(transactionSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(transactionQuery, request.query);
      return request.tenantRead((tx) => transactions.page(tx, datasetScopeOf(request), query));
    },
  );
}

function countTransactions(app: FastifyInstance, transactions: TransactionsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/transactions/count',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'How many accounting transactions match the filter',
        description:
          'Exact up to 10,000; past that the database’s estimate, with `estimated: true`.',
        querystring: pageQuerySchema.pick({ filter: true }),
        response: { 200: countSchema },
      },
    },
    async (request) => {
      const { filters } = parsePageQuery(transactionQuery, { filter: request.query.filter });
      return request.tenantRead((tx) =>
        transactions.count(tx, datasetScopeOf(request), { filters }),
      );
    },
  );
}

function getTransaction(app: FastifyInstance, transactions: TransactionsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/transactions/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'One accounting transaction with its account, contact, settlement offers, documents, allocations and late-payment fees',
        description:
          'amountOwed = transactionAmount − allocatedAmount − discountedAmount (spec 2 §4). Another company’s transaction answers 404.',
        params: uuidParam,
        response: { 200: transactionDetailSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) => transactions.get(tx, datasetScopeOf(request), request.params.id)),
  );
}

function createTransaction(app: FastifyInstance, transactions: TransactionsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/transactions',
    {
      config: { access: 'dataset', permission: 'PushErpData', operation: 'PushTransaction' },
      schema: {
        tags,
        summary:
          'Create an accounting transaction, or update the one with its reference and type (ERP connectors)',
        description:
          'The account is named by accountId or accountReference (exactly one). match-existing=true updates the transaction with the ' +
          'same transactionReference and transactionType (200) instead of answering 409; a new one answers 201. Needs PushErpData ' +
          '(docs/decisions.md, "ERP data writes"). Send an Idempotency-Key to retry safely.',
        headers: idempotencyKeyHeaders,
        querystring: matchExistingQuery,
        body: createTransactionBody,
        response: { 200: transactionSchema, 201: transactionSchema },
      },
    },
    async (request, reply) => {
      const matchExisting = request.query['match-existing'] === 'true';
      const answer = await request.unitOfWork(async (tx) => {
        const scope = datasetScopeOf(request);
        const status = (await transactions.willMatch(tx, scope, request.body, matchExisting))
          ? 200
          : 201;
        const pushed = await runIdempotent(tx, request, status, () =>
          transactions.push(tx, scope, request.body, matchExisting),
        );
        request.auditResource = { type: 'Transaction', id: pushed.body.id };
        return pushed;
      });
      return sendIdempotent(reply, answer);
    },
  );
}

function addSettlementOffers(app: FastifyInstance, transactions: TransactionsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/transactions/:id/settlement-offers',
    {
      config: {
        access: 'dataset',
        permission: 'CreateSettlementConfigurations',
        operation: 'CreateSettlementOffer',
      },
      schema: {
        tags,
        summary:
          'Add a settlement offer (Open, priority 0, the transaction’s currency; validUntil defaults to the due date)',
        description: offerRules,
        params: uuidParam,
        body: createSettlementOfferBody,
        response: { 201: settlementOfferSchema },
      },
    },
    async (request, reply) => {
      const offer = await request.unitOfWork(async (tx) => {
        const created = await transactions.addOffer(
          tx,
          datasetScopeOf(request),
          request.params.id,
          request.body,
        );
        request.auditResource = { type: 'SettlementOffer', id: created.id };
        return created;
      }, 201);
      return reply.status(201).send(offer);
    },
  );
}

function updateSettlementOffers(app: FastifyInstance, transactions: TransactionsService) {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/v0/transactions/:id/settlement-offers',
    {
      config: {
        access: 'dataset',
        permission: 'EditSettlementConfigurations',
        operation: 'UpdateSettlementOffer',
      },
      schema: {
        tags,
        summary: 'Edit the settlement offer whose id the body carries',
        description: offerRules,
        params: uuidParam,
        body: updateSettlementOfferBody,
        response: { 200: settlementOfferSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'SettlementOffer', id: request.body.id };
      return request.unitOfWork((tx) =>
        transactions.updateOffer(tx, datasetScopeOf(request), request.params.id, request.body),
      );
    },
  );
}

function deleteSettlementOffers(app: FastifyInstance, transactions: TransactionsService) {
  app.withTypeProvider<ZodTypeProvider>().delete(
    '/api/v0/transactions/:id/settlement-offers',
    {
      config: {
        access: 'dataset',
        permission: 'DeleteSettlementConfigurations',
        operation: 'DeleteSettlementOffer',
      },
      schema: {
        tags,
        summary: 'Delete the settlement offer whose id the body (or the offerId parameter) carries',
        description: 'spec 2 §4: a Used offer cannot be deleted (409). Answers 204.',
        params: uuidParam,
        querystring: deleteSettlementOfferQuery,
        body: deleteSettlementOfferBody.nullish(),
      },
    },
    async (request, reply) => {
      const offerId = request.body?.id ?? request.query.offerId;
      if (!offerId)
        throw new ValidationError(
          { id: [transactionMessages.offerIdRequired] },
          transactionMessages.offerIdRequired,
        );
      request.auditResource = { type: 'SettlementOffer', id: offerId };
      await request.unitOfWork(
        (tx) => transactions.deleteOffer(tx, datasetScopeOf(request), request.params.id, offerId),
        204,
      );
      return reply.status(204).send();
    },
  );
}

/** app.ts registers the area with `app.register(import('./features/transactions/transactions.routes.js'), options)`. */
export default transactionsRoutes;
