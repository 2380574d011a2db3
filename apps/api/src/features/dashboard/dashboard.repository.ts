import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { accessKeys } from '../../db/schema.js';
import { companyDetails, companyLogos } from '../../db/schema-company.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { inDataset, inTenant, type DatasetScope } from '../../platform/scope.js';

/** What the to-do list's setup items look at (spec 1 §2.4 and spec 3 §1). */
export interface SetupState {
  /** The tenant has a key of the kind its access keys page makes. */
  hasKey: boolean;
  /** The company's details were saved, and its website if given. */
  details: { website: string | null } | null;
  hasLogo: boolean;
  /** Each configured provider's default mark. */
  providers: { isDefault: boolean }[];
}

export async function readSetupState(
  tx: Tx,
  scope: DatasetScope,
  keyKind: 'access' | 'subscription',
): Promise<SetupState> {
  const [key] = await tx
    .select({ id: accessKeys.id })
    .from(accessKeys)
    .where(
      and(inTenant(accessKeys, scope), eq(accessKeys.kind, keyKind), isNull(accessKeys.deletedAt)),
    )
    .limit(1);
  const [details] = await tx
    .select({ website: companyDetails.website })
    .from(companyDetails)
    .where(inDataset(companyDetails, scope));
  const [logo] = await tx
    .select({ size: companyLogos.fileSize })
    .from(companyLogos)
    .where(inDataset(companyLogos, scope));
  const providers = await tx
    .select({ isDefault: paymentProviders.isDefault })
    .from(paymentProviders)
    .where(inDataset(paymentProviders, scope));
  return {
    hasKey: key !== undefined,
    details: details ?? null,
    hasLogo: logo !== undefined,
    providers,
  };
}

/** The counts of money that needs staff now. */
export interface MoneyCounts {
  duplicated: number;
  duplicatedId: string | null;
  disputes: number;
  disputesDue: number;
  expiring: number;
}

/**
 * A Single request paid twice (Duplicated), disputes still open at the provider (and those due
 * within three days), and reservations whose authorisation ends within two days. One statement of
 * five scalar subqueries, which the partial indexes on status and stage answer; raw, as the
 * subqueries of one select list.
 */
export async function readMoneyCounts(tx: Tx, scope: DatasetScope): Promise<MoneyCounts | null> {
  const result = await tx.execute(sql`
    select
      (select count(*)::int from payment_transactions
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and status = 'Duplicated') as duplicated,
      (select min(id::text) from payment_transactions
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and status = 'Duplicated') as "duplicatedId",
      (select count(*)::int from payment_disputes
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and stage in ('Opened', 'UnderReview')) as disputes,
      (select count(*)::int from payment_disputes
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and stage in ('Opened', 'UnderReview')
          and respond_by < now() + interval '3 days') as "disputesDue",
      (select count(*)::int from payment_transactions
        where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId} and status = 'Pending'
          and authorisation_expires_on < now() + interval '2 days') as expiring`);
  const [row] = (result as unknown as { rows: MoneyCounts[] }).rows;
  return row ?? null;
}
