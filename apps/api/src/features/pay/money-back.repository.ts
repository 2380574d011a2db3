import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { paymentDisputes as d } from '../../db/schema-receivables.js';
import type { NotificationDispute } from '../../providers/checkout.js';
import { inDataset } from '../../platform/scope.js';
import type { PayScope, PaymentRow } from './pay.repository.js';

/** SQL of the disputes a provider's notices report (payment_disputes, by payment and reference). */

export type DisputeRow = typeof d.$inferSelect;
/** What a notice sets on a dispute (its stage and amount always). */
export type DisputeValues = Pick<typeof d.$inferInsert, 'stage' | 'amount'> &
  Partial<typeof d.$inferInsert>;

/** The payment's dispute of this reference, locked, if it is known. */
export async function lockDispute(
  tx: Tx,
  scope: PayScope,
  paymentTransactionId: string,
  disputeReference: string,
): Promise<DisputeRow | undefined> {
  const [found] = await tx
    .select()
    .from(d)
    .where(
      and(
        inDataset(d, scope),
        eq(d.paymentTransactionId, paymentTransactionId),
        eq(d.disputeReference, disputeReference),
      ),
    )
    .for('update');
  return found;
}

/** The dispute as it now stands: the found row updated, else a new one. */
export async function writeDispute(
  tx: Tx,
  scope: PayScope,
  found: DisputeRow | undefined,
  payment: PaymentRow,
  dispute: NotificationDispute,
  set: DisputeValues,
) {
  if (found)
    await tx
      .update(d)
      .set(set)
      .where(and(inDataset(d, scope), eq(d.id, found.id)));
  else
    await tx.insert(d).values({
      tenantId: scope.tenantId,
      datasetId: scope.datasetId,
      id: uuidv7(),
      paymentTransactionId: payment.id,
      disputeReference: dispute.disputeReference,
      currency: dispute.currency?.toUpperCase() ?? payment.currency,
      reason: dispute.reason,
      ...set,
    });
}
