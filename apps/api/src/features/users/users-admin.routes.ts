import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createUserBody,
  pageQuerySchema,
  parsePageQuery,
  updateUserBody,
  userQuery,
  userRoleQuery,
  userSchema,
  uuidParam,
} from '@ledgerline/contract';
import { requirePrincipal } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import type { SessionStore } from '../../platform/sessions.js';
import type { UsersAdminService } from './users-admin.service.js';
import type { Invitations } from './users-invitations.js';

export interface UsersAdminRoutesOptions {
  users: UsersAdminService;
  invitations: Invitations;
  sessions: SessionStore;
}

/** spec 1 §2.6, §7: the users page's calls; all need ConfigureSystemSettings. */
export async function usersAdminRoutes(app: FastifyInstance, options: UsersAdminRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users, invitations, sessions } = options;
  const tags = ['users'];
  const permission = 'ConfigureSystemSettings' as const;
  const actorOf = (request: { principal: Parameters<typeof requirePrincipal>[0] }) => {
    const { tenantId, userId } = requirePrincipal(request.principal);
    return { tenantId, userId };
  };

  r.get(
    '/api/v0/users/all',
    {
      config: { access: 'tenant', permission },
      schema: {
        tags,
        summary: "The tenant's users; `search` finds words in their names and e-mail addresses",
        querystring: z.object({ search: pageQuerySchema.shape.search }),
        response: { 200: z.object({ items: z.array(userSchema) }) },
      },
    },
    async (request) => {
      // The users grid's search box, read by the one compileSearch.
      const { search } = parsePageQuery(userQuery, { search: request.query.search });
      return {
        items: await request.tenantRead((tx) => users.all(tx, actorOf(request).tenantId, search)),
      };
    },
  );

  r.get(
    '/api/v0/users/:id',
    {
      config: { access: 'tenant', permission },
      schema: { tags, summary: 'One user', params: uuidParam, response: { 200: userSchema } },
    },
    async (request) =>
      request.tenantRead((tx) => users.get(tx, actorOf(request).tenantId, request.params.id)),
  );

  r.post(
    '/api/v0/users',
    {
      config: { access: 'tenant', permission, operation: 'CreateUser' },
      schema: {
        tags,
        summary: 'Invite a user: creates them and e-mails a set-password link',
        body: createUserBody,
        response: { 201: userSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const user = await request.unitOfWork(async (tx) => {
        const created = await users.create(tx, actor, request.body);
        request.auditResource = { type: 'User', id: created.id };
        return created;
      }, 201);
      await invitations.send({
        tenantId: actor.tenantId,
        userId: user.id,
        redirectUri: request.body.redirectUri ?? null,
      });
      return reply.status(201).send(user);
    },
  );

  r.put(
    '/api/v0/users/:id',
    {
      config: { access: 'tenant', permission, operation: 'UpdateUser' },
      schema: {
        tags,
        summary: "Change a user's name: body { id, displayName } (or name)",
        params: uuidParam,
        body: updateUserBody,
        response: { 200: userSchema },
      },
    },
    async (request) => {
      if (request.body.id !== request.params.id) {
        throw new ValidationError({ id: ['The id in the body must match the address.'] });
      }
      request.auditResource = { type: 'User', id: request.params.id };
      return request.unitOfWork((tx) =>
        users.rename(tx, actorOf(request), request.params.id, request.body.displayName),
      );
    },
  );

  r.put(
    '/api/v0/users/:id/role',
    {
      config: { access: 'tenant', permission, operation: 'ChangeUserRole' },
      schema: {
        tags,
        summary: "Change a user's role",
        params: uuidParam,
        querystring: userRoleQuery,
        response: { 200: userSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'User', id: request.params.id };
      return request.unitOfWork((tx) =>
        users.changeRole(tx, actorOf(request), request.params.id, request.query.role),
      );
    },
  );

  r.delete(
    '/api/v0/users/:id',
    {
      config: { access: 'tenant', permission, operation: 'DeleteUser' },
      schema: { tags, summary: 'Delete a user; their sessions end at once', params: uuidParam },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      request.auditResource = { type: 'User', id: request.params.id };
      await request.unitOfWork((tx) => users.remove(tx, actor, request.params.id), 204);
      await sessions.destroyForUser(actor.tenantId, request.params.id);
      return reply.status(204).send();
    },
  );
}
