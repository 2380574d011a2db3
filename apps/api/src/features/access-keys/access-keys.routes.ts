import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessKeyBody,
  accessKeyCountResponse,
  accessKeyMaximumResponse,
  accessKeyQuery,
  accessKeySchema,
  createdAccessKeySchema,
  pageQuerySchema,
  parsePageQuery,
  subscriptionKeyCreateQuery,
  uuidParam,
  type Permission,
} from '@ledgerline/contract';
import { requirePrincipal } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import type { KeyKind } from './access-keys.repository.js';
import type { AccessKeysService } from './access-keys.service.js';

interface KeyResource {
  kind: KeyKind;
  path: string;
  tag: string;
  permission: Permission;
  noun: string;
}

const resources: KeyResource[] = [
  {
    kind: 'access',
    path: '/api/v0/access-keys',
    tag: 'access-keys',
    permission: 'ManageAccessKeys',
    noun: 'AccessKey',
  },
  {
    kind: 'subscription',
    path: '/api/v0/subscription-keys',
    tag: 'subscription-keys',
    permission: 'ManageSubscriptionKeys',
    noun: 'SubscriptionKey',
  },
];

/** spec 1 §2.8, §7: access keys and the older subscription keys, the same calls for both. */
export async function accessKeysRoutes(app: FastifyInstance, options: { keys: AccessKeysService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { keys } = options;

  for (const { kind, path, tag, permission, noun } of resources) {
    const read = { access: 'tenant' as const, permission };
    const scopeOf = (request: { principal: Parameters<typeof requirePrincipal>[0] }) => {
      const { tenantId, userId } = requirePrincipal(request.principal);
      return { tenantId, userId };
    };

    r.get(
      path,
      {
        config: read,
        schema: {
          tags: [tag],
          summary: `List the tenant's ${tag}; \`search\` finds words in their names and prefixes`,
          querystring: z.object({ search: pageQuerySchema.shape.search }),
          response: { 200: z.object({ items: z.array(accessKeySchema) }) },
        },
      },
      async (request) => {
        // The keys grid's search box, read by the one compileSearch.
        const { search } = parsePageQuery(accessKeyQuery, { search: request.query.search });
        return {
          items: await request.tenantRead((tx) => keys.list(tx, scopeOf(request), kind, search)),
        };
      },
    );

    r.get(
      `${path}/maximum`,
      {
        config: read,
        schema: {
          tags: [tag],
          summary: 'How many keys the tenant may have',
          response: { 200: accessKeyMaximumResponse },
        },
      },
      async () => ({
        maximumKeyCount: keys.maximum(),
      }),
    );

    r.get(
      `${path}/count`,
      {
        config: read,
        schema: {
          tags: [tag],
          summary: 'How many keys the tenant has',
          response: { 200: accessKeyCountResponse },
        },
      },
      async (request) => ({
        count: await request.tenantRead((tx) => keys.count(tx, scopeOf(request), kind)),
      }),
    );

    r.get(
      `${path}/:id`,
      {
        config: read,
        schema: {
          tags: [tag],
          summary: 'One key (never its value)',
          params: uuidParam,
          response: { 200: accessKeySchema },
        },
      },
      async (request) =>
        request.tenantRead((tx) => keys.get(tx, scopeOf(request), kind, request.params.id)),
    );

    r.post(
      path,
      {
        config: { access: 'tenant', permission, operation: `Create${noun}` },
        schema: {
          tags: [tag],
          summary: 'Create a key; the answer holds the full key, shown this once',
          querystring: kind === 'subscription' ? subscriptionKeyCreateQuery : z.object({}),
          body: accessKeyBody,
          response: { 201: createdAccessKeySchema },
        },
      },
      async (request, reply) => {
        const query = request.query as { noDataset?: boolean };
        let datasetId: number | null = null;
        if (kind === 'subscription' && query.noDataset === false) {
          // A company-bound key: the company comes from the Dataset-Id header, checked like any other.
          const header = request.headers['dataset-id'];
          if (typeof header !== 'string' || !/^[1-9]\d{0,8}$/.test(header)) {
            throw new ValidationError({ 'Dataset-Id': ['The Dataset-Id header is required.'] });
          }
          datasetId = Number(header);
        }
        const created = await request.unitOfWork(async (tx) => {
          const key = await keys.create(tx, scopeOf(request), kind, { ...request.body, datasetId });
          request.auditResource = { type: noun, id: key.id };
          return key;
        }, 201);
        return reply.status(201).send(created);
      },
    );

    r.put(
      `${path}/:id`,
      {
        config: { access: 'tenant', permission, operation: `Update${noun}` },
        schema: {
          tags: [tag],
          summary: 'Rename a key or change its expiry',
          params: uuidParam,
          body: accessKeyBody,
          response: { 200: accessKeySchema },
        },
      },
      async (request) => {
        request.auditResource = { type: noun, id: request.params.id };
        return request.unitOfWork((tx) =>
          keys.update(tx, scopeOf(request), kind, request.params.id, request.body),
        );
      },
    );

    r.delete(
      `${path}/:id`,
      {
        config: { access: 'tenant', permission, operation: `Delete${noun}` },
        schema: {
          tags: [tag],
          summary: 'Delete a key; it stops working at once',
          params: uuidParam,
        },
      },
      async (request, reply) => {
        request.auditResource = { type: noun, id: request.params.id };
        await request.unitOfWork(
          (tx) => keys.remove(tx, scopeOf(request), kind, request.params.id),
          204,
        );
        return reply.status(204).send();
      },
    );
  }
}
