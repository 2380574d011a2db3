import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { inArray } from 'drizzle-orm';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  allocatedStatusBody,
  cancelBody,
  captureBody,
  pendingActionResultSchema,
  providerEventSchema,
  refundBody,
  refundResultSchema,
  idempotencyKeyHeaders,
  type RefundResult,
  exportQuerySchema,
  importLimits,
  importMessages,
  importResultSchema,
  countSchema,
  estimatedPageOf,
  failedPaymentTransactionStatuses,
  pageQuerySchema,
  parsePageQuery,
  paymentTransactionQuery,
  paymentTransactionDetailQuery,
  paymentTransactionSchema,
  reservationActionBody,
  reservationActionResultSchema,
  reservationRoutes,
  reservationsPageSchema,
  reservationsQuery,
  uuidParam,
  type AllocatedStatus,
  type ReservationActionBody,
} from '@ledgerline/contract';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { requirePrincipal } from '../../platform/context.js';
import { AppError, NotFoundError } from '../../platform/errors.js';
import type { PaymentTransactionsRepository, Scope } from './payment-transactions.repository.js';
import type { ExportSelection } from './payment-transactions.export.js';
import { spoolExport, type ExportSources } from './payment-transactions.download.js';
import { createDownloadSlots, watchedDownload } from '../../platform/downloads.js';
import { problem, sendProblem } from '../../platform/problems.js';
import { importAllocatedStatuses, planImport, readImportFile } from './payment-transactions.import.js';
import type { PendingPayments } from './payment-transactions.pending.js';
import type { Refunds } from './payment-transactions.refunds.js';
import {
  claimIdempotent,
  completeIdempotent,
  releaseIdempotent,
  sendIdempotent,
  type IdempotentAnswer,
  type IdempotentClaim,
} from '../../platform/idempotency.js';
import type { Tx } from '../../db/client.js';
import type { Reservations } from './payment-transactions.reservations.js';
import { readOneFile } from '../../platform/uploads.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { compilePaymentTransactionFilter } from './payment-transactions.repository.js';

export interface PaymentTransactionsRoutesOptions {
  repository: PaymentTransactionsRepository;
  pending: PendingPayments;
  exports: ExportSources;
  refunds: Refunds;
  /** A transaction of the tenant without the call's audit activity (a refund's reservation). */
  withTenant: <T>(tenantId: string, fn: (tx: Tx) => Promise<T>) => Promise<T>;
  reservations: Reservations;
}

export const tooManyExports = (running: number) =>
  `This organisation is running ${running} exports already; try again when one has finished.`;

function scopeOf(request: FastifyRequest): Scope {
  return { tenantId: requirePrincipal(request.principal).tenantId, datasetId: request.datasetId! };
}

const listDescription =
  '`totalItems` is exact up to 10,000 and the database’s estimate past that; `totalItemsEstimated` says which.';

