import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invitationAcceptQuery, loginBody } from '@ledgerline/contract';
import { sessionCookieAttributes, sessionCookieName, xsrfCookieName } from '../../platform/auth.js';
import { writeAuditActivity } from '../../platform/audit.js';
import type { Database } from '../../db/client.js';
import type { SessionStore } from '../../platform/sessions.js';
import { problem, sendProblem } from '../../platform/problems.js';
import { accountWaitMessage, type SignInThrottle } from '../../platform/sign-in-throttle.js';
import type { AuthService } from './auth.service.js';
import {
  invitationAcceptPath,
  invitationCookieAttributes,
  invitationCookieName,
  invitationProofTtlHours,
} from './invitation-proof.js';
import type { VerifiedToken } from './token-verifier.js';

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
  /** Where an opened invitation link sends the browser: the site, which starts the sign-in. */
  publicUrl: string;
}

/**
 * The account a verified token is for: its e-mail, else its issuer and subject. Only a token that
 * verifies is charged to an account, so a forged one naming somebody cannot slow them down
 *.
 */
function accountOf(token: VerifiedToken): string {
  return (token.email ?? `${token.issuer}|${token.subject}`).slice(0, 500);
}

function tooManyAttempts(reply: FastifyReply, retryAfterSeconds: number, detail: string) {
  reply.header('retry-after', String(retryAfterSeconds));
  return sendProblem(reply, problem(429, detail));
}

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions) {
  const cookieName = sessionCookieName(options.cookieSecure);
  const cookieBase = sessionCookieAttributes(options.cookieSecure, options.framed ?? false);
  const proofCookie = invitationCookieName(options.cookieSecure);
  const proofAttributes = invitationCookieAttributes(options.cookieSecure, options.framed ?? false);
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
      const token = await options.auth.verify(request.body.accessToken);
      const account = accountOf(token);
      const turn = await throttle.account(account);
      if (!turn.allowed) {
        return tooManyAttempts(
          reply,
          turn.retryAfterSeconds,
          accountWaitMessage(turn.retryAfterSeconds),
        );
      }
      const signedIn = await options.auth
        .signIn(
          token,
          { ip: request.ip, userAgent: request.headers['user-agent'] },
          request.cookies[proofCookie] ?? null,
        )
        .catch(async (error: unknown) => {
          await throttle.failed(account);
          throw error;
        });
      const { user, session, usedInvitation } = signedIn;
      if (usedInvitation) reply.clearCookie(proofCookie, proofAttributes);
      await throttle.succeeded(account);
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
    invitationAcceptPath,
    {
      config: { access: 'none' },
      schema: {
        tags: ['session'],
        summary: 'Open an invitation link (external identity provider)',
        description:
          'Keeps the invitation token in an HttpOnly cookie for POST /login, which binds the invited ' +
          "user to the provider's account at the first sign-in, and sends the browser to the site. " +
          'The token is checked at that sign-in, not here.',
        querystring: invitationAcceptQuery,
      },
    },
    async (request, reply) => {
      reply.setCookie(proofCookie, request.query.token, {
        ...proofAttributes,
        maxAge: invitationProofTtlHours * 3600,
      });
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      return reply.redirect(`${options.publicUrl}/`, 303);
    },
  );

  r.get(
    '/api/v0/logout',
    {
      // spec 1 §7 keeps GET; the XSRF header stops a cross-site link or image from signing a
      // user out.
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
