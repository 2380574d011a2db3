import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createPaymentProviderBody,
  defaultPaymentProviderSchema,
  isDefaultPaymentProviderSchema,
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  paymentProviderQuery,
  paymentProviderSchema,
  paymentProviderSummarySchema,
  paymentProviderTypeSchema,
  paymentProviderTypes,
  setDefaultPaymentProviderBody,
  updatePaymentProviderBody,
  uuidParam,
} from '@ledgerline/contract';
import type { Database } from '../../db/client.js';
import { datasetScopeOf } from '../../platform/scope.js';
import type { PaymentProvidersService } from './payment-providers.service.js';
import { transactionsFor } from './provider-connections.routes.js';
import type { ProviderConnections } from './provider-connections.service.js';

export interface PaymentProvidersRoutesOptions {
  providers: PaymentProvidersService;
  /** Opayo Server's IP registration, which a save of such a configuration does first. */
  connections: ProviderConnections;
  database: Database;
}

const tags = ['payment-providers'];
const opayoNote =
  "An Opayo configuration of integration type Server first registers this server's IP address with Opayo; if that fails nothing is saved (400, errorCode `OpayoIpNotRegistered`).";
const configure = 'ConfigurePaymentProvider' as const;
const secretsNote =
  'A stored secret reads back as the sentinel `__stored_secret__`; sending the sentinel back keeps the stored secret (docs/api.md).';

const defaultRead = {
  config: { access: 'dataset' as const },
  schema: {
    tags,
    summary: "The company's default payment provider (null when none is set)",
    response: { 200: defaultPaymentProviderSchema },
  },
};
const defaultWrite = {
  config: {
    access: 'dataset' as const,
    permission: configure,
    operation: 'SetDefaultPaymentProvider',
  },
  schema: {
    tags,
    summary: "Make a configuration the company's default payment provider",
    body: setDefaultPaymentProviderBody,
    response: { 200: defaultPaymentProviderSchema },
  },
};

/** The default provider, at both of its addresses (spec 3 §4 "Default provider"). */
function defaultProviderRoutes(r: Router, { providers }: RouteContext) {
  for (const path of ['/api/v0/providers/default', '/api/v0/company-settings/payment-provider']) {
    r.get(path, defaultRead, async (request) =>
      request.tenantRead((tx) => providers.defaultOf(tx, datasetScopeOf(request))),
    );
    r.put(path, defaultWrite, async (request) => {
      request.auditResource = { type: 'PaymentProvider', id: request.body.paymentProviderId };
      return request.unitOfWork((tx) =>
        providers.setDefault(tx, datasetScopeOf(request), request.body.paymentProviderId),
      );
    });
  }
}

const routerOf = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
type Router = ReturnType<typeof routerOf>;

/** What the configuration routes call: the rules, and Opayo's address registration of a save. */
interface RouteContext {
  providers: PaymentProvidersService;
  registerIp: (
    request: FastifyRequest,
    body: Parameters<ProviderConnections['registerIpForSave']>[2],
  ) => Promise<void>;
}

function listProvidersRoute(r: Router, { providers }: RouteContext) {
  r.get(
    '/api/v0/providers',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: "The company's payment provider configurations, paged (no credentials)",
        description:
          'Default sort: name ascending. Filters: name, description (string operators; `name eq` ignores case, as the unique-name check), ' +
          'providerName (eq, neq), displayPriority (number operators), enabled, isTest (eq, neq), createdOn, id.',
        querystring: pageQuerySchema,
        response: { 200: pageOf(paymentProviderSummarySchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(paymentProviderQuery, request.query);
      return request.tenantRead((tx) => providers.page(tx, datasetScopeOf(request), query));
    },
  );
}

function providerTypesRoute(r: Router) {
  r.get(
    '/api/v0/providers/types',
    {
      config: { access: 'tenant' },
      schema: {
        tags,
        summary: 'The provider kinds a configuration can be made of (spec 3 §3 Provider type info)',
        response: { 200: z.array(paymentProviderTypeSchema) },
      },
    },
    async () => [...paymentProviderTypes],
  );
}

function isDefaultProviderRoute(r: Router, { providers }: RouteContext) {
  r.get(
    '/api/v0/providers/:id/is-default',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: "Whether a configuration is the company's default",
        params: uuidParam,
        response: { 200: isDefaultPaymentProviderSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) =>
        providers.isDefault(tx, datasetScopeOf(request), request.params.id),
      ),
  );
}