/** spec 2 §2, §7: payment transactions of the company in the Dataset-Id header. */
export async function paymentTransactionsRoutes(
  app: FastifyInstance,
  options: PaymentTransactionsRoutesOptions,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { repository, pending, exports } = options;
  const exportSlots = createDownloadSlots(exports.limits.perTenant);
  const tags = ['payment-transactions'];
  const page = estimatedPageOf(paymentTransactionSchema);
  // Scoped to this plugin: the import's file upload.
  await app.register(multipart, {
    limits: { fileSize: importLimits.maxBytes, files: 1, fields: 5, parts: 6 },
  });

  r.get(
    '/api/v0/payment-transactions',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'Payment transactions, paged (default sort: -statusDateTime; expand: paymentrequest)',
        description: listDescription,
        querystring: pageQuerySchema,
        response: { 200: page },
      },
    },
    async (request) => {
      const query = parsePageQuery(paymentTransactionQuery, request.query);
      return request.tenantRead((tx) => repository.page(tx, scopeOf(request), query));
    },
  );

  r.get(
    '/api/v0/payment-transactions/status/all-failures',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'Failed, not authorised and rejected payment transactions, paged (the dashboard’s rejected payments)',
        description: listDescription,
        querystring: pageQuerySchema,
        response: { 200: page },
      },
    },
    async (request) => {
      const query = parsePageQuery(paymentTransactionQuery, request.query);
      const failed = inArray(paymentTransactions.status, [...failedPaymentTransactionStatuses]);
      return request.tenantRead((tx) =>
        repository.page(tx, scopeOf(request), query, { name: 'failed', where: failed }),
      );
    },
  );

  r.get(
    '/api/v0/payment-transactions/count',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'How many payment transactions match the filter',
        description:
          'Exact up to 10,000; past that the database’s estimate, with `estimated: true`.',
        querystring: pageQuerySchema.pick({ filter: true }),
        response: { 200: countSchema },
      },
    },
    async (request) => {
      const { filters } = parsePageQuery(paymentTransactionQuery, { filter: request.query.filter });
      return request.tenantRead((tx) => repository.count(tx, scopeOf(request), { filters }));
    },
  );

  r.get(
    '/api/v0/payment-transactions/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'One payment transaction with its account, payment request, allocations, late-payment fee lines and payment provider',
        params: uuidParam,
        querystring: paymentTransactionDetailQuery,
        response: { 200: paymentTransactionSchema },
      },
    },
    async (request) => {
      const found = await request.tenantRead((tx) =>
        repository.findWithDetails(tx, scopeOf(request), request.params.id, request.query),
      );
      if (!found) throw new NotFoundError('The payment transaction was not found.');
      return found;
    },
  );

  r.patch(
    '/api/v0/payment-transactions/:id/allocated-status',
    {
      config: {
        access: 'dataset',
        permission: 'ChangeAllocatedStatus',
        operation: 'ChangeAllocatedStatus',
      },
      schema: {
        tags,
        summary: 'Change the allocated status of a payment transaction',
        params: uuidParam,
        body: allocatedStatusBody,
        response: { 200: paymentTransactionSchema },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      request.auditResource = { type: 'PaymentTransaction', id: request.params.id };
      return request.unitOfWork(async (tx) => {
        const { id } = request.params;
        const { status } = request.body;
        const previous = await repository.setAllocatedStatus(tx, scope, id, status);
        if (previous === null) throw new NotFoundError('The payment transaction was not found.');
        if (previous !== status) {
          await recordWebhookEvent(tx, scope, {
            type: 'payment.allocated-status-changed',
            recordType: 'PaymentTransaction',
            recordId: id,
            payload: { id, allocatedStatus: status, previousAllocatedStatus: previous as AllocatedStatus },
          });
        }
        return (await repository.find(tx, scope, id))!;
      });
    },
  );

  r.get(
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
      const scope = scopeOf(request);
      const query = request.query;
      // The table's filters and its search box, as the list reads them (issue 22 item 6).
      const { filters, search } = parsePageQuery(paymentTransactionQuery, {
        filter: query.filter,
        search: query.search,
      });
      const selection: ExportSelection = {
        exportType: query.exportType,
        from: query.fromDate ? new Date(query.fromDate) : undefined,
        until: query.toDate ? new Date(Date.parse(query.toDate) + 86_400_000) : undefined,
        paymentProviderId: query.paymentProviderId,
        excludeAllocatedStatus: query.excludeAllocatedStatus,
        filter: compilePaymentTransactionFilter(filters, search),
      };
      // issue 20 item 5: a bounded number at once per tenant, made whole before it is sent, and
      // sent under a deadline and a minimum pace (docs/decisions/097-exports-never-wait-on-the-client.md "Exports never wait on the client").
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
        spooled = await spoolExport(exports, (fn) => request.tenantRead(fn), scope, selection, deadlineAt);
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

  r.post(
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
      const scope = scopeOf(request);
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

  for (const action of ['capture', 'cancel'] as const) {
    const capture = action === 'capture';
    r.post(
      `/api/v0/payment-transactions/:id/pending/${action}`,
      {
        config: {
          access: 'dataset',
          permission: capture ? 'CapturePendingPayment' : 'CancelPendingPayment',
          operation: capture ? 'CapturePendingPayment' : 'CancelPendingPayment',
        },
        schema: {
          tags,
          summary: capture
            ? 'Capture all or part of a pending payment through its provider'
            : 'Cancel a pending payment through its provider',
          description:
            'A provider that refuses answers 200 with `isError` and its `errorMessage`; the exchange is kept as a provider event.',
          params: uuidParam,
          body: capture ? captureBody : cancelBody,
          response: { 200: pendingActionResultSchema },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        request.auditResource = { type: 'PaymentTransaction', id: request.params.id };
        const body = request.body as { amountToCapture?: number; note: string | null };
        return pending.run(
          (fn) => request.tenantRead(fn),
          // A provider's refusal answers 200 with isError: the activity records it as failed.
          (fn) =>
            request.unitOfWork(async (tx) => {
              const result = await fn(tx);
              const answer = result as { isError?: boolean; errorMessage?: string | null };
              if (answer.isError)
                request.auditError = answer.errorMessage ?? 'The provider refused.';
              return result;
            }),
          scope,
          { action, id: request.params.id, amount: body.amountToCapture, note: body.note },
        );
      },
    );
  }

  /** Thrown out of a refund's first transaction: the key's stored answer, sent again. */
  class Replay extends Error {
    constructor(readonly answer: IdempotentAnswer<RefundResult>) {
      super('replay');
    }
  }

  r.post(
    '/api/v0/payment-transactions/:id/refund',
    {
      config: { access: 'dataset', permission: 'RefundPayment', operation: 'RefundPayment' },
      schema: {
        tags,
        summary: 'Give all or part of a paid payment back through its provider (issue 19)',
        description:
          'Never more than what is left of the payment (422 naming it). A provider that refuses answers 200 with `isError` ' +
          'and its `errorMessage`, and nothing changes; the exchange is kept as a provider event. A provider Ledgerline ' +
          'cannot refund through is a 409 (`refundNotSupported`). A refund still under way at the provider is answered ' +
          'with status Processing and finished by its notification. Honours `Idempotency-Key`.',
        params: uuidParam,
        headers: idempotencyKeyHeaders,
        body: refundBody,
        response: { 200: refundResultSchema },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      request.auditResource = { type: 'PaymentTransaction', id: request.params.id };
      const held: { claim: IdempotentClaim<RefundResult> } = { claim: { kind: 'none' } };
      try {
        const result = await options.refunds.run(
          (fn) =>
            options.withTenant(scope.tenantId, async (tx) => {
              const claim = await claimIdempotent<RefundResult>(tx, request);
              if (claim.kind === 'replay') throw new Replay(claim.answer);
              held.claim = claim;
              return fn(tx);
            }),
          (fn) =>
            request.unitOfWork(async (tx) => {
              const answer = await fn(tx);
              if (answer.isError) request.auditError = answer.errorMessage ?? 'The provider refused.';
              await completeIdempotent(tx, held.claim, 200, answer);
              return answer;
            }),
          scope,
          { id: request.params.id, amount: request.body.amount, reason: request.body.reason ?? null },
        );
        return sendIdempotent(reply, { status: 200, body: result, replayed: false });
      } catch (error) {
        if (error instanceof Replay) return sendIdempotent(reply, error.answer);
        // Failed after its key was claimed: the key is free for a retry.
        const { claim } = held;
        if (claim.kind === 'claimed')
          await options.withTenant(scope.tenantId, (tx) => releaseIdempotent(tx, claim));
        throw error;
      }
    },
  );

  // Issue 19: the reservations queue (Pending payments, the one lapsing first first) and bulk actions.
  r.get(
    reservationRoutes.list.path,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'Reservations (Pending payments), the one whose authorisation lapses first first',
        querystring: reservationsQuery,
        response: { 200: reservationsPageSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) =>
        options.reservations.list(tx, scopeOf(request), request.query),
      ),
  );

  for (const action of ['capture', 'cancel'] as const) {
    const capture = action === 'capture';
    const route = reservationRoutes[action];
    r.post(
      route.path,
      {
        config: {
          access: 'dataset',
          permission: route.permission,
          operation: capture ? 'CapturePendingPayment' : 'CancelPendingPayment',
        },
        schema: {
          tags,
          summary: capture
            ? 'Capture the whole of several reservations through their providers'
            : 'Cancel several reservations through their providers',
          description:
            'One result per id, in the order sent; each is its own transaction with its own activity. A refusal (the provider’s, not Pending, not found) is `isError` with its `errorMessage`.',
          body: reservationActionBody,
          response: { 200: reservationActionResultSchema },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        const body = request.body as ReservationActionBody & { note: string | null };
        const results = [];
        for (const id of body.ids) {
          request.auditResource = { type: 'PaymentTransaction', id };
          request.auditError = null;
          try {
            const answer = await pending.run(
              (fn) => request.tenantRead(fn),
              (fn) =>
                request.unitOfWork(async (tx) => {
                  const result = await fn(tx);
                  const answer = result as { isError?: boolean; errorMessage?: string | null };
                  if (answer.isError)
                    request.auditError = answer.errorMessage ?? 'The provider refused.';
                  return result;
                }),
              scope,
              { action, id, note: body.note },
            );
            results.push({ id, ...answer });
          } catch (error) {
            const message = error instanceof Error ? error.message : 'The reservation could not be changed.';
            if (!(error instanceof AppError)) request.log.error({ err: error, id }, 'reservation action failed');
            results.push({
              id,
              isError: true,
              errorMessage: error instanceof AppError ? message : 'The reservation could not be changed.',
              paymentTransaction: null,
            });
          }
        }
        // Every item wrote its own activity; none is written for the call as a whole.
        request.auditWritten = true;
        return { results };
      },
    );
  }

  r.get(
    '/api/v0/provider-events/records/:id',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['provider-events'],
        summary: 'What the payment provider said about a payment transaction, oldest first',
        params: uuidParam,
        response: { 200: z.object({ items: z.array(providerEventSchema) }) },
      },
    },
    async (request) => ({
      items: await request.tenantRead((tx) =>
        pending.events(tx, scopeOf(request), request.params.id),
      ),
    }),
  );

  r.get(
    '/api/v0/provider-events/payloads',
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['provider-events'],
        summary: 'The payload of one provider event, as text',
        querystring: z.object({ id: z.uuid() }),
      },
    },
    async (request, reply) => {
      const payload = await request.tenantRead((tx) =>
        pending.payload(tx, scopeOf(request), request.query.id),
      );
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(payload);
    },
  );
}
