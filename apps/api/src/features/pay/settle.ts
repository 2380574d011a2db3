import Big from 'big.js';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { WebHookEventType } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import { payQuotes, providerNotifications } from '../../db/schema-pay.js';
import {
  paymentRequests,
  paymentTransactions,
  providerEvents,
} from '../../db/schema-receivables.js';
import type { ProviderExchange } from '../../providers/adapter.js';
import type { CheckoutPaymentStatus } from '../../providers/checkout.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import { applyMove, eventOfOutcome, moveOf, type PaymentMoveRule } from './lifecycle.js';
import { deferWrites, flushWrites, insertRow } from './deferred-writes.js';
import type { Offered } from './pay-page.js';
import { authorisationExpiryOf } from './provider-windows.js';
import type { PayScope, PaymentRequestRow, PaymentRow } from './pay.repository.js';
import { inDataset } from '../../platform/scope.js';

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
  /**
   * What the provider says it took or reserved, where it says (major units) and in which currency:
   * a move whose money differs from the payment's is refused (issue 20 item 10).
   */
  amount?: string | null;
  currency?: string | null;
  /** The provider says the money went back after the payment had succeeded (lifecycle: lateFailure). */
  lateFailure?: boolean;
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
  /** The payment's web hook event (issue 15; the lifecycle's move). */
  eventType: WebHookEventType | null;
  /** The request this move completed (paid in full, or a Single request paid), else null. */
  completedRequestId: string | null;
}

/** Why a notification moved nothing when no payment of its configuration matched it. */
export const noPayment = 'No payment of this configuration matches it';

const failed: ReadonlySet<string> = new Set(['Failed', 'NotAuthorised', 'Rejected', 'Cancelled']);

/**
 * Why a provider's money differs from the payment's (issue 20 item 10), or null when it agrees or
 * the provider does not say.
 */
export function moneyMismatch(payment: PaymentRow, outcome: PaymentOutcome): string | null {
  if (outcome.status !== 'Paid' && outcome.status !== 'Pending') return null;
  if (outcome.currency && outcome.currency.toUpperCase() !== payment.currency.toUpperCase())
    return `The provider reported ${outcome.currency.toUpperCase()}, but the payment is in ${payment.currency}: the payment is left unchanged.`;
  if (outcome.amount != null && outcome.amount !== '') {
    let reported: Big;
    try {
      reported = new Big(outcome.amount);
    } catch {
      return `The provider reported an amount that is not a number (${outcome.amount}): the payment is left unchanged.`;
    }
    if (!reported.eq(payment.totalAmount))
      return `The provider reported ${reported.toFixed(2)} ${payment.currency}, but the payment is for ${new Big(payment.totalAmount).toFixed(2)} ${payment.currency}: the payment is left unchanged.`;
  }
  return null;
}

export interface SettleResult {
  changed: boolean;
  payment: PaymentRow | null;
}

/** Claims a stored notification for this transaction: false when another already processed it. */
export async function claimNotification(tx: Tx, scope: PayScope, id: string) {
  return (await claimNotifications(tx, scope, [id])).length > 0;
}

/** Claims stored notifications for this transaction: the ids no other one had processed. */
export async function claimNotifications(
  tx: Tx,
  scope: PayScope,
  ids: string[],
): Promise<{ id: string }[]> {
  if (ids.length === 0) return [];
  return tx
    .update(providerNotifications)
    .set({ processedAt: sql`now()` })
    .where(
      and(
        inDataset(providerNotifications, scope),
        inArray(providerNotifications.id, ids),
        isNull(providerNotifications.processedAt),
      ),
    )
    .returning({ id: providerNotifications.id });
}

