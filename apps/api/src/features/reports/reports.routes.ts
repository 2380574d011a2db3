import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { agedReceivablesQuery, agedReceivablesSchema } from '@ledgerline/contract';

import { agedReceivables, agedReceivablesCsv } from './reports.service.js';
import { datasetScopeOf } from '../../platform/scope.js';

/** The caller asked for CSV: `format=csv`, or an Accept header naming text/csv before JSON. */
function wantsCsv(request: FastifyRequest, format: 'json' | 'csv' | undefined): boolean {
  if (format) return format === 'csv';
  const accept = request.headers.accept ?? '';
  return /\btext\/csv\b/i.test(accept) && !/\bapplication\/json\b/i.test(accept);
}

/**
 * The aged receivables report (the dashboard's money figures are in features/dashboard).
 * Reads: every role (design §4, a Viewer reads everything in the tenant).
 */
export async function reportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v0/reports/aged-receivables',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['reports'],
        summary: "The company's aged receivables as of a day, per account",
        description:
          'Each account owing (or owed) something on `asOf` in `currency` (the company’s own by default), its ' +
          'invoices and credit notes aged into current (not yet due, or raised that day on the TransactionDate ' +
          'basis), 1–30, 31–60, 61–90 and over 90 days; the buckets add up to `total`, what it owed that day. ' +
          'Only Allocated money made on or before `asOf` (UTC) counts as paid; reserved money never does. ' +
          '`totals` covers every account; `currencies` lists the currencies with debts. Paged (`page`, ' +
          '`itemsPerPage` up to 1000, `sort` one column, `-` descending, default -total). `format=csv` or ' +
          '`Accept: text/csv` answers every account as CSV (AgedReceivables.csv) with a Total line.',
        querystring: agedReceivablesQuery,
        response: { 200: agedReceivablesSchema },
      },
    },
    async (request, reply) => {
      const csv = wantsCsv(request, request.query.format);
      const report = await request.tenantRead((tx) =>
        agedReceivables(tx, datasetScopeOf(request), request.query, csv),
      );
      if (!csv) return report;
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="AgedReceivables-${report.currency}-${report.asOf}.csv"`,
          )
          .header('cache-control', 'no-store')
          // Text, not the JSON schema's shape: Fastify sends a string with its own content type as is.
          .send(agedReceivablesCsv(report) as never)
      );
    },
  );
}
export default reportsRoutes;
