import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  pageQuerySchema,
  parsePageQuery,
  svixDashboardAccessSchema,
  uuidParam,
  webHookDeliveriesQuery,
  webHookDeliveriesSchema,
  webHookDeliverySchema,
  webHookEndpointBody,
  webHookEndpointQuery,
  webHookEndpointSchema,
  webHookSecretSchema,
} from '@ledgerline/contract';
import { datasetScopeOf } from '../../platform/scope.js';
import type { WebHooksService } from './web-hooks.service.js';

interface Options {
  service: WebHooksService;
  nudge: () => Promise<void>;
}

/** The audit record's resource: the endpoint the call changes. */
const endpoint = (request: FastifyRequest, id: string) => {
  request.auditResource = { type: 'WebHookEndpoint', id };
};

const tags = ['web-hooks'];
// spec 3 §6: the web hooks page needs ConfigureSystemSettings; so does everything behind it.
const permission = 'ConfigureSystemSettings' as const;

/** The Svix portal, and the list of endpoints with adding one. */
function portalAndEndpointListRoutes(app: FastifyInstance, options: Options) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = options;
  r.get(
    '/api/v0/integrations/svix/dashboard-access',
    {
      config: { access: 'dataset', permission },
      schema: {
        tags,
        summary: 'The Svix app portal of the company (the web hooks page’s frame source)',
        description:
          'mode Svix: `url` is the portal (not frameable on a self-hosted Svix server, `frameable` false). ' +
          'mode Embedded (no SVIX_TOKEN): `url` is null and the endpoints are managed with web-hooks/endpoints.',
        response: { 200: svixDashboardAccessSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) => service.dashboardAccess(tx, datasetScopeOf(request))),
  );

  r.get(
    '/api/v0/web-hooks/endpoints',
    {
      config: { access: 'dataset', permission },
      schema: {
        tags,
        summary:
          'The company’s web hook endpoints (embedded delivery); `search` finds words in their URL and description',
        querystring: z.object({ search: pageQuerySchema.shape.search }),
        response: { 200: z.object({ items: z.array(webHookEndpointSchema) }) },
      },
    },
    async (request) => {
      // The endpoints grid's search box, read by the one compileSearch.
      const { search } = parsePageQuery(webHookEndpointQuery, { search: request.query.search });
      return {
        items: await request.tenantRead((tx) => service.list(tx, datasetScopeOf(request), search)),
      };
    },
  );

  r.post(
    '/api/v0/web-hooks/endpoints',
    {
      config: { access: 'dataset', permission, operation: 'CreateWebHookEndpoint' },
      schema: {
        tags,
        summary: 'Add an endpoint (answers 201); a signing secret is made for it',
        description:
          'https:// only (http:// to this computer outside production); private, loopback and link-local ' +
          'addresses are refused unless WEBHOOK_ALLOW_PRIVATE, and so are Ledgerline’s own host and ports other than 443 and 80 ' +
          '(WEBHOOK_ALLOWED_PORTS). `eventTypes` empty: every type. 409 when Svix is configured.',
        body: webHookEndpointBody,
        response: { 201: webHookEndpointSchema },
      },
    },
    async (request, reply) => {
      const created = await request.unitOfWork(async (tx) => {
        const added = await service.create(tx, datasetScopeOf(request), request.body);
        endpoint(request, added.id);
        return added;
      }, 201);
      return reply.status(201).send(created);
    },
  );
}

/** One endpoint: read, change, delete. */
function endpointRoutes(app: FastifyInstance, options: Options) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = options;
  r.get(
    '/api/v0/web-hooks/endpoints/:id',
    {
      config: { access: 'dataset', permission },
      schema: {
        tags,
        summary: 'One endpoint',
        params: uuidParam,
        response: { 200: webHookEndpointSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) => service.get(tx, datasetScopeOf(request), request.params.id)),
  );

  r.put(
    '/api/v0/web-hooks/endpoints/:id',
    {
      config: { access: 'dataset', permission, operation: 'UpdateWebHookEndpoint' },
      schema: {
        tags,
        summary:
          'Change an endpoint; `disabled` switches it off (its waiting deliveries fail) or on',
        params: uuidParam,
        body: webHookEndpointBody,
        response: { 200: webHookEndpointSchema },
      },
    },
    async (request) => {
      endpoint(request, request.params.id);
      return request.unitOfWork((tx) =>
        service.update(tx, datasetScopeOf(request), request.params.id, request.body),
      );
    },
  );

  r.delete(
    '/api/v0/web-hooks/endpoints/:id',
    {
      config: { access: 'dataset', permission, operation: 'DeleteWebHookEndpoint' },
      schema: {
        tags,
        summary: 'Delete an endpoint and its delivery log (answers 204)',
        params: uuidParam,
      },
    },
    async (request, reply) => {
      endpoint(request, request.params.id);
      await request.unitOfWork(
        (tx) => service.remove(tx, datasetScopeOf(request), request.params.id),
        204,
      );
      return reply.status(204).send();
    },
  );
}

/** An endpoint's signing secret: shown, rotated. */
function secretRoutes(app: FastifyInstance, options: Options) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = options;
  r.get(
    '/api/v0/web-hooks/endpoints/:id/secret',
    {
      config: { access: 'dataset', permission },
      schema: {
        tags,
        summary: 'The endpoint’s signing secret (whsec_…), shown on demand',
        params: uuidParam,
        response: { 200: webHookSecretSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return request.tenantRead((tx) =>
        service.secret(tx, datasetScopeOf(request), request.params.id),
      );
    },
  );

  r.post(
    '/api/v0/web-hooks/endpoints/:id/secret/rotate',
    {
      config: { access: 'dataset', permission, operation: 'RotateWebHookSecret' },
      schema: {
        tags,
        summary: 'A new signing secret for the endpoint; attempts from now on are signed with it',
        params: uuidParam,
        response: { 200: webHookSecretSchema },
      },
    },
    async (request, reply) => {
      endpoint(request, request.params.id);
      reply.header('cache-control', 'no-store');
      return request.unitOfWork((tx) =>
        service.rotateSecret(tx, datasetScopeOf(request), request.params.id),
      );
    },
  );
}

/** The delivery log, and sending a delivery again. */
function deliveryRoutes(app: FastifyInstance, options: Options) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = options;
  r.get(
    '/api/v0/web-hooks/endpoints/:id/deliveries',
    {
      config: { access: 'dataset', permission },
      schema: {
        tags,
        summary: 'The endpoint’s delivery log, newest event first (page, itemsPerPage up to 100)',
        params: uuidParam,
        querystring: webHookDeliveriesQuery,
        response: { 200: webHookDeliveriesSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) =>
        service.deliveries(tx, datasetScopeOf(request), request.params.id, request.query),
      ),
  );

  r.post(
    '/api/v0/web-hooks/deliveries/:id/resend',
    {
      config: { access: 'dataset', permission, operation: 'ResendWebHook' },
      schema: {
        tags,
        summary: 'Send a delivery again now (a new attempt with the same webhook-id)',
        params: uuidParam,
        response: { 200: webHookDeliverySchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'WebHookDelivery', id: request.params.id };
      const delivery = await request.unitOfWork((tx) =>
        service.resend(tx, datasetScopeOf(request), request.params.id),
      );
      await options.nudge();
      return delivery;
    },
  );
}

/** spec 3 §7 integrations/svix/dashboard-access and the embedded delivery's endpoints */
export async function webHooksRoutes(app: FastifyInstance, options: Options) {
  portalAndEndpointListRoutes(app, options);
  endpointRoutes(app, options);
  secretRoutes(app, options);
  deliveryRoutes(app, options);
}
