import type { FastifyInstance, FastifyReply } from 'fastify';
import { decodeJwt } from 'jose';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loginBody } from '@ledgerline/contract';
import {
  sessionCookieAttributes,
  sessionCookieName,
  xsrfCookieName,
} from '../../platform/auth.js';
import { writeAuditActivity } from '../../platform/audit.js';
import type { Database } from '../../db/client.js';
import type { SessionStore } from '../../platform/sessions.js';
import { problem, sendProblem } from '../../platform/problems.js';
import { accountWaitMessage, type SignInThrottle } from '../../platform/sign-in-throttle.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  sessions: SessionStore;
  database: Database;
  cookieSecure: boolean;
  /** Parent sites may frame the site (FRAME_ANCESTORS). */
  framed?: boolean;
  sessionHours: number;
  /** Sign-in attempts per address and per account, counted in the database. */
  throttle: SignInThrottle;
}

/**
 * The account a token claims to be for, read without verifying it: the attempt counts for that
 * account whether or not the token turns out to be valid (issue 9, defect 4).
 */
function claimedAccount(accessToken: string): string | null {
  try {
    const claims = decodeJwt(accessToken);
    const named = typeof claims.email === 'string' ? claims.email : claims.sub;
    return named ? named.slice(0, 500) : null;
  } catch {
    return null;
  }
}

function tooManyAttempts(reply: FastifyReply, retryAfterSeconds: number, detail: string) {
  reply.header('retry-after', String(retryAfterSeconds));
  return sendProblem(reply, problem(429, detail));
}

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions) {
  const cookieName = sessionCookieName(options.cookieSecure);
  const cookieBase = sessionCookieAttributes(options.cookieSecure, options.framed ?? false);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/v0/login',
    {
      config: {
        access: 'none',
        operation: 'Login',
      },
      schema: {
        tags: ['session'],
        summary: 'Start a session from an access token of the identity provider',
        body: loginBody,
      },
    },
    async (request, reply) => {
      const { throttle } = options;
      const limit = await throttle.address('api-login', request.ip);
      if (!limit.allowed) {
        const wait = limit.retryAfterSeconds;
        return tooManyAttempts(
          reply,
          wait,
          `Too many sign-in attempts from this address. Try again in ${wait} seconds.`,
        );
      }
      const account = claimedAccount(request.body.accessToken);
      if (account !== null) {
        const turn = await throttle.account(account);
        if (!turn.allowed) {
          return tooManyAttempts(
            reply,
            turn.retryAfterSeconds,
            accountWaitMessage(turn.retryAfterSeconds),
          );
        }
      }
      const signedIn = await options.auth
        .login(request.body.accessToken, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        })
        .catch(async (error: unknown) => {
          if (account !== null) await throttle.failed(account);
          throw error;
        });
      const { user, session } = signedIn;
      if (account !== null) await throttle.succeeded(account);
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
      // spec 1 §7 keeps GET; the XSRF header stops a cross-site link or image from signing a
      // user out (issue 9, defect 7).
      config: { access: 'tenant', operation: 'Logout', xsrf: 'required' },
      schema: { tags: ['session'], summary: 'End the session server-side' },
    },
    async (request, reply) => {
      const session = request.principal?.session;
      if (session) {
        // The activity is written before the session row goes; both are the caller's own.
        await request.unitOfWork(async () => undefined, 204);
        await options.sessions.destroy(session.idHash);
      }
      reply.clearCookie(cookieName, cookieBase);
      reply.clearCookie(xsrfCookieName, cookieBase);
      return reply.status(204).send();
    },
  );
}
