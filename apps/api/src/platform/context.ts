import type { FeatureFlagName, Permission, Role } from '@ledgerline/contract';
import type { Tx } from '../db/client.js';

/** How a route is reached (design §3): no sign-in, the tenant, or the tenant plus a company. */
export type RouteAccess = 'none' | 'tenant' | 'dataset';

/** Who is calling: a signed-in user (session cookie) or a machine client (access key). */
export interface Principal {
  kind: 'user' | 'accessKey';
  tenantId: string;
  userId: string | null;
  accessKeyId: string | null;
  /** Display name of the user, or the key's name. */
  name: string;
  role: Role;
  permissions: readonly Permission[];
  /** The company a key is bound to, if any. */
  keyDatasetId: number | null;
  session: { idHash: string; xsrfToken: string } | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    permission?: Permission | readonly Permission[];
    /** The audit operation name of a mutating call, e.g. 'UpdateUserSettings'. */
    operation?: string;
    /** A safe method that still changes something (GET logout): it needs the XSRF header too. */
    xsrf?: 'required';
    /**
     * The feature flag the route's feature lies behind: while it is off the route answers 404
     * after sign-in and permission (docs/decisions/101-feature-flags-and-tenant-settings-are-checked-by.md "Feature flags and tenant
     * settings are checked by the server").
     */
    featureFlag?: FeatureFlagName;
  }
  interface FastifyRequest {
    principal: Principal | null;
    datasetId: number | null;
    /** Set by handlers so the audit activity names the record it changed. */
    auditResource: { type: string; id: string } | null;
    /** Set by a call that answers 2xx with isError (a declined capture): its activity failed. */
    auditError: string | null;
    auditWritten: boolean;
    /**
     * Runs fn in one transaction scoped to the caller's tenant and writes the call's audit
     * activity (with successStatus, default 200) in the same transaction (design §3): all of the
     * request's writes or none.
     */
    unitOfWork<T>(fn: (tx: Tx) => Promise<T>, successStatus?: number): Promise<T>;
    /** A read-only transaction scoped to the caller's tenant. */
    tenantRead<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  }
}

export function requirePrincipal(principal: Principal | null): Principal {
  if (!principal) throw new Error('Route reached without a principal: check its access config.');
  return principal;
}
