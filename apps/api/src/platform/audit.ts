import type { FastifyInstance, FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Executor, Tx } from '../db/client.js';
import { auditActivities } from '../db/schema.js';
import { recordErpSync } from './last-sync.js';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** 'PUT /api/v0/users/me/settings' → 'PutUsersMeSettings' when a route names no operation. */
function defaultOperation(request: FastifyRequest): string {
  const path = (request.routeOptions.url ?? '').replace('/api/v0/', '');
  const words = [request.method.toLowerCase(), ...path.split(/[/\-{}:]+/)].filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

export async function writeAuditActivity(
  executor: Executor,
  request: FastifyRequest,
  status: number,
  tenantId: string,
  actor?: { userId: string; name: string },
): Promise<void> {
  const principal = actor ? { ...actor, accessKeyId: null } : request.principal;
  await executor.insert(auditActivities).values({
    tenantId,
    id: uuidv7(),
    datasetId: request.datasetId,
    operation: request.routeOptions.config.operation ?? defaultOperation(request),
    resourceType: request.auditResource?.type ?? null,
    resourceId: request.auditResource?.id ?? null,
    userId: principal?.userId ?? null,
    userName: principal?.name ?? null,
    accessKeyId: principal?.accessKeyId ?? null,
    status,
    errorMessage: request.auditError,
    ipAddress: request.ip,
    requestId: String(request.id),
  });
}

/**
 * Every mutating call writes one audit activity (design §3). A successful unit of work writes it
 * inside its own transaction; a call that failed (and rolled back) gets its activity afterwards.
 */
export function registerAudit(app: FastifyInstance, database: Database): void {
  app.decorateRequest('auditResource', null);
  app.decorateRequest('auditError', null);
  app.decorateRequest('auditWritten', false);

  app.decorateRequest('unitOfWork', function <
    T,
  >(this: FastifyRequest, fn: (tx: Tx) => Promise<T>, successStatus = 200) {
    const principal = this.principal;
    if (!principal) throw new Error('unitOfWork needs a signed-in caller.');
    return database.withTenant(principal.tenantId, async (tx) => {
      const result = await fn(tx);
      await recordErpSync(tx, this);
      await writeAuditActivity(tx, this, successStatus, principal.tenantId);
      this.auditWritten = true;
      return result;
    });
  });

  app.decorateRequest('tenantRead', function <T>(this: FastifyRequest, fn: (tx: Tx) => Promise<T>) {
    const principal = this.principal;
    if (!principal) throw new Error('tenantRead needs a signed-in caller.');
    return database.readAsTenant(principal.tenantId, fn);
  });

  // onSend, not onResponse: the caller gets its answer only once the activity is stored.
  // A callback hook: a read (most calls) passes straight through without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const mutating = unsafeMethods.has(request.method) || request.routeOptions.config.operation;
    if (request.auditWritten || !request.principal || !mutating) return done(null, payload);
    database
      .withTenant(request.principal.tenantId, (tx) =>
        writeAuditActivity(tx, request, reply.statusCode, request.principal!.tenantId),
      )
      .then(
        () => {
          request.auditWritten = true;
        },
        (error: unknown) => {
          request.log.error({ err: error }, 'could not write the audit activity of a failed call');
        },
      )
      .finally(() => done(null, payload));
  });
}
