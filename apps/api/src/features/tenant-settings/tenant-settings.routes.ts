import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantSettingResponse } from '@ledgerline/contract';
import { NotFoundError } from '../../platform/errors.js';
import { tenantScopeOf } from '../../platform/scope.js';
import { tenantSetting } from './tenant-settings.repository.js';

export async function tenantSettingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v0/tenant-settings/:name',
    {
      config: { access: 'tenant' },
      schema: {
        tags: ['tenant-settings'],
        summary: 'A tenant setting; 404 means false (spec 1 §7)',
        params: z.object({ name: z.string().min(1).max(100) }),
        response: { 200: tenantSettingResponse },
      },
    },
    async (request) => {
      const row = await request.tenantRead((tx) =>
        tenantSetting(tx, tenantScopeOf(request), request.params.name),
      );
      if (!row) throw new NotFoundError(`The tenant setting ${request.params.name} is not set.`);
      return {
        name: row.name,
        value: row.value === 'true' ? ('true' as const) : ('false' as const),
      };
    },
  );
}
