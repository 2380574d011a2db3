import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { userMeSchema, userSettingSchema } from '@ledgerline/contract';
import { requirePrincipal } from '../../platform/context.js';
import { ForbiddenError } from '../../platform/errors.js';
import type { UsersService } from './users.service.js';

export async function usersRoutes(app: FastifyInstance, options: { users: UsersService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users } = options;

  function signedInUser(principal: ReturnType<typeof requirePrincipal>) {
    if (!principal.userId) throw new ForbiddenError('Only a signed-in user has a profile.');
    return principal.userId;
  }

  r.get(
    '/api/v0/users/me',
    {
      config: { access: 'tenant' },
      schema: {
        tags: ['users'],
        summary: 'The signed-in user with permissions and settings',
        response: { 200: userMeSchema },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request.principal);
      const userId = signedInUser(principal);
      return request.tenantRead((tx) => users.me(tx, principal.tenantId, userId));
    },
  );

  r.put(
    '/api/v0/users/me/settings',
    {
      config: { access: 'tenant', operation: 'UpdateUserSettings' },
      schema: {
        tags: ['users'],
        summary: "Save the signed-in user's display settings",
        body: userSettingSchema,
        response: { 200: userSettingSchema },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request.principal);
      const userId = signedInUser(principal);
      request.auditResource = { type: 'User', id: userId };
      return request.unitOfWork((tx) =>
        users.updateMySettings(tx, principal.tenantId, userId, request.body),
      );
    },
  );
}
