import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { payQuotes } from '../../db/schema-pay.js';
import { paymentRequests, paymentTransactions as t } from '../../db/schema-receivables.js';
import { inDataset } from '../../platform/scope.js';
import type { PayScope, PaymentRequestRow } from './pay.repository.js';

/** SQL of a payment's finish (finish.ts) and of the notices giving money back (money-back.ts). */

export type PayQuoteRow = typeof payQuotes.$inferSelect;

/** The payment, locked (of `configurationId` only, when given). */
export async function lockPayment(tx: Tx, scope: PayScope, id: string, configurationId?: string) {
  const [row] = await tx
    .select()
    .from(t)
    .where(
      and(
        inDataset(t, scope),
        eq(t.id, id),
        configurationId ? eq(t.paymentProviderId, configurationId) : undefined,
      ),
    )
    .for('update');
  return row ?? null;
}

/** The payer-page quote a payment was started from, if any. */
export async function quoteOf(tx: Tx, scope: PayScope, paymentTransactionId: string) {
  const [quote] = await tx
    .select()
    .from(payQuotes)
    .where(
      and(inDataset(payQuotes, scope), eq(payQuotes.paymentTransactionId, paymentTransactionId)),
    );
  return quote;
}

/** The quotes several payments were started from. */
export function quotesOf(tx: Tx, scope: PayScope, paymentTransactionIds: string[]) {
  return tx
    .select()
    .from(payQuotes)
    .where(
      and(
        inDataset(payQuotes, scope),
        inArray(payQuotes.paymentTransactionId, paymentTransactionIds),
      ),
    );
}

/** A payment's request, locked (after its payment: the lifecycle's order). */
export async function lockRequest(
  tx: Tx,
  scope: PayScope,
  id: string | null,
): Promise<PaymentRequestRow | undefined> {
  if (!id) return undefined;
  const [request] = await tx
    .select()
    .from(paymentRequests)
    .where(and(inDataset(paymentRequests, scope), eq(paymentRequests.id, id)))
    .for('update');
  return request;
}

/**
 * Several payments and their requests, locked in one round trip: the payments, then the requests,
 * each in id order, so two transactions locking overlapping sets never wait on each other in a
 * circle (finish-batch.ts finishBatch, money-back.ts claimAndLock).
 */
export function lockPaymentsAndRequests(tx: Tx, scope: PayScope, paymentIds: string[]) {
  const ofPayments = and(inDataset(t, scope), inArray(t.id, paymentIds));
  return Promise.all([
    tx.select().from(t).where(ofPayments).orderBy(t.id).for('update'),
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
}

/** Why a payment failed, on its quote (the payer page shows it). */
export async function setQuoteFailure(
  tx: Tx,
  scope: PayScope,
  paymentTransactionId: string,
  failureMessage: string | null,
) {
  await tx
    .update(payQuotes)
    .set({ failureMessage })
    .where(
      and(inDataset(payQuotes, scope), eq(payQuotes.paymentTransactionId, paymentTransactionId)),
    );
}
