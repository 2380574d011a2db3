import type { FastifyBaseLogger } from 'fastify';
import type { ClientReport } from '@ledgerline/contract';
import type { ClientReportMetrics } from './client-reports.metrics.js';

export interface ForwardOptions {
  /** CLIENT_REPORTS_FORWARD_URL: the external collector. */
  url: string;
  /** CLIENT_REPORTS_FORWARD_KEY: its instrumentation key (spec 1 §8). */
  key?: string;
  timeoutMs?: number;
  /** Forwards in flight at once; beyond it a batch is dropped, never queued. */
  maxInFlight?: number;
}

/**
 * Sends each accepted batch on to an external collector as
 * `{ receivedAt, userAgent, reports }`, after the site has had its answer. A slow or failing
 * collector costs at most `maxInFlight` open requests: the intake cannot be made to pile up work.
 */
export function createClientReportForwarder(
  options: ForwardOptions,
  metrics: ClientReportMetrics,
  log: FastifyBaseLogger,
) {
  const maxInFlight = options.maxInFlight ?? 4;
  const timeoutMs = options.timeoutMs ?? 5000;
  let inFlight = 0;

  async function post(reports: readonly ClientReport[], userAgent: string | undefined) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    const response = await fetch(options.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        receivedAt: new Date().toISOString(),
        userAgent: userAgent ?? null,
        reports,
      }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`The collector answered ${response.status}.`);
  }

  return {
    send(reports: readonly ClientReport[], userAgent: string | undefined) {
      if (inFlight >= maxInFlight) {
        metrics.dropped('busy');
        return;
      }
      inFlight++;
      post(reports, userAgent)
        .catch((error: unknown) => {
          metrics.dropped('failed');
          log.warn({ err: error }, 'client reports could not be forwarded to the collector');
        })
        .finally(() => {
          inFlight--;
        });
    },
  };
}
