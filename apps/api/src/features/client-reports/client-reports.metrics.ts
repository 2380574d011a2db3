import { Counter, Histogram, type Registry } from 'prom-client';
import type { ClientReport } from '@ledgerline/contract';

/** The reports in /metrics. Every label comes from an enum of the contract. */
export function createClientReportMetrics(registry: Registry) {
  const errors = new Counter({
    name: 'client_errors_total',
    help: 'Uncaught errors the site reported, by how they were caught (error, unhandledrejection, react).',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const vitals = new Counter({
    name: 'client_web_vitals_total',
    help: 'Core Web Vitals measurements the site reported, by metric and rating.',
    labelNames: ['name', 'rating'] as const,
    registers: [registry],
  });
  const timings = new Histogram({
    name: 'client_web_vitals_seconds',
    help: 'LCP, INP, FCP and TTFB the site measured, in seconds.',
    labelNames: ['name'] as const,
    buckets: [0.1, 0.2, 0.5, 0.8, 1, 1.8, 2.5, 3, 4, 6, 10],
    registers: [registry],
  });
  const layoutShift = new Histogram({
    name: 'client_cumulative_layout_shift',
    help: 'CLS scores the site measured.',
    buckets: [0.01, 0.05, 0.1, 0.15, 0.25, 0.5, 1],
    registers: [registry],
  });
  const forwardDropped = new Counter({
    name: 'client_reports_forward_dropped_total',
    help: 'Report batches not forwarded to the collector, by reason (busy, failed).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });

  return {
    count(reports: readonly ClientReport[]) {
      for (const report of reports) {
        if (report.type === 'error') {
          errors.inc({ source: report.source });
          continue;
        }
        vitals.inc({ name: report.name, rating: report.rating });
        if (report.name === 'CLS') layoutShift.observe(report.value);
        else timings.observe({ name: report.name }, report.value / 1000);
      }
    },
    dropped(reason: 'busy' | 'failed') {
      forwardDropped.inc({ reason });
    },
  };
}
export type ClientReportMetrics = ReturnType<typeof createClientReportMetrics>;
