import Big from 'big.js';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import { payQuotes, providerNotifications } from '../../db/schema-pay.js';
import {
  paymentAllocations,
  paymentRequests,
  paymentTransactions,
  providerEvents,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import type { ProviderExchange } from '../../providers/adapter.js';
import type { CheckoutPaymentStatus } from '../../providers/checkout.js';
import { recordLatePaymentFees } from '../money-rules/money-rules.service.js';
import type { PaymentStatusChange } from '../notifications/notifications.mail.js';
import { allocationsFollowPayment } from '../payment-transactions/allocations-follow.js';
import type { Offered } from './pay-page.js';
import type { PayScope, PaymentRequestRow, PaymentRow } from './pay.repository.js';

/** What a provider (its card form, a status call or a notification) says about a payment. */
export interface PaymentOutcome {
  status: CheckoutPaymentStatus;
  providerReference?: string | null;
  paymentMethodType?: string | null;
  /** For the payer when it failed ('Your card was declined'). */
  errorMessage?: string | null;
  /** Kept as a provider event on the payment. */
  exchange?: ProviderExchange | null;
  /** The stored notification this comes from: marked processed in the same transaction. */
  notificationId?: string;
  /**
   * The provider itself says the payment is being processed (a bank transfer on its way): staff
   * are told once (TenantPaymentProcessing), though the status does not move.
   */
  reportsProcessing?: boolean;
  /** Only a payment of this provider configuration may be moved (a provider's notification). */
  configurationId?: string;
}

/** Who moved it, for the audit activity. */
export interface SettleActor {
  name: string;
  ipAddress?: string | null;
  requestId?: string | null;
}

/** A committed-with-it move, for the web hook events written in its transaction. */
export interface PaymentMove {
  paymentTransactionId: string;
  status: CheckoutPaymentStatus;
  /** The payment's web hook event (issue 15); Processing has none. */
  eventType:
    'payment.succeeded' | 'payment.pending' | 'payment.failed' | 'payment.cancelled' | null;
  /** The request this move completed (paid in full, or a Single request paid), else null. */
  completedRequestId: string | null;
}

/** Why a notification moved nothing when no payment of its configuration matched it. */
export const noPayment = 'No payment of this configuration matches it';

const failed: ReadonlySet<string> = new Set(['Failed', 'NotAuthorised', 'Rejected', 'Cancelled']);

/** Status only moves forward: Processing → anything; Pending → paid or undone; the rest is final. */
export function movesForward(from: string, to: CheckoutPaymentStatus): boolean {
  if (from === to) return false;
  if (from === 'Processing') return true;
  if (from === 'Pending') return to === 'Paid' || failed.has(to);
  return false;
}

const eventTypeOf = (status: CheckoutPaymentStatus): PaymentMove['eventType'] =>
  status === 'Paid'
    ? 'payment.succeeded'
    : status === 'Pending'
      ? 'payment.pending'
      : status === 'Cancelled'
        ? 'payment.cancelled'
        : failed.has(status)
          ? 'payment.failed'
          : null;

/** The notifications feature's wording of a move (TenantPayment…, PaymentPending). */
function notificationStatusOf(status: CheckoutPaymentStatus): PaymentStatusChange['status'] | null {
  if (
    status === 'Paid' ||
    status === 'Pending' ||
    status === 'Cancelled' ||
    status === 'Processing'
  )
    return status;
  if (failed.has(status)) return 'Failed';
  return null;
}

export interface SettleResult {
  changed: boolean;
  payment: PaymentRow | null;
}

/**
 * The completion path of a payer-page payment (issue 14), shared by the Sandbox card form, status
 * polls and provider notifications. One transaction moves the payment's status (forward only: a
 * late or replayed event never moves Paid back) and, when the money is taken or reserved,
 * allocates it to the invoices as offered, marks the offer Used, records the late-payment fees,
 * updates the invoices and the request, and writes an audit activity. After the commit: the
 * notification mails, the payer's receipt and the payment-event hook.
 */
export function createSettlement(deps: {
  database: Database;
  log: FastifyBaseLogger;
  /** notifications.mail.ts paymentStatusesChanged: one check for the moves of a batch. */
  notify?: (scope: PayScope, changes: PaymentStatusChange[]) => Promise<void>;
  /** The payer's receipt mail (pay.receipt.ts). */
  receipt?: (scope: PayScope, paymentTransactionId: string) => Promise<void>;
  /**
   * The outgoing web hook events of a move (issue 15), written in the move's own transaction (the
   * outbox), so they are delivered exactly when the move commits.
   */
  recordEvents?: (tx: Tx, scope: PayScope, moves: PaymentMove[]) => Promise<void>;
}) {
  const { database, log } = deps;

  async function lockPayment(tx: Tx, scope: PayScope, id: string, configurationId?: string) {
    const [row] = await tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, scope.tenantId),
          eq(paymentTransactions.datasetId, scope.datasetId),
          eq(paymentTransactions.id, id),
          configurationId ? eq(paymentTransactions.paymentProviderId, configurationId) : undefined,
        ),
      )
      .for('update');
    return row ?? null;
  }

  async function claimNotification(tx: Tx, scope: PayScope, id: string) {
    const claimed = await tx
      .update(providerNotifications)
      .set({ processedAt: sql`now()` })
      .where(
        and(
          eq(providerNotifications.tenantId, scope.tenantId),
          eq(providerNotifications.datasetId, scope.datasetId),
          eq(providerNotifications.id, id),
          isNull(providerNotifications.processedAt),
        ),
      )
      .returning({ id: providerNotifications.id });
    return claimed.length > 0;
  }

  async function markNotification(
    tx: Tx,
    scope: PayScope,
    id: string | undefined,
    outcome: string | null,
  ) {
    if (!id) return;
    await tx
      .update(providerNotifications)
      .set({ outcome })
      .where(
        and(
          eq(providerNotifications.tenantId, scope.tenantId),
          eq(providerNotifications.datasetId, scope.datasetId),
          eq(providerNotifications.id, id),
        ),
      );
  }

  /** The invoices of a Transaction request, as offered; an Account request's one allocation. */
  async function allocate(tx: Tx, scope: PayScope, payment: PaymentRow, offered: Offered | null) {
    const where = (table: typeof transactions | typeof settlementOffers, id: string) =>
      and(
        eq(table.tenantId, scope.tenantId),
        eq(table.datasetId, scope.datasetId),
        eq(table.id, id),
      );
    if (!offered || offered.invoices.length === 0) {
      await tx.insert(paymentAllocations).values({
        ...scope,
        id: uuidv7(),
        paymentTransactionId: payment.id,
        type: 'Payment',
        status: 'Allocated',
        entityType: 'Account',
        accountId: payment.accountId,
        allocatedAmount: payment.totalAmount,
      });
      return;
    }
    const ids = offered.invoices.map((invoice) => invoice.transactionId);
    const rows = await tx
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.tenantId, scope.tenantId),
          eq(transactions.datasetId, scope.datasetId),
          inArray(transactions.id, ids),
        ),
      )
      .orderBy(transactions.id)
      .for('update');
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const invoice of offered.invoices) {
      const row = byId.get(invoice.transactionId);
      if (!row) continue; // deleted by the ERP since: the money stays unallocated to it
      // The fee lines as shown, recorded by the money rules on the day they were shown for.
      if (invoice.fees.length > 0) {
        await recordLatePaymentFees(tx, scope, {
          paymentTransactionId: payment.id,
          transactionId: row.id,
          paidOn: offered.quotedOn,
        });
      }
      // Another payment may have settled part of it since the payer was quoted: never past what is owed.
      const room = new Big(row.transactionAmount)
        .minus(row.allocatedAmount)
        .minus(row.discountedAmount);
      if (room.lte(0)) continue;
      const discount = Big(invoice.discount).gt(room) ? room : new Big(invoice.discount);
      // A part the payer chose (no discount, no fees), else the invoice in full after its discount.
      const wanted = new Big(
        invoice.paidAmount ?? new Big(invoice.outstandingAmount).minus(invoice.discount),
      );
      const allocated = wanted.gt(room.minus(discount)) ? room.minus(discount) : wanted;
      let offerId: string | null = null;
      if (invoice.offer && discount.gt(0)) {
        if (invoice.offer.source === 'Manual') {
          offerId = invoice.offer.id;
          await tx
            .update(settlementOffers)
            .set({ status: 'Used' })
            .where(where(settlementOffers, offerId));
        } else {
          // A generated offer becomes a Used offer of the invoice, so the merchant sees what was given.
          offerId = uuidv7();
          await tx.insert(settlementOffers).values({
            ...scope,
            id: offerId,
            transactionId: row.id,
            type: invoice.offer.type,
            status: 'Used',
            description: invoice.offer.description,
            validFrom: offered.quotedOn,
            validUntil: invoice.offer.validUntil,
            currency: row.currency,
            amount: discount.toFixed(4),
          });
        }
      }
      await tx.insert(paymentAllocations).values({
        ...scope,
        id: uuidv7(),
        paymentTransactionId: payment.id,
        type: 'Payment',
        status: 'Allocated',
        entityType: 'Transaction',
        transactionId: row.id,
        accountId: row.accountId,
        settlementOfferId: offerId,
        discountedAmount: discount.toFixed(4),
        allocatedAmount: allocated.toFixed(4),
      });
      const newAllocated = new Big(row.allocatedAmount).plus(allocated);
      const newDiscounted = new Big(row.discountedAmount).plus(discount);
      const settled = newAllocated.plus(newDiscounted);
      await tx
        .update(transactions)
        .set({
          allocatedAmount: newAllocated.toFixed(4),
          discountedAmount: newDiscounted.toFixed(4),
          paidStatus: settled.gte(row.transactionAmount)
            ? 'FullyPaid'
            : settled.gt(0)
              ? 'PartPaid'
              : 'Unpaid',
          updatedOn: new Date(),
        })
        .where(where(transactions, row.id));
    }
  }

  /** spec 2: Completed when paid in full or Single usage; PartCompleted otherwise. */
  async function completeRequest(tx: Tx, scope: PayScope, request: PaymentRequestRow) {
    const requestId = request.id;
    let full = request.usageType !== 'Multiple';
    if (!full) {
      if (request.requestType === 'Transaction') {
        const owing = await tx.execute(sql`
          select count(*)::int as owing from payment_request_allocations x
          join transactions t on t.tenant_id = x.tenant_id and t.dataset_id = x.dataset_id and t.id = x.transaction_id
          where x.tenant_id = ${scope.tenantId} and x.dataset_id = ${scope.datasetId} and x.payment_request_id = ${requestId}
            and t.paid_status <> 'FullyPaid'`);
        full =
          Number((owing as unknown as { rows: { owing: number }[] }).rows[0]?.owing ?? 0) === 0;
      } else {
        const paid = await tx.execute(sql`
          select coalesce(sum(total_amount), 0)::text as paid from payment_transactions
          where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and payment_request_id = ${requestId}
            and status in ('Paid', 'Pending')`);
        full = new Big((paid as unknown as { rows: { paid: string }[] }).rows[0]?.paid ?? '0').gte(
          request.amountToPay,
        );
      }
    }
    await tx
      .update(paymentRequests)
      .set({ requestStatus: full ? 'Completed' : 'PartCompleted' })
      .where(
        and(
          eq(paymentRequests.tenantId, scope.tenantId),
          eq(paymentRequests.datasetId, scope.datasetId),
          eq(paymentRequests.id, requestId),
        ),
      );
    return full;
  }

  /** What staff and payers may be told of a committed move (the notifications' wording). */
  function changesOf(result: Moved): PaymentStatusChange[] {
    const { payment } = result;
    if (!payment) return [];
    if (result.changed) {
      const status = notificationStatusOf(payment.status as CheckoutPaymentStatus);
      return status
        ? [
            {
              paymentTransactionId: payment.id,
              status,
              from: result.before === 'Pending' ? 'Pending' : 'Provider',
            },
          ]
        : [];
    }
    // Told once per payment: the mail's event key is the payment and the status.
    if (result.processing)
      return [{ paymentTransactionId: payment.id, status: 'Processing', from: 'Provider' }];
    return [];
  }

  /**
   * After the commit of one or several moves: the notification mails (one check for all of them)
   * and the payers' receipts. The moves are committed: a mail that fails is logged, never undoes
   * them (their jobs retry).
   */
  async function afterMoves(scope: PayScope, results: Moved[]) {
    const tasks: Promise<void>[] = [];
    const changes = results.flatMap(changesOf);
    if (deps.notify && changes.length > 0) tasks.push(deps.notify(scope, changes));
    for (const { changed, payment } of results) {
      const payerEmail = (payment?.customerDetails as { emailAddress?: string } | null)
        ?.emailAddress;
      if (deps.receipt && changed && payment?.status === 'Paid' && payerEmail)
        tasks.push(deps.receipt(scope, payment.id));
    }
    for (const result of await Promise.allSettled(tasks))
      if (result.status === 'rejected')
        log.error(
          { err: result.reason, paymentTransactionIds: changes.map((c) => c.paymentTransactionId) },
          'after-payment work failed',
        );
  }

  /** What a move reads first: the claim, the locked payment, its quote and its locked request. */
  interface Loaded {
    claimed: boolean;
    payment: PaymentRow | null;
    quote: typeof payQuotes.$inferSelect | undefined;
    request: PaymentRequestRow | undefined;
  }

  type Moved = {
    changed: boolean;
    payment: PaymentRow | null;
    before: string | null;
    processing: boolean;
    /** What the move's web hook events say (recordEvents), when it moved. */
    events?: PaymentMove;
  };

  /** One move's reads, for settle. */
  async function load(
    tx: Tx,
    scope: PayScope,
    paymentTransactionId: string,
    outcome: PaymentOutcome,
  ): Promise<Loaded> {
    // A stored notification is processed exactly once: whoever claims it first does the work.
    // The payment, then its request: a start never locks a payment, so this order cannot deadlock
    // with it, and two moves of one request's payments queue on the request.
    const [claimed, payment] = await Promise.all([
      outcome.notificationId ? claimNotification(tx, scope, outcome.notificationId) : true,
      lockPayment(tx, scope, paymentTransactionId, outcome.configurationId),
    ]);
    if (!claimed || !payment) return { claimed, payment, quote: undefined, request: undefined };
    const [[quote], [request]] = await Promise.all([
      tx
        .select()
        .from(payQuotes)
        .where(
          and(
            eq(payQuotes.tenantId, scope.tenantId),
            eq(payQuotes.datasetId, scope.datasetId),
            eq(payQuotes.paymentTransactionId, payment.id),
          ),
        ),
      payment.paymentRequestId
        ? tx
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
        : Promise.resolve([] as PaymentRequestRow[]),
    ]);
    return { claimed, payment, quote, request };
  }

  /** The move itself, in the caller's transaction, from what load (or loadBatch) read. */
  async function move(
    tx: Tx,
    scope: PayScope,
    outcome: PaymentOutcome,
    actor: SettleActor,
    loaded: Loaded,
  ): Promise<Moved> {
    const { claimed, payment, quote, request } = loaded;
    if (!claimed) return { changed: false, payment: null, before: null, processing: false };
    if (!payment) {
      await markNotification(tx, scope, outcome.notificationId, noPayment);
      return { changed: false, payment: null, before: null, processing: false };
    }
    const event = outcome.exchange;
    // Kept whatever it moves; it leaves with the next statement and is awaited with it.
    const kept = event
      ? tx.insert(providerEvents).values({
          ...scope,
          id: uuidv7(),
          paymentTransactionId: payment.id,
          providerName: payment.paymentProviderName ?? 'Unknown',
          ...event,
          payloadFileName: `${event.recordId ?? payment.id}.json`,
        })
      : null;
    const before = payment.status;
    if (!movesForward(before, outcome.status)) {
      await Promise.all([
        kept,
        markNotification(
          tx,
          scope,
          outcome.notificationId,
          `Status stays ${before} (${outcome.status} does not move it forward)`,
        ),
      ]);
      return {
        changed: false,
        payment,
        before,
        processing: before === 'Processing' && outcome.reportsProcessing === true,
      };
    }
    const offered = (quote?.offered ?? null) as Offered | null;
    const taken = outcome.status === 'Paid' || outcome.status === 'Pending';
    const allocatedNow = before === 'Processing' && taken;
    // Everything below is issued without waiting where no value depends on an earlier answer:
    // the statements run in the order issued, so what reads reads after what writes, and they
    // leave in few writes (docs/decisions.md "Provider notifications are settled inline").
    const moved = Promise.all([
      kept,
      tx
        .update(paymentTransactions)
        .set({
          status: outcome.status,
          statusDateTime: sql`now()`,
          ...(outcome.providerReference
            ? { paymentProviderReference: outcome.providerReference }
            : {}),
          ...(outcome.paymentMethodType ? { paymentMethodType: outcome.paymentMethodType } : {}),
          ...(allocatedNow ? { allocatedStatus: 'AutoAllocated' } : {}),
          ...(failed.has(outcome.status) && before === 'Processing'
            ? { allocatedStatus: 'NotApplicable' }
            : {}),
        })
        .where(
          and(
            eq(paymentTransactions.tenantId, scope.tenantId),
            eq(paymentTransactions.datasetId, scope.datasetId),
            eq(paymentTransactions.id, payment.id),
          ),
        )
        .returning(),
      tx.insert(auditActivities).values({
        tenantId: scope.tenantId,
        id: uuidv7(),
        datasetId: scope.datasetId,
        operation: 'ChangePaymentStatus',
        resourceType: 'PaymentTransaction',
        resourceId: payment.id,
        userName: actor.name,
        status: 200,
        errorMessage: failed.has(outcome.status)
          ? (outcome.errorMessage ?? `The payment is ${outcome.status}.`)
          : null,
        ipAddress: actor.ipAddress ?? null,
        requestId: actor.requestId ?? null,
      }),
    ]);
    // Awaited below; a failure fails the transaction either way.
    moved.catch(() => undefined);
    let completedRequestId: string | null = null;
    try {
      if (allocatedNow) {
        if (request && request.usageType !== 'Multiple') {
          // Single usage completes whatever was allocated: the request's update needs no answer.
          const [, full] = await Promise.all([
            allocate(tx, scope, payment, offered),
            completeRequest(tx, scope, request),
          ]);
          if (full) completedRequestId = request.id;
        } else {
          await allocate(tx, scope, payment, offered);
          if (request && (await completeRequest(tx, scope, request)))
            completedRequestId = request.id;
        }
      }
    } catch (error) {
      // The move's own failure, if it failed, is the cause (what came after it was aborted).
      await moved;
      throw error;
    }
    const [, [after]] = await moved;
    // An authorisation undone: its allocations give the invoices back (payment-transactions' rule).
    if (before === 'Pending' && failed.has(outcome.status))
      await allocationsFollowPayment(tx, scope, payment.id, null);
    if (failed.has(outcome.status) && quote) {
      await tx
        .update(payQuotes)
        .set({ failureMessage: outcome.errorMessage ?? null })
        .where(
          and(
            eq(payQuotes.tenantId, scope.tenantId),
            eq(payQuotes.datasetId, scope.datasetId),
            eq(payQuotes.paymentTransactionId, payment.id),
          ),
        );
    }
    return {
      changed: true,
      payment: after!,
      before,
      processing: false,
      events: {
        paymentTransactionId: payment.id,
        status: outcome.status,
        eventType: eventTypeOf(outcome.status),
        completedRequestId,
      },
    };
  }

  /** Moves' web hook events, in their transaction (the outbox), read as the moves left things. */
  async function recordEvents(tx: Tx, scope: PayScope, moved: Moved[]) {
    const moves = moved.flatMap((result) => (result.events ? [result.events] : []));
    if (deps.recordEvents && moves.length > 0) await deps.recordEvents(tx, scope, moves);
  }

  /**
   * Several stored notifications' moves in ONE transaction (the drain's batches, docs/decisions.md
   * "Provider notifications are settled inline"): their claims, payments, quotes and requests are
   * read in one round trip — the payments, then the requests, each locked in id order, so two
   * batches never wait on each other in a circle for them — then the moves, each payment's in the
   * order given (in rounds: below), a later event seeing what its earlier one did. Every move
   * commits with the others or none does; the caller settles them one by one when it fails.
   */
  async function settleBatch(
    scope: PayScope,
    items: { paymentTransactionId: string; outcome: PaymentOutcome; actor: SettleActor }[],
  ): Promise<void> {
    const results = await database.withTenant(scope.tenantId, async (tx) => {
      const notificationIds = items.flatMap((item) =>
        item.outcome.notificationId ? [item.outcome.notificationId] : [],
      );
      const paymentIds = [...new Set(items.map((item) => item.paymentTransactionId))];
      const t = paymentTransactions;
      const ofPayments = and(
        eq(t.tenantId, scope.tenantId),
        eq(t.datasetId, scope.datasetId),
        inArray(t.id, paymentIds),
      );
      const [claimedRows, payments, quotes, requests] = await Promise.all([
        notificationIds.length === 0
          ? Promise.resolve([] as { id: string }[])
          : tx
              .update(providerNotifications)
              .set({ processedAt: sql`now()` })
              .where(
                and(
                  eq(providerNotifications.tenantId, scope.tenantId),
                  eq(providerNotifications.datasetId, scope.datasetId),
                  inArray(providerNotifications.id, notificationIds),
                  isNull(providerNotifications.processedAt),
                ),
              )
              .returning({ id: providerNotifications.id }),
        tx.select().from(t).where(ofPayments).orderBy(t.id).for('update'),
        tx
          .select()
          .from(payQuotes)
          .where(
            and(
              eq(payQuotes.tenantId, scope.tenantId),
              eq(payQuotes.datasetId, scope.datasetId),
              inArray(payQuotes.paymentTransactionId, paymentIds),
            ),
          ),
        tx
          .select()
          .from(paymentRequests)
          .where(
            and(
              eq(paymentRequests.tenantId, scope.tenantId),
              eq(paymentRequests.datasetId, scope.datasetId),
              inArray(
                paymentRequests.id,
                tx.select({ id: t.paymentRequestId }).from(t).where(ofPayments),
              ),
            ),
          )
          .orderBy(paymentRequests.id)
          .for('update'),
      ]);
      const claimed = new Set(claimedRows.map((row) => row.id));
      const current = new Map(payments.map((row) => [row.id, row]));
      const quoteOf = new Map(quotes.map((row) => [row.paymentTransactionId, row]));
      const requestOf = new Map(requests.map((row) => [row.id, row]));
      // In rounds: every payment's first notification, then every second one... Each round's web
      // hook events are read and written together once its moves are done (their reads leave in
      // a few writes for the whole round, not a few per move); a payment moves at most once per
      // round, so its events still show it as its own move left it.
      const rounds: (typeof items)[] = [];
      const seen = new Map<string, number>();
      for (const item of items) {
        const round = seen.get(item.paymentTransactionId) ?? 0;
        seen.set(item.paymentTransactionId, round + 1);
        (rounds[round] ??= []).push(item);
      }
      const moved: Moved[] = [];
      for (const round of rounds) {
        const movedInRound: Moved[] = [];
        for (const { paymentTransactionId, outcome, actor } of round) {
          const row = current.get(paymentTransactionId);
          // Only a payment of the notification's own configuration moves (lockPayment's rule).
          const payment =
            row && (!outcome.configurationId || row.paymentProviderId === outcome.configurationId)
              ? row
              : null;
          const result = await move(tx, scope, outcome, actor, {
            claimed: outcome.notificationId ? claimed.has(outcome.notificationId) : true,
            payment,
            quote: payment ? quoteOf.get(payment.id) : undefined,
            request: payment?.paymentRequestId
              ? requestOf.get(payment.paymentRequestId)
              : undefined,
          });
          if (result.changed && result.payment) current.set(result.payment.id, result.payment);
          movedInRound.push(result);
        }
        await recordEvents(tx, scope, movedInRound);
        moved.push(...movedInRound);
      }
      return moved;
    });
    await afterMoves(scope, results);
  }

  async function settle(
    scope: PayScope,
    paymentTransactionId: string,
    outcome: PaymentOutcome,
    actor: SettleActor,
  ): Promise<SettleResult> {
    const result = await database.withTenant(scope.tenantId, async (tx) => {
      const moved = await move(
        tx,
        scope,
        outcome,
        actor,
        await load(tx, scope, paymentTransactionId, outcome),
      );
      await recordEvents(tx, scope, [moved]);
      return moved;
    });
    await afterMoves(scope, [result]);
    return { changed: result.changed, payment: result.payment };
  }

  return { settle, settleBatch };
}
export type Settlement = ReturnType<typeof createSettlement>;
