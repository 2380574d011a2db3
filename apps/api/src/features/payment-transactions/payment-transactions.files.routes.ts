import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  exportQuerySchema,
  importLimits,
  importMessages,
  importResultSchema,
  parsePageQuery,
  paymentTransactionQuery,
} from '@ledgerline/contract';
import { createDownloadSlots, watchedDownload } from '../../platform/downloads.js';
import { problem, sendProblem } from '../../platform/problems.js';
import { datasetScopeOf } from '../../platform/scope.js';
import { readOneFile } from '../../platform/uploads.js';
import { spoolExport } from './payment-transactions.download.js';
import type { ExportSelection } from './payment-transactions.export.js';
import {
  importAllocatedStatuses,
  planImport,
  readImportFile,
} from './payment-transactions.import.js';
import { compilePaymentTransactionFilter } from './payment-transactions.repository.js';
import type { PaymentTransactionsRoutesOptions } from './payment-transactions.routes.js';

const tags = ['payment-transactions'];
type ExportQuery = z.output<typeof exportQuerySchema>;

export const tooManyExports = (running: number) =>
  `This organisation is running ${running} exports already; try again when one has finished.`;

/** The export dialog's choices, with the table's filters and search box as the list reads them. */
function selectionOf(query: ExportQuery): ExportSelection {
  const { filters, search } = parsePageQuery(paymentTransactionQuery, {
    filter: query.filter,
    search: query.search,
  });
  return {
    exportType: query.exportType,
    from: query.fromDate ? new Date(query.fromDate) : undefined,
    until: query.toDate ? new Date(Date.parse(query.toDate) + 86_400_000) : undefined,
    paymentProviderId: query.paymentProviderId,
    excludeAllocatedStatus: query.excludeAllocatedStatus,
    filter: compilePaymentTransactionFilter(filters, search),
  };
}

/**
 * PaymentTransactions.csv: a bounded number at once per tenant, made whole before it is sent, and
 * sent under a deadline and a minimum pace (docs/decisions/097-exports-never-wait-on-the-client.md
 * "Exports never wait on the client").
 */
export function exportPaymentTransactions(
  app: FastifyInstance,
  { exports }: PaymentTransactionsRoutesOptions,
) {
  const exportSlots = createDownloadSlots(exports.limits.perTenant);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/payment-transactions/export',
    {
      config: { access: 'dataset', permission: 'ExportPaymentTransactions' },
      schema: {
        tags,
        summary: 'PaymentTransactions.csv: payments and their allocations, or allocations only',
        description:
          'Streams CSV (columns in docs/api.md). Dates are UTC; `toDate` includes its whole day; ' +
          '`excludeAllocatedStatus` is a comma list of allocated statuses to leave out; `filter` is the list’s filter and `search` its search box (the dialog\'s "include table filters").',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const scope = datasetScopeOf(request);
      const selection = selectionOf(request.query);
      const release = exportSlots.take(scope.tenantId);
      if (!release) {
        reply.header('retry-after', String(exports.limits.windowSeconds));
        return sendProblem(reply, problem(429, tooManyExports(exportSlots.perTenant)));
      }
      reply.raw.once('close', release);
      reply.raw.once('finish', release);
      const deadlineAt = Date.now() + exports.limits.deadlineSeconds * 1000;
      let spooled;
      try {
        spooled = await spoolExport(
          exports,
          (fn) => request.tenantRead(fn),
          scope,
          selection,
          deadlineAt,
        );
      } catch (error) {
        release();
        throw error;
      }
      const body = watchedDownload(spooled.read(), { ...exports.limits, deadlineAt }, (reason) => {
        request.log.warn({ reason }, 'payment transactions export ended');
        // A reset, not a close: the bytes the client left in the kernel's buffers go at once.
        request.raw.socket?.resetAndDestroy();
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="PaymentTransactions.csv"')
        .header('content-length', String(spooled.bytes))
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}

/** Allocated statuses from a CSV file, all or nothing in one transaction. */
export function importAllocatedStatus(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/payment-transactions/allocated-status/import',
    {
      config: {
        access: 'dataset',
        permission: 'ImportAllocatedStatus',
        operation: 'ImportAllocatedStatus',
      },
      schema: {
        tags,
        summary: 'Set allocated statuses from a CSV file (multipart, field `file`)',
        description:
          'Columns `PaymentTransactionId` (or `Id`) and `AllocatedStatus`, others ignored, so an export can come back ' +
          'edited. At most 50 MB and 200,000 rows; the whole file in one transaction. Answers a result per row.',
        consumes: ['multipart/form-data'],
        response: { 200: importResultSchema },
      },
    },
    async (request, reply) => {
      const scope = datasetScopeOf(request);
      const file = await readOneFile(request, {
        maxBytes: importLimits.maxBytes,
        maxFields: 5,
        messages: {
          required: importMessages.noFile,
          tooLarge: importMessages.tooLarge,
          oneFileAtATime: importMessages.oneFileAtATime,
          malformed: importMessages.malformed,
        },
      });
      // Read and checked before the transaction: the database is held only for the statement.
      const plan = planImport(readImportFile(file.data));
      // A result per row, built by importAllocatedStatuses to the contract's type: JSON.stringify
      // writes 100,000 of them in a quarter of fast-json-stringify's time (docs/decisions/054-allocated-status-changes-are-hot-updates.md).
      reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
      return request.unitOfWork((tx) => importAllocatedStatuses(tx, scope, plan));
    },
  );
}
