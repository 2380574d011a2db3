import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers on every answer, pages of the embedded identity provider included (set
 * on the raw response, before anything is written). The middleware is built once: @fastify/helmet
 * built it again for every request, parsing the whole Content-Security-Policy each time (3 % of a
 * list call's CPU).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, () => done());
  });
}
