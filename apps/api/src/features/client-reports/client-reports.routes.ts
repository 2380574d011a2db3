import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientReportLimits, clientReportsBody } from '@ledgerline/contract';
import type { Registry } from 'prom-client';
import { createClientReportForwarder, type ForwardOptions } from './client-reports.forward.js';
import { createClientReportMetrics } from './client-reports.metrics.js';

export interface ClientReportsRoutesOptions {
  registry: Registry;
  perMinute: number;
  forward?: ForwardOptions;
}

/**
 * spec 1 §8: the site's error reports and web vitals. No sign-in (an error can
 * come before it), so the intake is bounded: a rate limit per client address, a small body, at most
 * `clientReportLimits.reports` reports a call, enum-only metric labels (a sender cannot grow the
 * label set), and a forwarder that drops rather than queues.
 */
export async function clientReportsRoutes(
  app: FastifyInstance,
  options: ClientReportsRoutesOptions,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const metrics = createClientReportMetrics(options.registry);
  const forwarder = options.forward
    ? createClientReportForwarder(options.forward, metrics, app.log)
    : null;

  r.post(
    '/api/v0/client-reports',
    {
      bodyLimit: clientReportLimits.body,
      config: { access: 'none', rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
      schema: {
        tags: ['info'],
        summary: "The site's uncaught errors and Core Web Vitals (no sign-in; rate-limited)",
        body: clientReportsBody,
        response: { 204: z.null().describe('Accepted') },
      },
    },
    async (request, reply) => {
      const { reports } = request.body;
      logReports(request.log, reports, request.headers['user-agent']);
      metrics.count(reports);
      forwarder?.send(reports, request.headers['user-agent']);
      return reply.status(204).send(null);
    },
  );
}

function logReports(
  log: FastifyBaseLogger,
  reports: z.infer<typeof clientReportsBody>['reports'],
  userAgent: string | undefined,
) {
  const errors = reports.filter((report) => report.type === 'error');
  const vitals = reports.filter((report) => report.type === 'web-vital');
  // Each error its own line, so a log search finds it by message.
  for (const error of errors) log.warn({ clientError: error, userAgent }, 'site error reported');
  if (vitals.length > 0) log.info({ webVitals: vitals }, 'site web vitals reported');
}
