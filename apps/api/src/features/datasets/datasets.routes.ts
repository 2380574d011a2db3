import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  baseCurrencies,
  createDatasetBody,
  datasetIdParam,
  datasetQuery,
  datasetSchema,
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  selectableHostSystems,
  updateDatasetBody,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { requirePrincipal, type Principal } from '../../platform/context.js';
import { NotFoundError } from '../../platform/errors.js';
import type { DatasetsRepository } from './datasets.repository.js';
import type { DatasetLifecycle } from './datasets.jobs.js';
import type { DatasetChange, DatasetsService } from './datasets.service.js';

export interface DatasetsRoutesOptions {
  repository: DatasetsRepository;
  service: DatasetsService;
  lifecycle: DatasetLifecycle;
}

const tags = ['data-sets'];

/** The calls' helpers: the job after the commit, and the companies a caller may see. */
function helpersOf(options: DatasetsRoutesOptions) {
  const { repository, lifecycle } = options;

  /** The job is enqueued only after the change committed (style.md §7). */
  async function afterCommit(tenantId: string, change: DatasetChange) {
    if (change.job) await lifecycle.send(change.job, { tenantId, datasetId: change.dataset.id });
    return change.dataset;
  }

  /** A company the caller may see: a key bound to another company finds nothing. */
  async function findVisible(tx: Tx, principal: Principal | null, id: number) {
    const { tenantId, keyDatasetId } = requirePrincipal(principal);
    if (keyDatasetId !== null && keyDatasetId !== id) return null;
    return repository.find(tx, tenantId, id);
  }
  return { afterCommit, findVisible };
}

/** The lists: companies, host systems and base currencies. */
function listRoutes(app: FastifyInstance, options: DatasetsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { repository } = options;
  r.get(
    '/api/v0/data-sets',
    {
      config: { access: 'tenant' },
      schema: {
        tags,
        summary: 'Companies, paged (default sort: id ascending)',
        querystring: pageQuerySchema,
        response: { 200: pageOf(datasetSchema) },
      },
    },
    async (request) => {
      const { tenantId, keyDatasetId } = requirePrincipal(request.principal);
      const query = parsePageQuery(datasetQuery, request.query);
      return request.tenantRead((tx) => repository.page(tx, tenantId, query, keyDatasetId));
    },
  );

  r.get(
    '/api/v0/data-sets/all',
    {
      config: { access: 'tenant' },
      schema: {
        tags,
        summary: "All of the tenant's companies",
        response: { 200: z.object({ items: z.array(datasetSchema) }) },
      },
    },
    async (request) => {
      const { tenantId, keyDatasetId } = requirePrincipal(request.principal);
      return {
        items: await request.tenantRead((tx) => repository.all(tx, tenantId, keyDatasetId)),
      };
    },
  );

  r.get(
    '/api/v0/data-sets/host-systems',
    {
      config: { access: 'tenant' },
      schema: {
        tags,
        summary: 'ERP host systems a company can use',
        response: { 200: z.object({ items: z.array(z.enum(selectableHostSystems)) }) },
      },
    },
    async () => ({ items: [...selectableHostSystems] }),
  );

  r.get(
    '/api/v0/data-sets/base-currencies',
    {
      config: { access: 'tenant' },
      schema: {
        tags,
        summary: 'Supported base currencies of a company',
        response: { 200: z.object({ items: z.array(z.enum(baseCurrencies)) }) },
      },
    },
    async () => ({ items: [...baseCurrencies] }),
  );
}

