import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loginBody } from '@ledgerline/contract';
import { sessionCookieName, xsrfCookieName } from '../../platform/auth.js';
import { writeAuditActivity } from '../../platform/audit.js';
import type { Database } from '../../db/client.js';
import type { SessionStore } from '../../platform/sessions.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  sessions: SessionStore;
  database: Database;
  cookieSecure: boolean;
  sessionHours: number;
  loginRateLimitPerMinute: number;
}

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions) {
  const cookieName = sessionCookieName(options.cookieSecure);
  const cookieBase = { path: '/', secure: options.cookieSecure, sameSite: 'lax' as const };
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/v0/login',
    {
      config: {
        access: 'none',
        operation: 'Login',
        rateLimit: { max: options.loginRateLimitPerMinute, timeWindow: '1 minute' },
      },
      schema: {
        tags: ['session'],
        summary: 'Start a session from an access token of the identity provider',
        body: loginBody,
      },
    },
    async (request, reply) => {
      const { user, session } = await options.auth.login(request.body.accessToken, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      request.auditResource = { type: 'User', id: user.userId };
      await options.database.withTenant(user.tenantId, (tx) =>
        writeAuditActivity(tx, request, 204, user.tenantId, {
          userId: user.userId,
          name: user.displayName,
        }),
      );
      const maxAge = options.sessionHours * 3600;
      reply.setCookie(cookieName, session.id, { ...cookieBase, httpOnly: true, maxAge });
      reply.setCookie(xsrfCookieName, session.xsrfToken, {
        ...cookieBase,
        httpOnly: false,
        maxAge,
      });
      return reply.status(204).send();
    },
  );

  r.get(
    '/api/v0/logout',
    {
      config: { access: 'tenant', operation: 'Logout' },
      schema: { tags: ['session'], summary: 'End the session server-side' },
    },
    async (request, reply) => {
      const session = request.principal?.session;
      if (session) {
        // The activity is written before the session row goes; both are the caller's own.
        await request.unitOfWork(async () => undefined, 204);
        await options.sessions.destroy(session.idHash);
      }
      reply.clearCookie(cookieName, { path: '/' });
      reply.clearCookie(xsrfCookieName, { path: '/' });
      return reply.status(204).send();
    },
  );
}
