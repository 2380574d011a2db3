import Big from 'big.js';
import { v7 as uuidv7 } from 'uuid';
import type { WebHookEventType } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import { providerEvents } from '../../db/schema-receivables.js';
import type { ProviderExchange } from '../../providers/adapter.js';
import type { CheckoutPaymentStatus } from '../../providers/checkout.js';
import { applyMove } from './apply-move.js';
import { insertRow } from './deferred-writes.js';
import { setQuoteFailure, type PayQuoteRow } from './finish.repository.js';
import { eventOfOutcome, moveOf, type PaymentMoveRule } from './lifecycle.js';
import type { Offered } from './pay-page-answer.js';
import type { PayScope, PaymentRequestRow, PaymentRow } from './pay.repository.js';
import { markNotice } from './provider-notices.repository.js';
import { authorisationExpiryOf } from './provider-windows.js';

/** What a provider (its card form, a status call or a notice) says about a payment. */
export interface PaymentOutcome {
  status: CheckoutPaymentStatus;
  providerReference?: string | null;
  paymentMethodType?: string | null;
  /** For the payer when it failed ('Your card was declined'). */
  errorMessage?: string | null;
  /** Kept as a provider event on the payment. */
  exchange?: ProviderExchange | null;
  /** The stored notice this comes from: marked processed in the same transaction. */
  notificationId?: string;
  /**
   * The provider itself says the payment is being processed (a bank transfer on its way): staff
   * are told once (TenantPaymentProcessing), though the status does not move.
   */
  reportsProcessing?: boolean;
  /** Only a payment of this provider configuration may be moved (a provider's notice). */
  configurationId?: string;
  /**
   * What the provider says it took or reserved, where it says (major units) and in which currency:
   * a move whose money differs from the payment's is refused.
   */
  amount?: string | null;
  currency?: string | null;
  /** The provider says the money went back after the payment had succeeded (lifecycle: lateFailure). */
  lateFailure?: boolean;
}

/** Who moved it, for the audit activity. */
export interface FinishActor {
  name: string;
  ipAddress?: string | null;
  requestId?: string | null;
}

/** A committed-with-it move, for the web hook events written in its transaction. */
export interface PaymentMove {
  paymentTransactionId: string;
  status: CheckoutPaymentStatus;
  /** The payment's web hook event (the lifecycle's move). */
  eventType: WebHookEventType | null;
  /** The request this move completed (paid in full, or a Single request paid), else null. */
  completedRequestId: string | null;
}

/** Why a notice moved nothing when no payment of its configuration matched it. */
export const noPayment = 'No payment of this configuration matches it';

const failed: ReadonlySet<string> = new Set(['Failed', 'NotAuthorised', 'Rejected', 'Cancelled']);

/**
 * Why a provider's money differs from the payment's, or null when it agrees or the provider does
 * not say.
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

/** What a move reads first: the claim, the locked payment, its quote and its locked request. */
export interface Loaded {
  claimed: boolean;
  payment: PaymentRow | null;
  quote: PayQuoteRow | undefined;
  request: PaymentRequestRow | undefined;
}

export interface Moved {
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
}

/**
 * The provider's exchange kept as a provider event, whatever it moves; it leaves with the next
 * statement and is awaited with it (in a batch, with the batch's other inserts: deferred-writes.ts).
 */
function keepExchange(tx: Tx, scope: PayScope, payment: PaymentRow, outcome: PaymentOutcome) {
  const event = outcome.exchange;
  return event
    ? insertRow(tx, providerEvents, {
        ...scope,
        id: uuidv7(),
        paymentTransactionId: payment.id,
        providerName: payment.paymentProviderName ?? 'Unknown',
        ...event,
        payloadFileName: `${event.recordId ?? payment.id}.json`,
      })
    : null;
}

/** The payment stays as it is: why, on the notice, and a refusal the merchant must hear of as an activity. */
async function stays(
  tx: Tx,
  scope: PayScope,
  outcome: PaymentOutcome,
  actor: FinishActor,
  loaded: Loaded & { payment: PaymentRow },
  why: string,
  audit: string | null = null,
): Promise<Moved> {
  const { payment, request } = loaded;
  await Promise.all([
    keepExchange(tx, scope, payment, outcome),
    markNotice(tx, scope, outcome.notificationId, why),
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
    before: payment.status,
    processing: payment.status === 'Processing' && outcome.reportsProcessing === true,
  };
}

/** The columns the provider's outcome sets with the move. */
function setOf(payment: PaymentRow, outcome: PaymentOutcome, moveEvent: string) {
  return {
    ...(outcome.providerReference ? { paymentProviderReference: outcome.providerReference } : {}),
    ...(outcome.paymentMethodType ? { paymentMethodType: outcome.paymentMethodType } : {}),
    ...(moveEvent === 'reserved'
      ? { authorisationExpiresOn: authorisationExpiryOf(payment.paymentProviderName) }
      : {}),
  };
}

/** The move itself, in the caller's transaction, from what finish.ts load (or finishBatch) read. */
export async function moveFromOutcome(
  tx: Tx,
  scope: PayScope,
  outcome: PaymentOutcome,
  actor: FinishActor,
  loaded: Loaded,
): Promise<Moved> {
  const { claimed, payment, quote, request } = loaded;
  if (!claimed) return { changed: false, payment: null, before: null, processing: false };
  if (!payment) {
    await markNotice(tx, scope, outcome.notificationId, noPayment);
    return { changed: false, payment: null, before: null, processing: false };
  }
  const held = { ...loaded, payment };
  const before = payment.status;
  // The lifecycle's table decides (lifecycle.ts): a replay or a late event moves nothing.
  const moveEvent = eventOfOutcome(before, outcome.status, {
    lateFailure: outcome.lateFailure,
    request,
  });
  if (!moveEvent || !moveOf(before, moveEvent))
    return stays(
      tx,
      scope,
      outcome,
      actor,
      held,
      `Status stays ${before} (${outcome.status} does not move it forward)`,
    );
  const mismatch = moneyMismatch(payment, outcome);
  if (mismatch) return stays(tx, scope, outcome, actor, held, mismatch, mismatch);
  const applied = await Promise.all([
    keepExchange(tx, scope, payment, outcome),
    applyMove(tx, scope, {
      payment,
      event: moveEvent,
      request,
      offered: (quote?.offered ?? null) as Offered | null,
      set: setOf(payment, outcome, moveEvent),
      audit: {
        actor,
        errorMessage: failed.has(outcome.status)
          ? (outcome.errorMessage ?? `The payment is ${outcome.status}.`)
          : null,
      },
    }),
  ]).then(([, move]) => move);
  if (failed.has(applied.payment.status) && quote)
    await setQuoteFailure(tx, scope, payment.id, outcome.errorMessage ?? null);
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