/** Records why a notification moved nothing (or what it did), in the claiming transaction. */
export async function markNotification(
  tx: Tx,
  scope: PayScope,
  id: string | undefined,
  outcome: string | null,
) {
  if (!id) return;
  await tx
    .update(providerNotifications)
    .set({ outcome })
    .where(and(inDataset(providerNotifications, scope), eq(providerNotifications.id, id)));
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
          inDataset(paymentTransactions, scope),
          eq(paymentTransactions.id, id),
          configurationId ? eq(paymentTransactions.paymentProviderId, configurationId) : undefined,
        ),
      )
      .for('update');
    return row ?? null;
  }

  /** What staff and payers may be told of a committed move (the notifications' wording). */
  function changesOf(result: Moved): PaymentStatusChange[] {
    const { payment } = result;
    if (!payment) return [];
    if (result.changed) {
      const mail = result.rule?.mail;
      return mail ? [{ paymentTransactionId: payment.id, ...mail }] : [];
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
    /** The request as the move left it (a batch's later moves read it). */
    request?: PaymentRequestRow | null;
    /** The lifecycle's move, when it moved. */
    rule?: PaymentMoveRule;
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
        .where(and(inDataset(payQuotes, scope), eq(payQuotes.paymentTransactionId, payment.id))),
      payment.paymentRequestId
        ? tx
            .select()
            .from(paymentRequests)
            .where(
              and(
                inDataset(paymentRequests, scope),
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
    // Kept whatever it moves; it leaves with the next statement and is awaited with it (in a
    // batch, with the batch's other inserts: deferred-writes.ts).
    const keep = () =>
      event
        ? insertRow(tx, providerEvents, {
            ...scope,
            id: uuidv7(),
            paymentTransactionId: payment.id,
            providerName: payment.paymentProviderName ?? 'Unknown',
            ...event,
            payloadFileName: `${event.recordId ?? payment.id}.json`,
          })
        : null;
    const before = payment.status;
    const stays = async (why: string, audit: string | null = null) => {
      await Promise.all([
        keep(),
        markNotification(tx, scope, outcome.notificationId, why),
        // A refusal the merchant must hear of is an activity saying why (issue 20 item 10).
        audit
          ? insertRow(tx, auditActivities, {
              tenantId: scope.tenantId,
              id: uuidv7(),
              datasetId: scope.datasetId,
              operation: 'ChangePaymentStatus',
              resourceType: 'PaymentTransaction',
              resourceId: payment.id,
              userName: actor.name,
              status: 409,
              errorMessage: audit,
              ipAddress: actor.ipAddress ?? null,
              requestId: actor.requestId ?? null,
            })
          : null,
      ]);
      return {
        changed: false,
        payment,
        request,
        before,
        processing: before === 'Processing' && outcome.reportsProcessing === true,
      };
    };
    // The lifecycle's table decides (lifecycle.ts): a replay or a late event moves nothing.
    const moveEvent = eventOfOutcome(before, outcome.status, {
      lateFailure: outcome.lateFailure,
      request,
    });
    if (!moveEvent || !moveOf(before, moveEvent))
      return stays(`Status stays ${before} (${outcome.status} does not move it forward)`);
    const mismatch = moneyMismatch(payment, outcome);
    if (mismatch) return stays(mismatch, mismatch);
    const applied = await Promise.all([
      keep(),
      applyMove(tx, scope, {
        payment,
        event: moveEvent,
        request,
        offered: (quote?.offered ?? null) as Offered | null,
        set: {
          ...(outcome.providerReference
            ? { paymentProviderReference: outcome.providerReference }
            : {}),
          ...(outcome.paymentMethodType ? { paymentMethodType: outcome.paymentMethodType } : {}),
          ...(moveEvent === 'reserved'
            ? { authorisationExpiresOn: authorisationExpiryOf(payment.paymentProviderName) }
            : {}),
        },
        audit: {
          actor,
          errorMessage: failed.has(outcome.status)
            ? (outcome.errorMessage ?? `The payment is ${outcome.status}.`)
            : null,
        },
      }),
    ]).then(([, move]) => move);
    if (failed.has(applied.payment.status) && quote) {
      await tx
        .update(payQuotes)
        .set({ failureMessage: outcome.errorMessage ?? null })
        .where(and(inDataset(payQuotes, scope), eq(payQuotes.paymentTransactionId, payment.id)));
    }
    return {
      changed: true,
      payment: applied.payment,
      request: applied.request,
      rule: applied.rule,
      before,
      processing: false,
      events: {
        paymentTransactionId: payment.id,
        status: applied.payment.status as CheckoutPaymentStatus,
        eventType: applied.rule.webHook,
        completedRequestId: applied.completedRequestId,
      },
    };
  }

  /** Moves' web hook events, in their transaction (the outbox), read as the moves left things. */
  async function recordEvents(tx: Tx, scope: PayScope, moved: Moved[]) {
    // The payloads read what the moves wrote, including what a batch held back.
    await flushWrites(tx);
    const moves = moved.flatMap((result) => (result.events ? [result.events] : []));
    if (deps.recordEvents && moves.length > 0) await deps.recordEvents(tx, scope, moves);
  }

  /**
   * Several stored notifications' moves in ONE transaction (the drain's batches, docs/decisions/086-provider-notifications-are-settled-inline.md
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
      // The moves' inserts and request statuses go together, a few statements for the whole
      // batch rather than a few per move (deferred-writes.ts; flushed before any read of them).
      deferWrites(tx);
      const notificationIds = items.flatMap((item) =>
        item.outcome.notificationId ? [item.outcome.notificationId] : [],
      );
      const paymentIds = [...new Set(items.map((item) => item.paymentTransactionId))];
      const t = paymentTransactions;
      const ofPayments = and(inDataset(t, scope), inArray(t.id, paymentIds));
      const [claimedRows, payments, quotes, requests] = await Promise.all([
        claimNotifications(tx, scope, notificationIds),
        tx.select().from(t).where(ofPayments).orderBy(t.id).for('update'),
        tx
          .select()
          .from(payQuotes)
          .where(
            and(inDataset(payQuotes, scope), inArray(payQuotes.paymentTransactionId, paymentIds)),
          ),
        tx
          .select()
          .from(paymentRequests)
          .where(
            and(
              inDataset(paymentRequests, scope),
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
          // A later move of the request's other payment sees what this one did (a duplicate).
          if (result.request) requestOf.set(result.request.id, result.request);
          movedInRound.push(result);
        }
        await recordEvents(tx, scope, movedInRound);
        moved.push(...movedInRound);
      }
      await flushWrites(tx);
      return moved;
    });
    await afterMoves(scope, results);
  }

  /**
   * One move in the caller's transaction (its reads, the move and its web hook events): what
   * `afterMoves` must be given once that transaction has committed. Issue 19's drain settles a
   * group of notifications, money going back among them, in one transaction this way.
   */
  async function settleIn(
    tx: Tx,
    scope: PayScope,
    paymentTransactionId: string,
    outcome: PaymentOutcome,
    actor: SettleActor,
  ): Promise<Moved> {
    const moved = await move(
      tx,
      scope,
      outcome,
      actor,
      await load(tx, scope, paymentTransactionId, outcome),
    );
    await recordEvents(tx, scope, [moved]);
    return moved;
  }

  async function settle(
    scope: PayScope,
    paymentTransactionId: string,
    outcome: PaymentOutcome,
    actor: SettleActor,
  ): Promise<SettleResult> {
    const result = await database.withTenant(scope.tenantId, (tx) =>
      settleIn(tx, scope, paymentTransactionId, outcome, actor),
    );
    await afterMoves(scope, [result]);
    return { changed: result.changed, payment: result.payment };
  }

  return { settle, settleBatch, settleIn, afterMoves };
}
export type Settlement = ReturnType<typeof createSettlement>;
