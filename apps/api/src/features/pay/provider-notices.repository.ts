import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { uuidPattern } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { providerNotifications as n } from '../../db/schema-pay.js';
import { paymentTransactions as t } from '../../db/schema-receivables.js';
import type { CheckoutPaymentStatus, NotificationEvent } from '../../providers/checkout.js';
import { inDataset } from '../../platform/scope.js';
import type { PayScope } from './pay.repository.js';

/**
 * SQL of the stored provider notices (the provider_notifications table: what providers told us
 * about payments): each is claimed by the one transaction that processes it, and marked with what
 * it did.
 */

export type ProviderNoticeRow = typeof n.$inferSelect;

/** What a stored notice says (its `summary` column). */
export interface NoticeSummary {
  paymentTransactionId: string | null;
  providerReference: string | null;
  status: CheckoutPaymentStatus | null;
  errorMessage: string | null;
  /** What the provider says was taken, where it says; absent on older rows. */
  amount?: string | null;
  currency?: string | null;
  /** The money went back after the payment had succeeded (lifecycle.ts lateFailure). */
  lateFailure?: boolean;
  /** A refund or dispute the event reports (money-back.ts handles these). */
  refund?: NotificationEvent['refund'];
  dispute?: NotificationEvent['dispute'];
}

/** Claims a stored notice for this transaction: false when another already processed it. */
export async function claimNotice(tx: Tx, scope: PayScope, id: string) {
  return (await claimNotices(tx, scope, [id])).length > 0;
}

/** Claims stored notices for this transaction: the ids no other one had processed. */
export async function claimNotices(
  tx: Tx,
  scope: PayScope,
  ids: string[],
): Promise<{ id: string }[]> {
  if (ids.length === 0) return [];
  return tx
    .update(n)
    .set({ processedAt: sql`now()` })
    .where(and(inDataset(n, scope), inArray(n.id, ids), isNull(n.processedAt)))
    .returning({ id: n.id });
}

/** A rolled-back lane's notices, claimed before it, left for one by one again. */
export async function unclaimNotices(tx: Tx, scope: PayScope, ids: string[]) {
  if (ids.length === 0) return;
  await tx
    .update(n)
    .set({ processedAt: null })
    .where(and(inDataset(n, scope), inArray(n.id, ids)));
}

/** Records why a notice moved nothing (or what it did), in the claiming transaction. */
export async function markNotice(
  tx: Tx,
  scope: PayScope,
  id: string | undefined,
  outcome: string | null,
) {
  if (!id) return;
  await tx
    .update(n)
    .set({ outcome })
    .where(and(inDataset(n, scope), eq(n.id, id)));
}

/** Several notices' outcomes in one statement (a group's, at its end). */
export async function markNotices(
  tx: Tx,
  scope: PayScope,
  outcomes: { id: string; outcome: string }[],
) {
  if (outcomes.length === 0) return;
  const values = outcomes.map((held) => sql`(${held.id}::uuid, ${held.outcome}::text)`);
  await tx.execute(sql`
    update ${n} set outcome = v.outcome
    from (values ${sql.join(values, sql`, `)}) as v(id, outcome)
    where ${inDataset(n, scope)} and ${n.id} = v.id`);
}

/** A notice naming no payment of its configuration: processed, with why, unless another was first. */
export async function closeUnmatchedNotice(tx: Tx, scope: PayScope, id: string, outcome: string) {
  await tx
    .update(n)
    .set({ processedAt: new Date(), outcome })
    .where(and(inDataset(n, scope), eq(n.id, id), isNull(n.processedAt)));
}

/** A company's unprocessed notices, oldest first, at most `limit`. */
export async function unprocessedNotices(tx: Tx, scope: PayScope, limit: number) {
  return tx
    .select()
    .from(n)
    .where(and(inDataset(n, scope), isNull(n.processedAt)))
    .orderBy(asc(n.receivedAt), asc(n.id))
    .limit(limit);
}

/** The payment a notice is about: by our id, else by the provider's reference, of that configuration only. */
export async function paymentIdOfNotice(
  tx: Tx,
  scope: PayScope,
  configurationId: string,
  summary: NoticeSummary,
) {
  const byId = summary.paymentTransactionId && uuidPattern.test(summary.paymentTransactionId);
  if (!byId && !summary.providerReference) return null;
  const [row] = await tx
    .select({ id: t.id })
    .from(t)
    .where(
      and(
        inDataset(t, scope),
        eq(t.paymentProviderId, configurationId),
        byId
          ? eq(t.id, summary.paymentTransactionId!)
          : eq(t.paymentProviderReference, summary.providerReference!),
      ),
    );
  return row?.id ?? null;
}