/** One company: read, and whether it exists. */
function oneCompanyRoutes(app: FastifyInstance, options: DatasetsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { findVisible } = helpersOf(options);
  r.get(
    '/api/v0/data-sets/:id',
    {
      config: { access: 'tenant' },
      schema: {
        tags,
        summary: 'One company',
        params: datasetIdParam,
        response: { 200: datasetSchema },
      },
    },
    async (request) => {
      const dataset = await request.tenantRead((tx) =>
        findVisible(tx, request.principal, request.params.id),
      );
      if (!dataset) throw new NotFoundError(`Company ${request.params.id} was not found.`);
      return dataset;
    },
  );

  r.get(
    '/api/v0/data-sets/:id/exists',
    {
      config: { access: 'tenant' },
      schema: {
        tags,
        summary: 'Whether a company exists: 204 yes, 404 no',
        params: datasetIdParam,
        response: { 204: z.null().describe('The company exists') },
      },
    },
    async (request, reply) => {
      const dataset = await request.tenantRead((tx) =>
        findVisible(tx, request.principal, request.params.id),
      );
      if (!dataset) throw new NotFoundError(`Company ${request.params.id} was not found.`);
      return reply.status(204).send(null);
    },
  );
}

/** Create, change and delete a company, and reset a demo company. */
function changeRoutes(app: FastifyInstance, options: DatasetsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = options;
  const { afterCommit } = helpersOf(options);
  r.post(
    '/api/v0/data-sets',
    {
      config: { access: 'tenant', permission: 'CreateCompanies', operation: 'CreateDataset' },
      schema: {
        tags,
        summary:
          'Register a company; it is provisioned in the background (Initialise → Provisioning → Active)',
        body: createDatasetBody,
        response: { 201: datasetSchema },
      },
    },
    async (request, reply) => {
      const { tenantId } = requirePrincipal(request.principal);
      const change = await request.unitOfWork(async (tx) => {
        const created = await service.create(tx, tenantId, request.body);
        request.auditResource = { type: 'Dataset', id: String(created.dataset.id) };
        return created;
      }, 201);
      return reply.status(201).send(await afterCommit(tenantId, change));
    },
  );

  r.put(
    '/api/v0/data-sets',
    {
      config: { access: 'tenant', permission: 'EditCompanies', operation: 'UpdateDataset' },
      schema: {
        tags,
        summary: 'Update a company',
        body: updateDatasetBody,
        response: { 200: datasetSchema },
      },
    },
    async (request) => {
      const { tenantId } = requirePrincipal(request.principal);
      request.auditResource = { type: 'Dataset', id: String(request.body.id) };
      const change = await request.unitOfWork((tx) => service.update(tx, tenantId, request.body));
      return afterCommit(tenantId, change);
    },
  );

  r.delete(
    '/api/v0/data-sets/:id',
    {
      config: { access: 'tenant', permission: 'DeleteCompanies', operation: 'DeleteDataset' },
      schema: {
        tags,
        summary: 'Delete a company with all its data (Deleting → gone)',
        params: datasetIdParam,
        response: { 202: datasetSchema },
      },
    },
    async (request, reply) => {
      const { tenantId } = requirePrincipal(request.principal);
      request.auditResource = { type: 'Dataset', id: String(request.params.id) };
      const change = await request.unitOfWork(
        (tx) => service.remove(tx, tenantId, request.params.id),
        202,
      );
      return reply.status(202).send(await afterCommit(tenantId, change));
    },
  );

  r.post(
    '/api/v0/data-sets/:id/reset',
    {
      config: { access: 'tenant', permission: 'EditCompanies', operation: 'ResetDemoDataset' },
      schema: {
        tags,
        summary: 'Refill a demo company with fresh demo data (Resetting → Active)',
        params: datasetIdParam,
        response: { 202: datasetSchema },
      },
    },
    async (request, reply) => {
      const { tenantId } = requirePrincipal(request.principal);
      request.auditResource = { type: 'Dataset', id: String(request.params.id) };
      const change = await request.unitOfWork(
        (tx) => service.reset(tx, tenantId, request.params.id),
        202,
      );
      return reply.status(202).send(await afterCommit(tenantId, change));
    },
  );
}

export async function datasetsRoutes(app: FastifyInstance, options: DatasetsRoutesOptions) {
  listRoutes(app, options);
  oneCompanyRoutes(app, options);
  changeRoutes(app, options);
}
