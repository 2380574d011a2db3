import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { featureGateMessages, rolePermissions, type Role } from '@ledgerline/contract';
import type { Database } from '../db/client.js';
import { accessKeys, datasets } from '../db/schema.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from './errors.js';
import { sha256, safeEqual } from './crypto.js';
import type { Principal, RouteAccess } from './context.js';
import { shortLivedCacheOf } from './short-lived-cache.js';
import type { FeatureFlagStore } from './feature-flags.js';
import { datasetInTenant, type SessionStore } from './sessions.js';
import { inTenant } from './scope.js';

export const xsrfCookieName = 'XSRF-TOKEN';
export const xsrfHeaderName = 'x-xsrf-token';

export function sessionCookieName(secure: boolean): string {
  // The __Host- prefix pins the cookie to this host and path / over TLS (design §6).
  return secure ? '__Host-ledgerline_session' : 'ledgerline_session';
}

/**
 * The attributes of the session and XSRF cookies (set and cleared alike: a browser only replaces
 * a cookie of the same prefix requirements and partition). When parent sites may frame Ledgerline
 * (FRAME_ANCESTORS), a cross-site frame keeps only SameSite=None cookies; they are Partitioned
 * (CHIPS), so the framed session belongs to that parent site alone and is no third-party cookie
 * elsewhere (docs/decisions/069-a-framed-site-s-session.md, "A framed site's session").
 */
