import Big from 'big.js';
import {
  pendingMessages,
  type PaymentRequest,
  type PendingActionResult,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderOutcome,
  ProviderRegistry,
} from '../../providers/adapter.js';
import { applyMove, type MoveActor } from '../pay/index.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import {
  insertProviderEvent,
  readProviderEventPayload,
  readProviderEvents,
} from './provider-events.repository.js';
import {
  lockPaymentRequest,
  readPaymentRow,
  type PaymentTransactionsRepository,
} from './payment-transactions.repository.js';

type Action = 'capture' | 'cancel';
type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
type PaymentRow = NonNullable<Awaited<ReturnType<typeof readPaymentRow>>>;

interface PendingActionInput {
  action: Action;
  id: string;
  /** Capture only: what to take of the authorised amount. */
  amount?: number;
  note: string | null;
}

interface PendingDeps {
  repository: PaymentTransactionsRepository;
  providers: ProviderRegistry;
  /** The payment's provider configuration (payment-providers area), for the adapter's credentials. */
  configurations?: (
    tx: Tx,
    scope: DatasetScope,
    paymentProviderId: string,
  ) => Promise<PendingPaymentCall['configuration']>;
  /** The payment's own provider secret in clear (Opayo Server's SecurityKey), or null. */
  providerSecret?: (
    tx: Tx,
    scope: DatasetScope,
    paymentTransactionId: string,
  ) => Promise<string | null>;
  /** The request's web hook payload (payment-request.completed), from the payment-requests area. */
  requestPayload?: (
    tx: Tx,
    scope: DatasetScope,
    paymentRequestId: string,
  ) => Promise<PaymentRequest>;
  /** Moves with no route of their own (the reservation expiry job) write their activity as this actor. */
  auditActor?: MoveActor;
  /** Told after the commit that captured or cancelled a payment (the notification mails). */
  onStatusChanged?: (
    scope: DatasetScope,
    change: { paymentTransactionId: string; status: 'Paid' | 'Cancelled' },
  ) => Promise<void>;
}

/** The payment, or NotFound. The second transaction holds it while it records the provider's answer. */
async function load(tx: Tx, scope: DatasetScope, id: string, forUpdate = false) {
  const row = await readPaymentRow(tx, scope, id, forUpdate);
  if (!row) throw new NotFoundError('The payment transaction was not found.');
  return row;
}

/** Checks the payment can take the action; answers the amount it is for. */
function amountOf(payment: PaymentRow, input: PendingActionInput) {
  if (payment.status !== 'Pending')
    throw new ConflictError(pendingMessages.notPending, 'notPending');
  // A capture without an amount takes the whole of it (the reservations queue's bulk capture).
  const amount =
    input.action === 'capture'
      ? new Big(input.amount ?? payment.totalAmount)
      : new Big(payment.totalAmount);
  if (amount.gt(payment.totalAmount))
    throw new ValidationError({ amountToCapture: [pendingMessages.amountTooLarge] });
  return amount;
}

/**
 * Moves the payment through the lifecycle (features/pay/lifecycle.ts: status, allocations,
 * invoices, request), and tells the merchant's systems once this transaction commits.
 */
async function movePayment(
  deps: PendingDeps,
  tx: Tx,
  scope: DatasetScope,
  current: PaymentRow,
  input: PendingActionInput,
  amount: Big,
) {
  const request = current.paymentRequestId
    ? await lockPaymentRequest(tx, scope, current.paymentRequestId)
    : null;
  const event =
    input.action === 'cancel'
      ? 'cancel'
      : amount.eq(current.totalAmount)
        ? 'captureWhole'
        : 'capturePart';
  const applied = await applyMove(tx, scope, {
    payment: current,
    event,
    request,
    amount: input.action === 'capture' ? amount : null,
    set: input.action === 'capture' ? { totalAmount: amount.toFixed(4) } : {},
    // The route's (or the job's) own activity records it.
    audit: deps.auditActor ? { actor: deps.auditActor } : null,
  });
  await recordWebhookEvent(tx, scope, {
    type: applied.rule.webHook,
    recordType: 'PaymentTransaction',
    recordId: current.id,
    payload: (await deps.repository.findWithDetails(tx, scope, current.id))!,
  });
  if (applied.completedRequestId && deps.requestPayload)
    await recordWebhookEvent(tx, scope, {
      type: 'payment-request.completed',
      recordType: 'PaymentRequest',
      recordId: applied.completedRequestId,
      payload: await deps.requestPayload(tx, scope, applied.completedRequestId),
    });
}

