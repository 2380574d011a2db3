import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import { currencyDecimalPlaces, refundMessages, type RefundResult } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { paymentTransactions as t, providerEvents } from '../../db/schema-receivables.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../platform/errors.js';
import type {
  PendingPaymentCall,
  ProviderRegistry,
  RefundOutcome,
} from '../../providers/adapter.js';
import type { PaymentTransactionsRepository, Scope } from './payment-transactions.repository.js';
import {
  lockPaymentAndRequest,
  moveForRefund,
  refundableAmount,
  refundableStatuses,
  refundRow,
} from '../pay/index.js';

type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export interface RefundInput {
  id: string;
  amount: number;
  reason: string | null;
}

/**
 * Issue 19: staff give money back through the payment's provider (POST
 * payment-transactions/{id}/refund). Three steps, the provider called between two transactions
 * (style.md §7):
 * 1. `reserve` checks the payment (paid, a Payment, a provider that can refund, the amount within
 *    what is left) and keeps the Refund transaction as Processing, so two refunds at once can never
 *    together pass what is left (docs/decisions/115-a-refund-is-reserved-before-its-provider-call.md "A refund is reserved before its provider call");
 * 2. the provider's refund;
 * 3. `record` keeps the provider's answer as a provider event on the payment and, when it agreed,
 *    moves the payment through the lifecycle (its invoices owe again); when it refused, the
 *    reservation goes and nothing else changes: the answer is `isError` with the provider's words.
 */
export function createRefunds(deps: {
  repository: PaymentTransactionsRepository;
  providers: ProviderRegistry;
  configurations?: (
    tx: Tx,
    scope: Scope,
    paymentProviderId: string,
  ) => Promise<PendingPaymentCall['configuration']>;
  providerSecret?: (tx: Tx, scope: Scope, paymentTransactionId: string) => Promise<string | null>;
}) {
  const { repository, providers } = deps;

  async function reserve(tx: Tx, scope: Scope, input: RefundInput) {
    const locked = await lockPaymentAndRequest(tx, scope, input.id);
    if (!locked) throw new NotFoundError('The payment transaction was not found.');
    const { payment } = locked;
    if (payment.type !== 'Payment') throw new ConflictError(refundMessages.isRefund, 'isRefund');
    if (!refundableStatuses.includes(payment.status))
      throw new ConflictError(refundMessages.notRefundable, 'notRefundable');
    const adapter = providers.forProvider(payment.paymentProviderName);
    if (!adapter?.refund)
      throw new ConflictError(refundMessages.notSupported, 'refundNotSupported');
    const amount = new Big(input.amount);
    const left = await refundableAmount(tx, scope, payment);
    if (amount.gt(left)) {
      const places = currencyDecimalPlaces(payment.currency);
      const message = refundMessages.moreThanLeft(`${payment.currency} ${left.toFixed(places)}`);
      throw new UnprocessableError(message, { amount: [message] });
    }
    const refundId = uuidv7();
    await tx
      .insert(t)
      .values(
        refundRow(scope, payment, {
          id: refundId,
          amount,
          reason: input.reason,
          providerReference: null,
          status: 'Processing',
        }),
      );
    const configuration =
      payment.paymentProviderId && deps.configurations
        ? await deps.configurations(tx, scope, payment.paymentProviderId)
        : null;
    const providerSecret = deps.providerSecret
      ? await deps.providerSecret(tx, scope, payment.id)
      : null;
    return { payment, adapter, amount, refundId, configuration, providerSecret };
  }

  return {
    /**
     * `reserveIn` runs step 1 (a transaction without an audit activity: the call's one activity is
     * written with its outcome by `recordIn`); `recordIn` runs step 3.
     */
    async run(
      reserveIn: Run,
      recordIn: (fn: (tx: Tx) => Promise<RefundResult>) => Promise<RefundResult>,
      scope: Scope,
      input: RefundInput,
    ): Promise<RefundResult> {
      const reserved = await reserveIn((tx) => reserve(tx, scope, input));
      const { payment, adapter, amount, refundId } = reserved;
      let outcome: RefundOutcome;
      try {
        outcome = await adapter.refund!({
          paymentTransactionId: payment.id,
          refundTransactionId: refundId,
          providerReference: payment.paymentProviderReference,
          currency: payment.currency,
          amount: amount.toFixed(4),
          paymentAmount: payment.totalAmount,
          note: input.reason,
          reason: input.reason,
          configuration: reserved.configuration,
          providerSecret: reserved.providerSecret,
        });
      } catch (error) {
        // No answer: nothing is known to have moved; the reservation goes (the provider's own
        // records and its notification would show a refund it made after all).
        outcome = {
          ok: false,
          errorMessage: `${adapter.name} did not answer the refund: ${error instanceof Error ? error.message : 'no answer'}`,
          exchange: {
            eventType: 'refund.create',
            recordType: 'refund',
            recordId: null,
            status: 'error',
            payload: JSON.stringify({
              error: error instanceof Error ? error.message : String(error),
            }),
          },
        };
      }

      return recordIn(async (tx) => {
        const locked = await lockPaymentAndRequest(tx, scope, payment.id);
        if (!locked) throw new NotFoundError('The payment transaction was not found.');
        await tx.insert(providerEvents).values({
          tenantId: scope.tenantId,
          datasetId: scope.datasetId,
          id: uuidv7(),
          paymentTransactionId: payment.id,
          providerName: adapter.name,
          ...outcome.exchange,
          payloadFileName: `${outcome.exchange.recordId ?? refundId}.json`,
        });
        const ofRefund = and(
          eq(t.tenantId, scope.tenantId),
          eq(t.datasetId, scope.datasetId),
          eq(t.id, refundId),
        );
        let errorMessage: string | null = null;
        if (!outcome.ok) {
          errorMessage = outcome.errorMessage;
          await tx.delete(t).where(ofRefund);
        } else {
          const pending = outcome.pending === true;
          await tx
            .update(t)
            .set({
              paymentProviderReference: outcome.refundReference ?? null,
              status: pending ? 'Processing' : 'Refunded',
              statusDateTime: new Date(),
            })
            .where(ofRefund);
          // What is left besides this refund (it is counted while Processing).
          const left = (await refundableAmount(tx, scope, locked.payment)).plus(amount);
          await moveForRefund(tx, scope, {
            payment: locked.payment,
            request: locked.request,
            amount,
            left,
            audit: null,
            tell: !pending,
          });
        }
        const [paymentTransaction, refund] = await Promise.all([
          repository.findWithDetails(tx, scope, payment.id),
          outcome.ok ? repository.find(tx, scope, refundId) : null,
        ]);
        return {
          isError: errorMessage !== null,
          errorMessage,
          paymentTransaction: paymentTransaction!,
          refund,
        };
      });
    },
  };
}
export type Refunds = ReturnType<typeof createRefunds>;
