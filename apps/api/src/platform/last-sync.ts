import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/client.js';
import { datasets } from '../db/schema.js';
import { inTenant } from './scope.js';

/**
 * How stale a company's "Last synced" may be before a push writes it again. A connector pushing
 * thousands of records a minute would otherwise update, and lock, the company's row on each one,
 * and every concurrent push of that company would wait for the others to commit.
 */
const refreshAfter = sql`interval '1 minute'`;

/** An ERP connector's write: an access key on a route that takes ERP data (PushErpData). */
function isErpPush(request: FastifyRequest): boolean {
  const required = request.routeOptions.config.permission;
  const list = required === undefined ? [] : Array.isArray(required) ? required : [required];
  return (
    request.principal?.kind === 'accessKey' &&
    request.datasetId !== null &&
    list.includes('PushErpData')
  );
}

/**
 * spec 1 §2.7 "last synced": when an ERP connector last sent data to the company. Written in the
 * push's own transaction, so a push that is refused or rolled back leaves it as it was
 * (docs/decisions/129-last-synced.md "Last synced").
 */
export async function recordErpSync(tx: Tx, request: FastifyRequest): Promise<void> {
  if (!isErpPush(request)) return;
  const tenantId = request.principal!.tenantId;
  await tx
    .update(datasets)
    .set({ lastSync: sql`now()` })
    .where(
      and(
        inTenant(datasets, { tenantId }),
        eq(datasets.id, request.datasetId!),
        or(isNull(datasets.lastSync), lt(datasets.lastSync, sql`now() - ${refreshAfter}`)),
      ),
    );
}