/** The second transaction: what the provider said, and the payment's move when it agreed. */
async function recordOutcome(
  deps: PendingDeps,
  tx: Tx,
  scope: DatasetScope,
  called: {
    payment: PaymentRow;
    adapter: PaymentProviderAdapter | null;
    outcome: ProviderOutcome | null;
    amount: Big;
  },
  input: PendingActionInput,
): Promise<PendingActionResult> {
  const { payment, adapter, outcome, amount } = called;
  const current = await load(tx, scope, input.id, true);
  if (outcome) {
    await insertProviderEvent(tx, scope, {
      paymentTransactionId: current.id,
      providerName: adapter!.name,
      exchange: outcome.exchange,
      fallbackRecordId: current.id,
    });
  }
  let errorMessage: string | null = null;
  if (!outcome)
    errorMessage = `Ledgerline cannot ${input.action} payments through ${payment.paymentProviderName ?? 'this provider'} yet; use the provider's own dashboard.`;
  else if (!outcome.ok) errorMessage = outcome.errorMessage;
  else if (current.status !== 'Pending') errorMessage = pendingMessages.notPending;
  else await movePayment(deps, tx, scope, current, input, amount);
  const paymentTransaction = (await deps.repository.find(tx, scope, current.id))!;
  return { isError: errorMessage !== null, errorMessage, paymentTransaction };
}

/**
 * spec 2 §4: capture or cancel a Pending payment through its provider. The provider is called
 * between two transactions, never inside one (style.md §7): the first checks the payment, the
 * second records what the provider said (a provider event) and, when it agreed, the new status.
 */
export function createPendingPayments(deps: PendingDeps) {
  const { providers } = deps;
  return {
    async run(
      read: Run,
      write: Run,
      scope: DatasetScope,
      input: PendingActionInput,
    ): Promise<PendingActionResult> {
      const [payment, configuration, providerSecret] = await read(async (tx) => {
        const row = await load(tx, scope, input.id);
        const found =
          row.paymentProviderId && deps.configurations
            ? await deps.configurations(tx, scope, row.paymentProviderId)
            : null;
        const secret = deps.providerSecret ? await deps.providerSecret(tx, scope, row.id) : null;
        return [row, found, secret] as const;
      });
      const amount = amountOf(payment, input);
      const adapter = providers.forProvider(payment.paymentProviderName);
      let outcome: ProviderOutcome | null = null;
      if (adapter) {
        const call = {
          paymentTransactionId: payment.id,
          providerReference: payment.paymentProviderReference,
          currency: payment.currency,
          amount: amount.toFixed(4),
          note: input.note,
          configuration,
          providerSecret,
        };
        outcome =
          input.action === 'capture' ? await adapter.capture(call) : await adapter.cancel(call);
      }
      const result = await write((tx) =>
        recordOutcome(deps, tx, scope, { payment, adapter, outcome, amount }, input),
      );
      if (!result.isError && deps.onStatusChanged) {
        await deps.onStatusChanged(scope, {
          paymentTransactionId: input.id,
          status: input.action === 'capture' ? 'Paid' : 'Cancelled',
        });
      }
      return result;
    },

    async events(tx: Tx, scope: DatasetScope, paymentTransactionId: string) {
      await load(tx, scope, paymentTransactionId);
      return readProviderEvents(tx, scope, paymentTransactionId);
    },

    payload: (tx: Tx, scope: DatasetScope, eventId: string) =>
      readProviderEventPayload(tx, scope, eventId),
  };
}
export type PendingPayments = ReturnType<typeof createPendingPayments>;
