import Big from 'big.js';
import { and, asc, eq } from 'drizzle-orm';
import { pendingMessages, type PaymentRequest, type PendingActionResult } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { paymentRequests, paymentTransactions as t, providerEvents } from '../../db/schema-receivables.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { PendingPaymentCall, ProviderOutcome, ProviderRegistry } from '../../providers/adapter.js';
import type { PaymentTransactionsRepository, Scope } from './payment-transactions.repository.js';
import { applyMove, type MoveActor } from '../pay/index.js';
import { recordWebhookEvent } from '../web-hooks/index.js';

type Action = 'capture' | 'cancel';
type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

interface PendingActionInput {
  action: Action;
  id: string;
  /** Capture only: what to take of the authorised amount. */
  amount?: number;
  note: string | null;
}

/**
 * spec 2 §4: capture or cancel a Pending payment through its provider. The provider is called
 * between two transactions, never inside one (style.md §7): the first checks the payment, the
 * second records what the provider said (a provider event) and, when it agreed, the new status.
 */
export function createPendingPayments(deps: {
  repository: PaymentTransactionsRepository;
  providers: ProviderRegistry;
  /** The payment's provider configuration (payment-providers area), for the adapter's credentials. */
  configurations?: (tx: Tx, scope: Scope, paymentProviderId: string) => Promise<PendingPaymentCall['configuration']>;
  /** The payment's own provider secret in clear (Opayo Server's SecurityKey), or null. */
  providerSecret?: (tx: Tx, scope: Scope, paymentTransactionId: string) => Promise<string | null>;
  /** The request's web hook payload (payment-request.completed), from the payment-requests area. */
  requestPayload?: (tx: Tx, scope: Scope, paymentRequestId: string) => Promise<PaymentRequest>;
  /** Moves with no route of their own (the reservation expiry job) write their activity as this actor. */
  auditActor?: MoveActor;
  /** Told after the commit that captured or cancelled a payment (the notification mails). */
  onStatusChanged?: (scope: Scope, change: { paymentTransactionId: string; status: 'Paid' | 'Cancelled' }) => Promise<void>;
}) {
  const { repository, providers } = deps;

  async function load(tx: Tx, scope: Scope, id: string, forUpdate = false) {
    const query = tx
      .select()
      .from(t)
      .where(and(eq(t.tenantId, scope.tenantId), eq(t.datasetId, scope.datasetId), eq(t.id, id)));
    // The second transaction holds the payment while it records the provider's answer.
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw new NotFoundError('The payment transaction was not found.');
    return row;
  }

  async function lockRequest(tx: Tx, scope: Scope, id: string) {
    const [row] = await tx
      .select()
      .from(paymentRequests)
      .where(and(eq(paymentRequests.tenantId, scope.tenantId), eq(paymentRequests.datasetId, scope.datasetId), eq(paymentRequests.id, id)))
      .for('update');
    return row ?? null;
  }

  return {
    async run(read: Run, write: Run, scope: Scope, input: PendingActionInput): Promise<PendingActionResult> {
      const [payment, configuration, providerSecret] = await read(async (tx) => {
        const row = await load(tx, scope, input.id);
        const found = row.paymentProviderId && deps.configurations ? await deps.configurations(tx, scope, row.paymentProviderId) : null;
        const secret = deps.providerSecret ? await deps.providerSecret(tx, scope, row.id) : null;
        return [row, found, secret] as const;
      });
      if (payment.status !== 'Pending') throw new ConflictError(pendingMessages.notPending, 'notPending');
      // A capture without an amount takes the whole of it (the reservations queue's bulk capture).
      const amount = input.action === 'capture' ? new Big(input.amount ?? payment.totalAmount) : new Big(payment.totalAmount);
      if (amount.gt(payment.totalAmount)) throw new ValidationError({ amountToCapture: [pendingMessages.amountTooLarge] });

      const adapter = providers.forProvider(payment.paymentProviderName);
      let outcome: ProviderOutcome | null = null;
      if (adapter) {
        const call = { paymentTransactionId: payment.id, providerReference: payment.paymentProviderReference, currency: payment.currency, amount: amount.toFixed(4), note: input.note, configuration, providerSecret };
        outcome = input.action === 'capture' ? await adapter.capture(call) : await adapter.cancel(call);
      }

      const result = await write(async (tx) => {
        const current = await load(tx, scope, input.id, true);
        if (outcome) {
          await tx.insert(providerEvents).values({
            tenantId: scope.tenantId,
            datasetId: scope.datasetId,
            id: uuidv7(),
            paymentTransactionId: current.id,
            providerName: adapter!.name,
            ...outcome.exchange,
            payloadFileName: `${outcome.exchange.recordId ?? current.id}.json`,
          });
        }
        let errorMessage: string | null = null;
        if (!outcome) errorMessage = `Ledgerline cannot ${input.action} payments through ${payment.paymentProviderName ?? 'this provider'} yet; use the provider's own dashboard.`;
        else if (!outcome.ok) errorMessage = outcome.errorMessage;
        else if (current.status !== 'Pending') errorMessage = pendingMessages.notPending;
        else {
          // The lifecycle moves it (features/pay/lifecycle.ts): status, allocations, invoices, request.
          const request = current.paymentRequestId ? await lockRequest(tx, scope, current.paymentRequestId) : null;
          const event = input.action === 'cancel' ? 'cancel' : amount.eq(current.totalAmount) ? 'captureWhole' : 'capturePart';
          const applied = await applyMove(tx, scope, {
            payment: current,
            event,
            request,
            amount: input.action === 'capture' ? amount : null,
            set: input.action === 'capture' ? { totalAmount: amount.toFixed(4) } : {},
            // The route's (or the job's) own activity records it.
            audit: deps.auditActor ? { actor: deps.auditActor } : null,
          });
          // Issue 15: the merchant's systems hear of it once this transaction commits.
          await recordWebhookEvent(tx, scope, {
            type: applied.rule.webHook,
            recordType: 'PaymentTransaction',
            recordId: current.id,
            payload: (await repository.findWithDetails(tx, scope, current.id))!,
          });
          if (applied.completedRequestId && deps.requestPayload)
            await recordWebhookEvent(tx, scope, {
              type: 'payment-request.completed',
              recordType: 'PaymentRequest',
              recordId: applied.completedRequestId,
              payload: await deps.requestPayload(tx, scope, applied.completedRequestId),
            });
        }
        const paymentTransaction = (await repository.find(tx, scope, current.id))!;
        return { isError: errorMessage !== null, errorMessage, paymentTransaction };
      });
      if (!result.isError && deps.onStatusChanged) {
        await deps.onStatusChanged(scope, { paymentTransactionId: input.id, status: input.action === 'capture' ? 'Paid' : 'Cancelled' });
      }
      return result;
    },

    async events(tx: Tx, scope: Scope, paymentTransactionId: string) {
      await load(tx, scope, paymentTransactionId);
      const rows = await tx
        .select()
        .from(providerEvents)
        .where(and(eq(providerEvents.tenantId, scope.tenantId), eq(providerEvents.datasetId, scope.datasetId), eq(providerEvents.paymentTransactionId, paymentTransactionId)))
        .orderBy(asc(providerEvents.createdOn), asc(providerEvents.id));
      return rows.map(({ payload: _payload, tenantId: _tenant, datasetId: _dataset, paymentTransactionId: _payment, ...event }) => ({
        ...event,
        createdOn: event.createdOn.toISOString(),
      }));
    },

    async payload(tx: Tx, scope: Scope, eventId: string) {
      const [row] = await tx
        .select({ payload: providerEvents.payload })
        .from(providerEvents)
        .where(and(eq(providerEvents.tenantId, scope.tenantId), eq(providerEvents.datasetId, scope.datasetId), eq(providerEvents.id, eventId)));
      if (!row) throw new NotFoundError('The provider event was not found.');
      return row.payload;
    },
  };
}
export type PendingPayments = ReturnType<typeof createPendingPayments>;
