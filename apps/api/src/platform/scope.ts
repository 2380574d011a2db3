import { and, eq, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { requirePrincipal } from './context.js';

/**
 * Whose rows a call may read or write. Every company's rows carry the tenant and the company
 * (dataset) they belong to, and every query of them is filtered by both (design §3, style.md §4);
 * rows that belong to the tenant alone (users, access keys, web hook endpoints) by the tenant.
 *
 * This module is the only place that writes those filters: a feature takes the scope of its call
 * from `datasetScopeOf` or `tenantScopeOf` and narrows a table with `inDataset` or `inTenant`.
 * ESLint forbids `eq(table.tenantId, ...)` and `eq(table.datasetId, ...)` anywhere else, because a
 * filter written by hand and forgotten once is one company reading another's rows. Row-level
 * security (app.tenant_id) stands behind it for the tenant, not for the company.
 */

/** The tenant a call works for. */
export interface TenantScope {
  tenantId: string;
}

/** The company a call works in: the caller's tenant and the Dataset-Id it sent. */
export interface DatasetScope extends TenantScope {
  datasetId: number;
}

/** A table whose rows belong to a tenant. */
export interface TenantTable {
  tenantId: AnyColumn;
}

/** A table whose rows belong to one company of a tenant. */
export interface DatasetTable extends TenantTable {
  datasetId: AnyColumn;
}

/** The tenant of the caller (a route with access 'tenant' or 'dataset'). */
export function tenantScopeOf(request: FastifyRequest): TenantScope {
  return { tenantId: requirePrincipal(request.principal).tenantId };
}

/** The company of the call: the tenant of the caller and the Dataset-Id it sent (design §3). */
export function datasetScopeOf(request: FastifyRequest): DatasetScope {
  const { tenantId } = requirePrincipal(request.principal);
  if (request.datasetId === null) {
    throw new Error(`${request.routeOptions.url ?? request.url} needs config.access 'dataset'.`);
  }
  return { tenantId, datasetId: request.datasetId };
}

/**
 * A scope whose values are a prepared statement's bound parameters (a placeholder or a bound
 * value), for statements parsed once and run for every company.
 */
export interface BoundScope {
  tenantId: string | SQLWrapper;
  datasetId: number | SQLWrapper;
}

/** Rows of the scope's tenant. */
export function inTenant(table: TenantTable, scope: Pick<BoundScope, 'tenantId'>): SQL {
  return eq(table.tenantId, scope.tenantId);
}

/** Rows of the scope's company. */
export function inDataset(table: DatasetTable, scope: BoundScope): SQL {
  return and(eq(table.tenantId, scope.tenantId), eq(table.datasetId, scope.datasetId)) as SQL;
}

/** A join's condition: both rows belong to the same tenant. */
export function sameTenant(a: TenantTable, b: TenantTable): SQL {
  return eq(a.tenantId, b.tenantId);
}

/** A join's condition: both rows belong to the same company. */
export function sameDataset(a: DatasetTable, b: DatasetTable): SQL {
  return and(eq(a.tenantId, b.tenantId), eq(a.datasetId, b.datasetId)) as SQL;
}
