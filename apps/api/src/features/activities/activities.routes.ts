import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditActivityQuery,
  auditActivitySchema,
  auditLogsPageSchema,
  cursorQuerySchema,
  parseCursorQuery,
  resourceActivitiesMax,
} from '@ledgerline/contract';
import type { Database } from '../../db/client.js';
import { resolveDataset } from '../../platform/auth.js';
import { requirePrincipal } from '../../platform/context.js';
import { ForbiddenError } from '../../platform/errors.js';
import type { ActivitiesRepository } from './activities.repository.js';

export async function activitiesRoutes(
  app: FastifyInstance,
  options: { repository: ActivitiesRepository; database: Database },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { repository, database } = options;

  r.get(
    '/api/v0/audit-logs',
    {
      config: { access: 'tenant', permission: 'ViewAuditLogs' },
      schema: {
        tags: ['audit-logs'],
        summary:
          "Activities, newest first, cursor paged; the first page (no cursor) also gives their count. With a Dataset-Id header: that company's; without: the tenant's own (users, keys, companies, sign-ins), 403 for a company-bound key.",
        querystring: cursorQuerySchema,
        response: { 200: auditLogsPageSchema },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request.principal);
      const query = parseCursorQuery(auditActivityQuery, request.query);
      const header = request.headers['dataset-id'];
      const datasetId =
        header === undefined ? null : await resolveDataset(database, request, principal);
      // A key bound to a company never reads the tenant's own log (sign-ins, users, keys).
      if (datasetId === null && principal.keyDatasetId !== null) {
        const company = principal.keyDatasetId;
        throw new ForbiddenError(
          `This access key is bound to company ${company}: it reads that company’s activities only (send Dataset-Id: ${company}).`,
        );
      }
      return request.tenantRead((tx) => repository.page(tx, principal.tenantId, datasetId, query));
    },
  );

  r.get(
    '/api/v0/audit-logs/resources/:id',
    {
      config: { access: 'tenant', permission: 'ViewAuditLogs' },
      schema: {
        tags: ['audit-logs'],
        summary: "The latest activities of one record (a company-bound key: its company's only)",
        params: z.object({ id: z.string().min(1).max(100) }),
        querystring: z.object({
          itemsPerPage: z.coerce
            .number()
            .int()
            .min(1)
            .max(resourceActivitiesMax)
            .default(resourceActivitiesMax),
        }),
        response: { 200: z.object({ items: z.array(auditActivitySchema) }) },
      },
    },
    async (request) => {
      const { tenantId, keyDatasetId } = requirePrincipal(request.principal);
      // A company-bound key sees its company's activities of the record, nothing else.
      const items = await request.tenantRead((tx) =>
        repository.forResource(
          tx,
          tenantId,
          request.params.id,
          request.query.itemsPerPage,
          keyDatasetId,
        ),
      );
      return { items };
    },
  );
}
