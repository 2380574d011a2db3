import type { FastifyInstance } from 'fastify';

/** Every answer names its request id; a signed-in request's log lines name who made it. */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  app.addHook('preHandler', async (request) => {
    if (request.principal) {
      request.log = request.log.child({
        tenantId: request.principal.tenantId,
        datasetId: request.datasetId ?? undefined,
        userId: request.principal.userId ?? undefined,
        accessKeyId: request.principal.accessKeyId ?? undefined,
      });
    }
  });
}
