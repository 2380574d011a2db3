import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createServer, type Server } from 'node:http';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from './crypto.js';
import { problem, sendProblem } from './problems.js';

export interface MetricsOptions {
  /** METRICS_TOKEN: a scraper sends `Authorization: Bearer <token>`. */
  token?: string;
  /** METRICS_PORT and METRICS_HOST: /metrics has its own listener and is not on the API's port. */
  listener?: { host: string; port: number };
}

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const localOnlyMessage =
  'Metrics are served to this machine only. Set METRICS_TOKEN or METRICS_PORT to scrape them from elsewhere.';

function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  return timingSafeEqual(Buffer.from(sha256(sent)), Buffer.from(sha256(token)));
}

/**
 * Prometheus metrics (design §1 observability). They show every route's traffic and the process's
 * internals, so /metrics is not public (docs/decisions/103-who-may-scrape-metrics.md "Who may scrape
 * /metrics"): with METRICS_TOKEN a bearer token, with METRICS_PORT a listener of its own (on
 * METRICS_HOST, loopback by default), and with neither only a direct caller on this machine: the
 * connecting address is loopback and no proxy forwarded the call (a proxy on the same machine
 * would otherwise make every visitor look local).
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions = {}): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_server_errors_total',
    help: 'Responses with a 5xx status.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL, keeps the label set small.
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (reply.statusCode >= 500) errors.inc({ route });
    done();
  });

  if (options.listener) {
    serveSeparately(app, registry, options.listener, options.token);
    return registry;
  }
  app.get(
    '/metrics',
    { config: { access: 'none' }, schema: { hide: true } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (options.token) {
        if (!bearerMatches(request.headers.authorization, options.token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          return sendProblem(reply, problem(401, 'Authentication not correct.'));
        }
      } else {
        const forwarded = request.headers['x-forwarded-for'] ?? request.headers.forwarded;
        if (forwarded || !loopback.has(request.socket.remoteAddress ?? '')) {
          return sendProblem(reply, problem(403, localOnlyMessage));
        }
      }
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
  return registry;
}

/** /metrics alone on its own address, started and stopped with the app. */
function serveSeparately(
  app: FastifyInstance,
  registry: Registry,
  listener: { host: string; port: number },
  token: string | undefined,
) {
  let server: Server | null = null;
  app.addHook('onReady', async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404).end();
        return;
      }
      if (token && !bearerMatches(request.headers.authorization, token)) {
        response.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"' }).end();
        return;
      }
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics could not be collected');
          response.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(listener.port, listener.host, () => resolve());
    });
    app.log.info({ host: listener.host, port: listener.port }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    const closing = server;
    if (!closing) return;
    // A scraper's keep-alive connection would otherwise hold the close until it times out.
    closing.closeIdleConnections();
    await new Promise<void>((resolve) => {
      closing.close(() => resolve());
      closing.closeAllConnections();
    });
  });
}
