import Big from 'big.js';
import { currencyDecimalPlaces, refundMessages, type RefundResult } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderRegistry,
  RefundOutcome,
} from '../../providers/adapter.js';
import {
  lockPaymentAndRequest,
  moveForRefund,
  refundableAmount,
  refundableStatuses,
  refundRow,
} from '../pay/index.js';
import { insertProviderEvent } from './provider-events.repository.js';
import {
  deleteRefund,
  finishRefund,
  insertRefund,
  type PaymentTransactionsRepository,
} from './payment-transactions.repository.js';

type Run = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export interface RefundInput {
  id: string;
  amount: number;
  reason: string | null;
}

interface RefundsDeps {
  repository: PaymentTransactionsRepository;
  providers: ProviderRegistry;
  configurations?: (
    tx: Tx,
    scope: DatasetScope,
    paymentProviderId: string,
  ) => Promise<PendingPaymentCall['configuration']>;
  providerSecret?: (
    tx: Tx,
    scope: DatasetScope,
    paymentTransactionId: string,
  ) => Promise<string | null>;
}

type Reserved = Awaited<ReturnType<typeof reserve>>;

/**
 * Step 1: checks the payment (paid, a Payment, a provider that can refund, the amount within what
 * is left) and keeps the Refund transaction as Processing.
 */
async function reserve(deps: RefundsDeps, tx: Tx, scope: DatasetScope, input: RefundInput) {
  const locked = await lockPaymentAndRequest(tx, scope, input.id);
  if (!locked) throw new NotFoundError('The payment transaction was not found.');
  const { payment } = locked;
  if (payment.type !== 'Payment') throw new ConflictError(refundMessages.isRefund, 'isRefund');
  if (!refundableStatuses.includes(payment.status))
    throw new ConflictError(refundMessages.notRefundable, 'notRefundable');
  const adapter = deps.providers.forProvider(payment.paymentProviderName);
  if (!adapter?.refund) throw new ConflictError(refundMessages.notSupported, 'refundNotSupported');
  const amount = new Big(input.amount);
  const left = await refundableAmount(tx, scope, payment);
  if (amount.gt(left)) {
    const places = currencyDecimalPlaces(payment.currency);
    const message = refundMessages.moreThanLeft(`${payment.currency} ${left.toFixed(places)}`);
    throw new UnprocessableError(message, { amount: [message] });
  }
  const refundId = uuidv7();
  await insertRefund(
    tx,
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

/** Step 2: the provider's refund; no answer is a refusal that keeps what was sent. */
async function callProvider(
  adapter: PaymentProviderAdapter,
  reserved: Reserved,
  input: RefundInput,
): Promise<RefundOutcome> {
  const { payment, amount, refundId } = reserved;
  try {
    return await adapter.refund!({
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
    return {
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
}

/**
 * Step 3: keeps the provider's answer as a provider event on the payment and, when it agreed,
 * moves the payment through the lifecycle (its invoices owe again); when it refused, the
 * reservation goes and nothing else changes.
 */
async function record(
  deps: RefundsDeps,
  tx: Tx,
  scope: DatasetScope,
  reserved: Reserved,
  outcome: RefundOutcome,
): Promise<RefundResult> {
  const { payment, adapter, amount, refundId } = reserved;
  const locked = await lockPaymentAndRequest(tx, scope, payment.id);
  if (!locked) throw new NotFoundError('The payment transaction was not found.');
  await insertProviderEvent(tx, scope, {
    paymentTransactionId: payment.id,
    providerName: adapter.name,
    exchange: outcome.exchange,
    fallbackRecordId: refundId,
  });
  let errorMessage: string | null = null;
  if (!outcome.ok) {
    errorMessage = outcome.errorMessage;
    await deleteRefund(tx, scope, refundId);
  } else {
    const pending = outcome.pending === true;
    await finishRefund(tx, scope, refundId, {
      reference: outcome.refundReference ?? null,
      status: pending ? 'Processing' : 'Refunded',
    });
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
    deps.repository.findWithDetails(tx, scope, payment.id),
    outcome.ok ? deps.repository.find(tx, scope, refundId) : null,
  ]);
  return {
    isError: errorMessage !== null,
    errorMessage,
    paymentTransaction: paymentTransaction!,
    refund,
  };
}

/**
 * Staff give money back through the payment's provider (POST payment-transactions/{id}/refund).
 * Three steps, the provider called between two transactions (style.md §7): `reserve`, the
 * provider's refund, and `record`. The reservation means two refunds at once can never together
 * pass what is left (docs/decisions/115-a-refund-is-reserved-before-its-provider-call.md "A
 * refund is reserved before its provider call"); a refusal is `isError` with the provider's words.
 */
export function createRefunds(deps: RefundsDeps) {
  return {
    /**
     * `reserveIn` runs step 1 (a transaction without an audit activity: the call's one activity is
     * written with its outcome by `recordIn`); `recordIn` runs step 3.
     */
    async run(
      reserveIn: Run,
      recordIn: (fn: (tx: Tx) => Promise<RefundResult>) => Promise<RefundResult>,
      scope: DatasetScope,
      input: RefundInput,
    ): Promise<RefundResult> {
      const reserved = await reserveIn((tx) => reserve(deps, tx, scope, input));
      const outcome = await callProvider(reserved.adapter, reserved, input);
      return recordIn((tx) => record(deps, tx, scope, reserved, outcome));
    },
  };
}
export type Refunds = ReturnType<typeof createRefunds>;