export function sessionCookieAttributes(secure: boolean, framed: boolean) {
  return framed
    ? { path: '/', secure: true, sameSite: 'none' as const, partitioned: true }
    : { path: '/', secure, sameSite: 'lax' as const };
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Machine clients (ERP connectors) act with the Standard role's permissions: they read and write
 * receivables data but cannot manage users, companies, keys or providers (docs/decisions/003-access-keys-act-as-the-standard-role.md).
 */
const accessKeyRole: Role = 'Standard';

interface KnownAccessKey {
  principal: Principal;
  datasetFound: boolean;
  validUntil: number | null;
}

/**
 * The key by its hash, with whether its tenant has the company asked about, as statements
 * prepared once per connection (parsed and planned once rather than on every call); a key found
 * valid is remembered for a few seconds (platform/short-lived-cache.ts).
 */
function createAccessKeyLookup(database: Database) {
  const byHash = and(eq(accessKeys.hash, sql.placeholder('hash')), isNull(accessKeys.deletedAt));
  const withDataset = database.db
    .select({
      key: accessKeys,
      datasetFound: datasetInTenant(accessKeys.tenantId, sql.placeholder('datasetId')),
    })
    .from(accessKeys)
    .where(byHash)
    .prepare('ledgerline_access_key_and_dataset');
  const withoutDataset = database.db
    .select({ key: accessKeys, datasetFound: sql<null>`null` })
    .from(accessKeys)
    .where(byHash)
    .prepare('ledgerline_access_key');

  const cache = shortLivedCacheOf<KnownAccessKey>(database);

  return async function principalFromAccessKey(
    token: string,
    datasetId: number | null,
  ): Promise<{ principal: Principal; datasetFound: boolean }> {
    const hash = sha256(token);
    const cacheKey = `${hash}:${datasetId ?? ''}`;
    const known = cache.get(cacheKey);
    if (known && (known.validUntil === null || known.validUntil > Date.now())) return known;
    const generation = cache.begin();
    const [row] =
      datasetId === null
        ? await withoutDataset.execute({ hash })
        : await withDataset.execute({ hash, datasetId });
    const key = row?.key;
    if (!key || (key.validUntil && key.validUntil.getTime() <= Date.now())) {
      throw new UnauthorizedError('The access key is not valid or has expired.');
    }
    const found: KnownAccessKey = {
      principal: {
        kind: 'accessKey',
        tenantId: key.tenantId,
        userId: null,
        accessKeyId: key.id,
        name: key.name,
        role: accessKeyRole,
        permissions: rolePermissions[accessKeyRole],
        keyDatasetId: key.datasetId,
        session: null,
      },
      datasetFound: row.datasetFound === true,
      validUntil: key.validUntil?.getTime() ?? null,
    };
    cache.set(cacheKey, found, generation);
    return found;
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
  /** Parent sites may frame the site (FRAME_ANCESTORS): SameSite=None; Partitioned cookies. */
  framed?: boolean;
  /** The feature flags a route's `featureFlag` is checked against. */
  flags: FeatureFlagStore;
}

/**
 * cookie or key → principal → XSRF → dataset → permission (docs/architecture.md). Runs before
 * validation so an anonymous caller learns nothing about a route's payload.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const { database, sessions } = options;
  const cookieName = sessionCookieName(options.cookieSecure);
  const cookieAttributes = sessionCookieAttributes(options.cookieSecure, options.framed ?? false);
  const principalFromAccessKey = createAccessKeyLookup(database);

  app.decorateRequest('principal', null);
  app.decorateRequest('datasetId', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.url || !request.routeOptions.url.startsWith('/api/v0')) return;
    const access = routeAccess(request);
    if (access === 'none') return;

    // Read before the caller is known so the company check travels with the caller's look-up;
    // its 400 still comes after a 401.
    const header = access === 'dataset' ? readDatasetHeader(request) : null;
    const datasetId = typeof header === 'number' ? header : null;
    let datasetFound = false;
    const authorization = request.headers.authorization;
    if (authorization?.startsWith('Bearer ')) {
      const found = await principalFromAccessKey(authorization.slice(7).trim(), datasetId);
      request.principal = found.principal;
      datasetFound = found.datasetFound;
    } else {
      const cookie = request.cookies[cookieName];
      const session = cookie ? await sessions.resolve(cookie, datasetId) : null;
      if (!session || session.user.disabledAt) {
        if (cookie) reply.clearCookie(cookieName, cookieAttributes);
        throw new UnauthorizedError(
          cookie ? 'Your session has expired. Please sign in again.' : 'Sign-in is required.',
        );
      }
      if (unsafeMethods.has(request.method) || request.routeOptions.config.xsrf === 'required') {
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
      datasetFound = session.datasetFound;
    }

    if (header !== null) {
      if (header instanceof ValidationError) throw header;
      if (!datasetFound || !keyMayUse(request.principal, header)) throw datasetNotFound(header);
      request.datasetId = header;
    }

    const required = request.routeOptions.config.permission;
    if (required !== undefined) {
      const list = typeof required === 'string' ? [required] : required;
      const missing = list.filter((p) => !request.principal!.permissions.includes(p));
      if (missing.length > 0) {
        throw new ForbiddenError(`This needs the ${missing.join(', ')} permission.`);
      }
    }

    const flag = request.routeOptions.config.featureFlag;
    if (flag !== undefined && (await options.flags.all())[flag] !== true) {
      throw new NotFoundError(featureGateMessages.featureOff(flag));
    }
  });
}

/** design §3: the company id of the Dataset-Id header, or the 400 problem when missing or malformed. */
function readDatasetHeader(request: FastifyRequest): number | ValidationError {
  const header = request.headers['dataset-id'];
  const raw = typeof header === 'string' ? header.trim() : undefined;
  if (raw === undefined || raw === '') {
    return new ValidationError({ 'Dataset-Id': ['The Dataset-Id header is required.'] });
  }
  if (!datasetIdPattern.test(raw)) {
    return new ValidationError({
      'Dataset-Id': [`'${raw.slice(0, 20)}' is not a valid company id.`],
    });
  }
  return Number(raw);
}

/** A key bound to one company reaches no other (docs/decisions/099-a-company-bound-key-sees-its-company-only.md). */
function keyMayUse(principal: Principal, datasetId: number): boolean {
  return principal.keyDatasetId === null || principal.keyDatasetId === datasetId;
}

/** The same answer for a company that does not exist and for another tenant's (design §3). */
function datasetNotFound(datasetId: number): NotFoundError {
  return new NotFoundError(`Company ${datasetId} was not found.`);
}

/** design §3: 400 when Dataset-Id is missing or malformed; 404 for another tenant's or no dataset. */
export async function resolveDataset(
  database: Database,
  request: FastifyRequest,
  principal: Principal,
): Promise<number> {
  const datasetId = readDatasetHeader(request);
  if (datasetId instanceof ValidationError) throw datasetId;
  if (!keyMayUse(principal, datasetId)) throw datasetNotFound(datasetId);
  const found = await database.readAsTenant(principal.tenantId, (tx) =>
    tx
      .select({ id: datasets.id })
      .from(datasets)
      .where(and(inTenant(datasets, principal), eq(datasets.id, datasetId))),
  );
  if (found.length === 0) throw datasetNotFound(datasetId);
  return datasetId;
}
