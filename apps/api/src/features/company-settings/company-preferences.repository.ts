import { and, eq } from 'drizzle-orm';
import {
  fallbackCountry,
  type CompanyPreferences,
  type PaymentRequestSettings,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import type {
  latePaymentConfigurations,
  settlementConfigurationGroups,
} from '../../db/schema-money-rules.js';
import type { reminderSchedules } from '../../db/schema-reminders.js';
import { companyPreferences } from '../../db/schema-money-rules.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';

type Row = typeof companyPreferences.$inferSelect;
type Changes = Partial<Omit<typeof companyPreferences.$inferInsert, 'tenantId' | 'datasetId'>>;

async function row(tx: Tx, scope: DatasetScope): Promise<Row | undefined> {
  const [found] = await tx
    .select()
    .from(companyPreferences)
    .where(inDataset(companyPreferences, scope));
  return found;
}

/** spec 3 §3; a company without a row reads the defaults (docs/decisions/068-preferences.md, "Preferences"). */
export async function readPreferences(tx: Tx, scope: DatasetScope): Promise<CompanyPreferences> {
  const found = await row(tx, scope);
  return {
    defaultSettlementConfigurationGroupId: found?.defaultSettlementConfigurationGroupId ?? null,
    defaultLatePaymentConfigurationId: found?.defaultLatePaymentConfigurationId ?? null,
    defaultCountryId: found?.defaultCountryId ?? fallbackCountry.id,
    defaultEditPaymentStatus: found?.defaultEditPaymentStatus ?? 'Disable',
    allowTransactionCurrencyChange: found?.allowTransactionCurrencyChange ?? 'Disable',
    defaultReminderScheduleId: found?.defaultReminderScheduleId ?? null,
    reminderTime: found?.reminderTime ?? '09:00',
    reminderTimeZone: found?.reminderTimeZone ?? 'Europe/London',
  };
}

export async function readPaymentRequestSettings(
  tx: Tx,
  scope: DatasetScope,
): Promise<PaymentRequestSettings> {
  const found = await row(tx, scope);
  return {
    validUntilAddition:
      found?.validUntilUnit && found.validUntilQuantity > 0
        ? { unit: found.validUntilUnit, quantity: found.validUntilQuantity }
        : null,
    defaultUsageType: found?.defaultUsageType ?? 'Single',
    linkSize: 'Long',
  };
}

/** One row per company, made by the first save; a save changes only the columns it names. */
export async function savePreferences(tx: Tx, scope: DatasetScope, changes: Changes) {
  await tx
    .insert(companyPreferences)
    .values({ ...scope, ...changes })
    .onConflictDoUpdate({
      target: [companyPreferences.tenantId, companyPreferences.datasetId],
      set: { ...changes, updatedOn: new Date() },
    });
}

/** Whether the company has this settlement group or late-payment configuration (locked for the save). */
export async function companyHas(
  tx: Tx,
  scope: DatasetScope,
  table:
    | typeof settlementConfigurationGroups
    | typeof latePaymentConfigurations
    | typeof reminderSchedules,
  id: string,
): Promise<boolean> {
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(inDataset(table, scope), eq(table.id, id)))
    .for('share');
  return rows.length > 0;
}
