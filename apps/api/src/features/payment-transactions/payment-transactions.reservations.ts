import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type {
  PaymentRequest,
  ReservationActionResult,
  ReservationsPage,
  ReservationsQuery,
} from '@ledgerline/contract';
import type { Database, Executor, Tx } from '../../db/client.js';
import { paymentRequests, paymentTransactions as t } from '../../db/schema-receivables.js';
import type { Jobs } from '../../platform/jobs.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { applyMove } from '../pay/index.js';
import {
  toPaymentTransaction,
  type PaymentTransactionsRepository,
  type Scope,
} from './payment-transactions.repository.js';

export const reservationExpiryQueue = 'payment-transactions.expire-reservations';

/** Who an expiry is done by, in its activity. */
const expiryActor = { name: 'Ledgerline (authorisation expired)' };

/**
 * Issue 19: reservations (Pending payments) — the staff queue ordered by when each lapses, and the
 * job that cancels those past their provider's authorisation window (provider-windows.ts) through
 * the lifecycle: allocations released, the request reopened and payable again, payment.cancelled.
 * The provider is not called: its authorisation has lapsed by then (docs/decisions/113-holds-and-reservations-last-as-long-as-the.md "Holds and
 * reservations last as long as the provider's own windows").
 */
export function createReservations(deps: {
  database: Database;
  repository: PaymentTransactionsRepository;
  log: FastifyBaseLogger;
  jobs?: Jobs;
  requestPayload?: (tx: Tx, scope: Scope, paymentRequestId: string) => Promise<PaymentRequest>;
  /** After the commit of an expiry (the mails: PaymentPendingCancelled). */
  onExpired?: (scope: Scope, paymentTransactionId: string) => Promise<void>;
  /** After a commit that wrote web hook events (the delivery's nudge). */
  afterExpired?: () => Promise<void>;
}) {
  const { database, repository, log } = deps;
  const inScope = (scope: Scope) =>
    and(eq(t.tenantId, scope.tenantId), eq(t.datasetId, scope.datasetId));

  /** One reservation past its window, moved in its company's transaction; false when it moved since. */
  async function expireOne(scope: Scope, id: string, now: Date): Promise<boolean> {
    return database.withTenant(scope.tenantId, async (tx) => {
      const [payment] = await tx
        .select()
        .from(t)
        .where(and(inScope(scope), eq(t.id, id)))
        .for('update');
      if (
        !payment ||
        payment.status !== 'Pending' ||
        !payment.authorisationExpiresOn ||
        payment.authorisationExpiresOn > now
      )
        return false;
      const [request] = payment.paymentRequestId
        ? await tx
            .select()
            .from(paymentRequests)
            .where(
              and(
                eq(paymentRequests.tenantId, scope.tenantId),
                eq(paymentRequests.datasetId, scope.datasetId),
                eq(paymentRequests.id, payment.paymentRequestId),
              ),
            )
            .for('update')
        : [];
      const applied = await applyMove(tx, scope, {
        payment,
        event: 'authorisationExpired',
        request: request ?? null,
        audit: {
          actor: expiryActor,
          errorMessage: `The authorisation expired on ${payment.authorisationExpiresOn.toISOString()}.`,
        },
      });
      await recordWebhookEvent(tx, scope, {
        type: applied.rule.webHook,
        recordType: 'PaymentTransaction',
        recordId: payment.id,
        payload: (await repository.findWithDetails(tx, scope, payment.id))!,
      });
      return true;
    });
  }

  /** Cancels every reservation past its window at `now`; answers how many. */
  async function expire(now: Date = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      // Across companies (as the owner, like the request expiry), then each in its own company.
      const due = (
        (await database.db.execute(sql`
          select tenant_id as "tenantId", dataset_id as "datasetId", id from payment_transactions
          where status = 'Pending' and authorisation_expires_on <= ${now.toISOString()}::timestamptz
          order by authorisation_expires_on, id limit 200`)) as unknown as {
          rows: { tenantId: string; datasetId: number; id: string }[];
        }
      ).rows;
      let moved = 0;
      for (const row of due) {
        const scope = { tenantId: row.tenantId, datasetId: Number(row.datasetId) };
        try {
          if (await expireOne(scope, row.id, now)) {
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
    async list(
      executor: Executor,
      scope: Scope,
      query: ReservationsQuery,
    ): Promise<ReservationsPage> {
      const pending = and(inScope(scope), eq(t.status, 'Pending'));
      const [rows, [total]] = await Promise.all([
        executor
          .select()
          .from(t)
          .where(pending)
          .orderBy(sql`${t.authorisationExpiresOn} asc nulls last`, asc(t.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        executor.select({ n: count() }).from(t).where(pending),
      ]);
      return {
        items: rows.map((row) => ({
          ...toPaymentTransaction(row),
          expiresOn: row.authorisationExpiresOn?.toISOString() ?? null,
        })),
        totalItems: total?.n ?? 0,
      };
    },
  };
}
export type Reservations = ReturnType<typeof createReservations>;
export type { ReservationActionResult };
