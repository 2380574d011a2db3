import { and, eq } from 'drizzle-orm';
import type { SettlementOffer } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { settlementOffers } from '../../db/schema-receivables.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';

type OfferRow = typeof settlementOffers.$inferSelect;
const number = (value: string | null) => (value === null ? null : Number(value));

export type SettlementOfferValues = Pick<
  OfferRow,
  'type' | 'description' | 'validFrom' | 'validUntil' | 'currency' | 'amount' | 'percentageDiscount'
>;

export function toSettlementOffer(row: OfferRow): SettlementOffer {
  return {
    id: row.id,
    type: row.type as SettlementOffer['type'],
    transactionId: row.transactionId,
    status: row.status as SettlementOffer['status'],
    description: row.description,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    currency: row.currency,
    amount: number(row.amount),
    percentageDiscount: number(row.percentageDiscount),
    priority: row.priority,
    createdOn: row.createdOn.toISOString(),
  };
}

export async function offersOf(executor: Executor, scope: DatasetScope, transactionId: string) {
  return executor
    .select()
    .from(settlementOffers)
    .where(
      and(inDataset(settlementOffers, scope), eq(settlementOffers.transactionId, transactionId)),
    );
}

export async function insertOffer(
  executor: Executor,
  scope: DatasetScope,
  transactionId: string,
  id: string,
  values: SettlementOfferValues,
) {
  const [row] = await executor
    .insert(settlementOffers)
    .values({
      ...values,
      id,
      transactionId,
      status: 'Open',
      priority: 0,
      tenantId: scope.tenantId,
      datasetId: scope.datasetId,
    })
    .returning();
  return toSettlementOffer(row!);
}

export async function updateOffer(
  executor: Executor,
  scope: DatasetScope,
  transactionId: string,
  id: string,
  values: SettlementOfferValues,
) {
  const [row] = await executor
    .update(settlementOffers)
    .set(values)
    .where(
      and(
        inDataset(settlementOffers, scope),
        eq(settlementOffers.transactionId, transactionId),
        eq(settlementOffers.id, id),
      ),
    )
    .returning();
  return row ? toSettlementOffer(row) : null;
}

export async function deleteOffer(
  executor: Executor,
  scope: DatasetScope,
  transactionId: string,
  id: string,
) {
  const [row] = await executor
    .delete(settlementOffers)
    .where(
      and(
        inDataset(settlementOffers, scope),
        eq(settlementOffers.transactionId, transactionId),
        eq(settlementOffers.id, id),
      ),
    )
    .returning({ id: settlementOffers.id });
  return row !== undefined;
}
