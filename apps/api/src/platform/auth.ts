import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import { rolePermissions, type Role } from '@ledgerline/contract';
import type { Database } from '../db/client.js';
import { accessKeys, datasets } from '../db/schema.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from './errors.js';
import { sha256, safeEqual } from './crypto.js';
import type { Principal, RouteAccess } from './context.js';
import type { SessionStore } from './sessions.js';

export const xsrfCookieName = 'XSRF-TOKEN';
export const xsrfHeaderName = 'x-xsrf-token';

export function sessionCookieName(secure: boolean): string {
  // The __Host- prefix pins the cookie to this host and path / over TLS (design §6).
  return secure ? '__Host-ledgerline_session' : 'ledgerline_session';
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Machine clients (ERP connectors) act with the Standard role's permissions: they read and write
 * receivables data but cannot manage users, companies, keys or providers (docs/decisions.md).
 */
const accessKeyRole: Role = 'Standard';

async function principalFromAccessKey(database: Database, token: string): Promise<Principal> {
  const [key] = await database.db
    .select()
    .from(accessKeys)
    .where(and(eq(accessKeys.hash, sha256(token)), isNull(accessKeys.deletedAt)));
  if (!key || (key.validUntil && key.validUntil.getTime() <= Date.now())) {
    throw new UnauthorizedError('The access key is not valid or has expired.');
  }
  return {
    kind: 'accessKey',
    tenantId: key.tenantId,
    userId: null,
    accessKeyId: key.id,
    name: key.name,
    role: accessKeyRole,
    permissions: rolePermissions[accessKeyRole],
    keyDatasetId: key.datasetId,
    session: null,
  };
}

function routeAccess(request: FastifyRequest): RouteAccess {
  return request.routeOptions.config.access ?? 'tenant';
}

const datasetIdPattern = /^[1-9]\d{0,8}$/;

export interface AuthOptions {
  database: Database;
  sessions: SessionStore;
  cookieSecure: boolean;
}

/**
 * cookie or key → principal → XSRF → dataset → permission (docs/architecture.md). Runs before
 * validation so an anonymous caller learns nothing about a route's payload.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const { database, sessions } = options;
  const cookieName = sessionCookieName(options.cookieSecure);

  app.decorateRequest('principal', null);
  app.decorateRequest('datasetId', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.url || !request.routeOptions.url.startsWith('/api/v0')) return;
    const access = routeAccess(request);
    if (access === 'none') return;

    const authorization = request.headers.authorization;
    if (authorization?.startsWith('Bearer ')) {
      request.principal = await principalFromAccessKey(database, authorization.slice(7).trim());
    } else {
      const cookie = request.cookies[cookieName];
      const session = cookie ? await sessions.resolve(cookie) : null;
      if (!session || session.user.disabledAt) {
        if (cookie) reply.clearCookie(cookieName, { path: '/' });
        throw new UnauthorizedError(
          cookie ? 'Your session has expired. Please sign in again.' : 'Sign-in is required.',
        );
      }
      if (unsafeMethods.has(request.method)) {
        const header = request.headers[xsrfHeaderName];
        if (typeof header !== 'string' || !safeEqual(header, session.xsrfToken)) {
          throw new ForbiddenError('The XSRF token is missing or does not match.', 'xsrf');
        }
      }
      const role = session.user.role as Role;
      request.principal = {
        kind: 'user',
        tenantId: session.tenantId,
        userId: session.userId,
        accessKeyId: null,
        name: session.user.displayName,
        role,
        permissions: rolePermissions[role] ?? [],
        keyDatasetId: null,
        session: { idHash: session.idHash, xsrfToken: session.xsrfToken },
      };
    }

    if (access === 'dataset') {
      request.datasetId = await resolveDataset(database, request, request.principal);
    }

    const required = request.routeOptions.config.permission;
    if (required !== undefined) {
      const list = typeof required === 'string' ? [required] : required;
      const missing = list.filter((p) => !request.principal!.permissions.includes(p));
      if (missing.length > 0) {
        throw new ForbiddenError(`This needs the ${missing.join(', ')} permission.`);
      }
    }
  });
}

/** design §3: 400 when Dataset-Id is missing or malformed; 404 for another tenant's or no dataset. */
export async function resolveDataset(
  database: Database,
  request: FastifyRequest,
  principal: Principal,
): Promise<number> {
  const header = request.headers['dataset-id'];
  const raw = typeof header === 'string' ? header.trim() : undefined;
  if (raw === undefined || raw === '') {
    throw new ValidationError({ 'Dataset-Id': ['The Dataset-Id header is required.'] });
  }
  if (!datasetIdPattern.test(raw)) {
    throw new ValidationError({
      'Dataset-Id': [`'${raw.slice(0, 20)}' is not a valid company id.`],
    });
  }
  const datasetId = Number(raw);
  const notFound = new NotFoundError(`Company ${datasetId} was not found.`);
  if (principal.keyDatasetId !== null && principal.keyDatasetId !== datasetId) throw notFound;
  const found = await database.withTenant(principal.tenantId, (tx) =>
    tx
      .select({ id: datasets.id })
      .from(datasets)
      .where(and(eq(datasets.tenantId, principal.tenantId), eq(datasets.id, datasetId))),
  );
  if (found.length === 0) throw notFound;
  return datasetId;
}