function getProviderRoute(r: Router, { providers }: RouteContext) {
  r.get(
    '/api/v0/providers/:id',
    {
      config: { access: 'dataset', permission: configure },
      schema: {
        tags,
        summary: 'One configuration with its credentials',
        description: `${secretsNote} Another company's or tenant's configuration answers 404.`,
        params: uuidParam,
        response: { 200: paymentProviderSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) => providers.get(tx, datasetScopeOf(request), request.params.id)),
  );
}

function createProviderRoute(r: Router, { providers, registerIp }: RouteContext) {
  r.post(
    '/api/v0/providers',
    {
      config: { access: 'dataset', permission: configure, operation: 'CreatePaymentProvider' },
      schema: {
        tags,
        summary: 'Add a configuration; the first of a company becomes its default',
        description: `Settings and credentials per provider and their rules: docs/api.md. GoCardless is added through its authorisation. ${opayoNote} ${secretsNote}`,
        body: createPaymentProviderBody,
        response: { 201: paymentProviderSchema },
      },
    },
    async (request, reply) => {
      await registerIp(request, request.body);
      const created = await request.unitOfWork(async (tx) => {
        const provider = await providers.create(tx, datasetScopeOf(request), request.body);
        request.auditResource = { type: 'PaymentProvider', id: provider.id };
        return provider;
      }, 201);
      return reply.status(201).send(created);
    },
  );
}

function updateProviderRoute(r: Router, { providers, registerIp }: RouteContext) {
  r.put(
    '/api/v0/providers',
    {
      config: { access: 'dataset', permission: configure, operation: 'UpdatePaymentProvider' },
      schema: {
        tags,
        summary: 'Save a configuration (the body carries its id)',
        description: `The provider name cannot change. ${opayoNote} ${secretsNote}`,
        body: updatePaymentProviderBody,
        response: { 200: paymentProviderSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'PaymentProvider', id: request.body.id };
      await registerIp(request, request.body);
      return request.unitOfWork((tx) =>
        providers.update(tx, datasetScopeOf(request), request.body),
      );
    },
  );
}

function deleteProviderRoute(r: Router, { providers }: RouteContext) {
  r.delete(
    '/api/v0/providers/:id',
    {
      config: {
        access: 'dataset',
        permission: 'DeletePaymentProvider',
        operation: 'DeletePaymentProvider',
      },
      schema: {
        tags,
        summary: 'Delete a configuration (a deleted default leaves the company without one)',
        params: uuidParam,
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'PaymentProvider', id: request.params.id };
      await request.unitOfWork(
        (tx) => providers.remove(tx, datasetScopeOf(request), request.params.id),
        204,
      );
      return reply.status(204).send();
    },
  );
}

/**
 * spec 3 §2, §4, §5, §7 payment provider configurations of a company. Reading the list, the
 * types and the default needs no permission (the export dialog lists providers; design §4: a
 * Viewer reads everything); a configuration with its credentials and every change need
 * ConfigurePaymentProvider, deleting DeletePaymentProvider (docs/decisions/045-payment-provider-configurations.md).
 */
export async function paymentProvidersRoutes(
  app: FastifyInstance,
  options: PaymentProvidersRoutesOptions,
) {
  const r = routerOf(app);
  const { providers, connections, database } = options;
  /** spec 3 §4: before the save's transaction, since it calls Opayo (style.md §7). */
  const registerIp = (
    request: FastifyRequest,
    body: Parameters<typeof connections.registerIpForSave>[2],
  ) =>
    connections.registerIpForSave(
      transactionsFor(database, request),
      datasetScopeOf(request),
      body,
    );

  const context: RouteContext = { providers, registerIp };
  listProvidersRoute(r, context);
  providerTypesRoute(r);
  defaultProviderRoutes(r, context);

  isDefaultProviderRoute(r, context);
  getProviderRoute(r, context);
  createProviderRoute(r, context);
  updateProviderRoute(r, context);
  deleteProviderRoute(r, context);
}
