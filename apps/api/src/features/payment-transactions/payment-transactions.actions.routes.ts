import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelBody,
  captureBody,
  idempotencyKeyHeaders,
  pendingActionResultSchema,
  refundBody,
  refundResultSchema,
  reservationActionBody,
  reservationActionResultSchema,
  reservationRoutes,
  reservationsPageSchema,
  reservationsQuery,
  uuidParam,
  type RefundResult,
  type ReservationActionBody,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../platform/errors.js';
import {
  claimIdempotent,
  completeIdempotent,
  releaseIdempotent,
  sendIdempotent,
  type IdempotentAnswer,
  type IdempotentClaim,
} from '../../platform/idempotency.js';
import { datasetScopeOf, type DatasetScope } from '../../platform/scope.js';
import type { PaymentTransactionsRoutesOptions } from './payment-transactions.routes.js';

const tags = ['payment-transactions'];
type Action = 'capture' | 'cancel';

/**
 * The pending action's write transaction: a provider's refusal answers 200 with isError, and the
 * call's activity records it as failed.
 */
function writeRecordingRefusal(request: FastifyRequest) {
  return <T>(fn: (tx: Tx) => Promise<T>) =>
    request.unitOfWork(async (tx) => {
      const result = await fn(tx);
      const answer = result as { isError?: boolean; errorMessage?: string | null };
      if (answer.isError) request.auditError = answer.errorMessage ?? 'The provider refused.';
      return result;
    });
}

/** Capture or cancel one pending payment through its provider (spec 2 §4). */
export function actOnPendingPayment(
  app: FastifyInstance,
  { pending }: PaymentTransactionsRoutesOptions,
  action: Action,
) {
  const capture = action === 'capture';
  app.withTypeProvider<ZodTypeProvider>().post(
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
      const scope = datasetScopeOf(request);
      request.auditResource = { type: 'PaymentTransaction', id: request.params.id };
      const body = request.body as { amountToCapture?: number; note: string | null };
      return pending.run((fn) => request.tenantRead(fn), writeRecordingRefusal(request), scope, {
        action,
        id: request.params.id,
        amount: body.amountToCapture,
        note: body.note,
      });
    },
  );
}

/** Thrown out of a refund's first transaction: the key's stored answer, sent again. */
class Replay extends Error {
  constructor(readonly answer: IdempotentAnswer<RefundResult>) {
    super('replay');
  }
}

/**
 * Runs a refund under the call's Idempotency-Key: the key is claimed in the refund's first
 * transaction and completed with the answer in its second; a replay answers the stored answer.
 */
async function refundOnce(
  request: FastifyRequest,
  options: PaymentTransactionsRoutesOptions,
  scope: DatasetScope,
  input: { id: string; amount: number; reason: string | null },
) {
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
      input,
    );
    return { status: 200, body: result, replayed: false } satisfies IdempotentAnswer<RefundResult>;
  } catch (error) {
    if (error instanceof Replay) return error.answer;
    // Failed after its key was claimed: the key is free for a retry.
    const { claim } = held;
    if (claim.kind === 'claimed')
      await options.withTenant(scope.tenantId, (tx) => releaseIdempotent(tx, claim));
    throw error;
  }
}

/** Give all or part of a paid payment back through its provider. */
export function refundPayment(app: FastifyInstance, options: PaymentTransactionsRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/payment-transactions/:id/refund',
    {
      config: { access: 'dataset', permission: 'RefundPayment', operation: 'RefundPayment' },
      schema: {
        tags,
        summary: 'Give all or part of a paid payment back through its provider',
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
      const scope = datasetScopeOf(request);
      request.auditResource = { type: 'PaymentTransaction', id: request.params.id };
      const answer = await refundOnce(request, options, scope, {
        id: request.params.id,
        amount: request.body.amount,
        reason: request.body.reason ?? null,
      });
      return sendIdempotent(reply, answer);
    },
  );
}

/** The reservations queue (Pending payments), the one lapsing first first. */
export function listReservations(
  app: FastifyInstance,
  { reservations }: PaymentTransactionsRoutesOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
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
      request.tenantRead((tx) => reservations.list(tx, datasetScopeOf(request), request.query)),
  );
}

/** One reservation's capture or cancel in its own transaction, as one result of the bulk call. */
async function actOnReservation(
  request: FastifyRequest,
  { pending }: PaymentTransactionsRoutesOptions,
  scope: DatasetScope,
  input: { action: Action; id: string; note: string | null },
) {
  const { id } = input;
  request.auditResource = { type: 'PaymentTransaction', id };
  request.auditError = null;
  try {
    const answer = await pending.run(
      (fn) => request.tenantRead(fn),
      writeRecordingRefusal(request),
      scope,
      input,
    );
    return { id, ...answer };
  } catch (error) {
    const message =
      error instanceof Error ? error.message : 'The reservation could not be changed.';
    if (!(error instanceof AppError))
      request.log.error({ err: error, id }, 'reservation action failed');
    return {
      id,
      isError: true,
      errorMessage: error instanceof AppError ? message : 'The reservation could not be changed.',
      paymentTransaction: null,
    };
  }
}

/** Capture or cancel the whole of several reservations, one result per id. */
export function actOnReservations(
  app: FastifyInstance,
  options: PaymentTransactionsRoutesOptions,
  action: Action,
) {
  const capture = action === 'capture';
  const route = reservationRoutes[action];
  app.withTypeProvider<ZodTypeProvider>().post(
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
      const scope = datasetScopeOf(request);
      const body = request.body as ReservationActionBody & { note: string | null };
      const results = [];
      for (const id of body.ids)
        results.push(
          await actOnReservation(request, options, scope, { action, id, note: body.note }),
        );
      // Every item wrote its own activity; none is written for the call as a whole.
      request.auditWritten = true;
      return { results };
    },
  );
}
