import type { FastifyBaseLogger } from 'fastify';
import type {
  PaymentRequest,
  ReservationActionResult,
  ReservationsQuery,
} from '@ledgerline/contract';
import type { Database, Executor, Tx } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import type { DatasetScope } from '../../platform/scope.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { applyMove } from '../pay/index.js';
import {
  lockPaymentRequest,
  readDueReservations,
  readPaymentRow,
  readReservationsPage,
  type PaymentTransactionsRepository,
} from './payment-transactions.repository.js';

export const reservationExpiryQueue = 'payment-transactions.expire-reservations';

/** Who an expiry is done by, in its activity. */
const expiryActor = { name: 'Ledgerline (authorisation expired)' };

interface ReservationsDeps {
  database: Database;
  repository: PaymentTransactionsRepository;
  log: FastifyBaseLogger;
  jobs?: Jobs;
  requestPayload?: (
    tx: Tx,
    scope: DatasetScope,
    paymentRequestId: string,
  ) => Promise<PaymentRequest>;
  /** After the commit of an expiry (the mails: PaymentPendingCancelled). */
  onExpired?: (scope: DatasetScope, paymentTransactionId: string) => Promise<void>;
  /** After a commit that wrote web hook events (the delivery's nudge). */
  afterExpired?: () => Promise<void>;
}

/** One reservation past its window, moved in its company's transaction; false when it moved since. */
async function expireOne(
  deps: ReservationsDeps,
  scope: DatasetScope,
  id: string,
  now: Date,
): Promise<boolean> {
  return deps.database.withTenant(scope.tenantId, async (tx) => {
    const payment = await readPaymentRow(tx, scope, id, true);
    if (
      !payment ||
      payment.status !== 'Pending' ||
      !payment.authorisationExpiresOn ||
      payment.authorisationExpiresOn > now
    )
      return false;
    const request = payment.paymentRequestId
      ? await lockPaymentRequest(tx, scope, payment.paymentRequestId)
      : null;
    const applied = await applyMove(tx, scope, {
      payment,
      event: 'authorisationExpired',
      request,
      audit: {
        actor: expiryActor,
        errorMessage: `The authorisation expired on ${payment.authorisationExpiresOn.toISOString()}.`,
      },
    });
    await recordWebhookEvent(tx, scope, {
      type: applied.rule.webHook,
      recordType: 'PaymentTransaction',
      recordId: payment.id,
      payload: (await deps.repository.findWithDetails(tx, scope, payment.id))!,
    });
    return true;
  });
}

/** Expires one batch of due reservations, each in its own company; answers how many moved. */
async function expireBatch(
  deps: ReservationsDeps,
  due: { tenantId: string; datasetId: number; id: string }[],
  now: Date,
) {
  const { log } = deps;
  let moved = 0;
  for (const row of due) {
    const scope = { tenantId: row.tenantId, datasetId: Number(row.datasetId) };
    try {
      if (await expireOne(deps, scope, row.id, now)) {
        moved += 1;
        await deps
          .onExpired?.(scope, row.id)
          .catch((error: unknown) =>
            log.error({ err: error, paymentTransactionId: row.id }, 'expiry mail failed'),
          );
      }
    } catch (error) {
      log.error({ err: error, paymentTransactionId: row.id }, 'reservation expiry failed');
    }
  }
  return moved;
}

/**
 * Reservations (Pending payments): the staff queue ordered by when each lapses, and the job that
 * cancels those past their provider's authorisation window (provider-windows.ts) through the
 * lifecycle: allocations released, the request reopened and payable again, payment.cancelled.
 * The provider is not called: its authorisation has lapsed by then
 * (docs/decisions/113-holds-and-reservations-last-as-long-as-the.md "Holds and reservations last
 * as long as the provider's own windows").
 */
export function createReservations(deps: ReservationsDeps) {
  const { database, log } = deps;

  /** Cancels every reservation past its window at `now`; answers how many. */
  async function expire(now: Date = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      // Across companies (as the owner, like the request expiry), then each in its own company.
      const due = await readDueReservations(database.db, now);
      const moved = await expireBatch(deps, due, now);
      total += moved;
      if (moved > 0) await deps.afterExpired?.();
      if (due.length < 200 || moved === 0) break;
    }
    if (total > 0) log.info({ expired: total }, 'reservations expired');
    return total;
  }

  return {
    expire,
    async register() {
      if (!deps.jobs) return;
      await deps.jobs.work(reservationExpiryQueue, async () => {
        await expire();
      });
      await deps.jobs.schedule(reservationExpiryQueue, '*/15 * * * *');
    },

    /** GET payment-transactions/reservations: the Pending payments, the one lapsing first first. */
    list: (executor: Executor, scope: DatasetScope, query: ReservationsQuery) =>
      readReservationsPage(executor, scope, query),
  };
}
export type Reservations = ReturnType<typeof createReservations>;
export type { ReservationActionResult };
