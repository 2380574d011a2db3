import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.js';
import {
  companyDetails,
  customerNotificationSettings,
  notificationRecipients,
} from '../../db/schema-company.js';
import {
  companyPreferences,
  latePaymentConfigurations,
  settlementConfigurationGroups,
  settlementConfigurations,
} from '../../db/schema-money-rules.js';
import { reminderSchedules } from '../../db/schema-reminders.js';
import { inDataset } from '../../platform/scope.js';

/**
 * What a copier is told: the two companies, and the ids the copy gave so far to the source's
 * records (source id → new id), so a later copier can point at the copies (the preferences name
 * a default settlement group and a default late-payment configuration).
 */
export interface CopyScope {
  tenantId: string;
  fromDatasetId: number;
  toDatasetId: number;
  newIds: Map<string, string>;
}

/** The company copied from. */
const copiedFrom = (scope: CopyScope) => ({
  tenantId: scope.tenantId,
  datasetId: scope.fromDatasetId,
});

/** Copies one part of a company's configuration into a new company, in the creating transaction. */
export type ConfigurationCopier = (tx: Executor, scope: CopyScope) => Promise<void>;

/** Settlement groups with each of their configurations (spec 3 §3). */
export const copySettlementGroups: ConfigurationCopier = async (tx, scope) => {
  const groups = await tx
    .select()
    .from(settlementConfigurationGroups)
    .where(inDataset(settlementConfigurationGroups, copiedFrom(scope)));
  if (groups.length === 0) return;
  for (const group of groups) scope.newIds.set(group.id, uuidv7());
  await tx.insert(settlementConfigurationGroups).values(
    groups.map((group) => ({
      ...group,
      datasetId: scope.toDatasetId,
      id: scope.newIds.get(group.id)!,
    })),
  );
  const configurations = await tx
    .select()
    .from(settlementConfigurations)
    .where(inDataset(settlementConfigurations, copiedFrom(scope)));
  if (configurations.length === 0) return;
  await tx.insert(settlementConfigurations).values(
    configurations.map((configuration) => ({
      ...configuration,
      datasetId: scope.toDatasetId,
      id: uuidv7(),
      groupId: scope.newIds.get(configuration.groupId)!,
    })),
  );
};

/** Late-payment configurations (spec 3 §3). */
export const copyLatePayments: ConfigurationCopier = async (tx, scope) => {
  const rows = await tx
    .select()
    .from(latePaymentConfigurations)
    .where(inDataset(latePaymentConfigurations, copiedFrom(scope)));
  if (rows.length === 0) return;
  for (const row of rows) scope.newIds.set(row.id, uuidv7());
  await tx
    .insert(latePaymentConfigurations)
    .values(
      rows.map((row) => ({ ...row, datasetId: scope.toDatasetId, id: scope.newIds.get(row.id)! })),
    );
};

/** Reminder schedules; their steps keep their ids, which only the copy's invoices use. */
export const copyReminderSchedules: ConfigurationCopier = async (tx, scope) => {
  const rows = await tx
    .select()
    .from(reminderSchedules)
    .where(inDataset(reminderSchedules, copiedFrom(scope)));
  if (rows.length === 0) return;
  for (const row of rows) scope.newIds.set(row.id, uuidv7());
  await tx
    .insert(reminderSchedules)
    .values(
      rows.map((row) => ({ ...row, datasetId: scope.toDatasetId, id: scope.newIds.get(row.id)! })),
    );
};

/**
 * Preferences and payment request settings (one row). The defaults point at the copies of the
 * source's defaults; run after the settlement group and late-payment copiers.
 */
export const copyPreferences: ConfigurationCopier = async (tx, scope) => {
  const [row] = await tx
    .select()
    .from(companyPreferences)
    .where(inDataset(companyPreferences, copiedFrom(scope)));
  if (!row) return;
  const copyOf = (id: string | null) => (id === null ? null : (scope.newIds.get(id) ?? null));
  await tx.insert(companyPreferences).values({
    ...row,
    datasetId: scope.toDatasetId,
    defaultSettlementConfigurationGroupId: copyOf(row.defaultSettlementConfigurationGroupId),
    defaultLatePaymentConfigurationId: copyOf(row.defaultLatePaymentConfigurationId),
    defaultReminderScheduleId: copyOf(row.defaultReminderScheduleId),
    updatedOn: new Date(),
  });
};

/** Notification settings: the internal recipients (User tab) and the customer switches. */
export const copyNotificationSettings: ConfigurationCopier = async (tx, scope) => {
  const recipients = await tx
    .select()
    .from(notificationRecipients)
    .where(inDataset(notificationRecipients, copiedFrom(scope)));
  if (recipients.length > 0) {
    await tx.insert(notificationRecipients).values(
      recipients.map((recipient) => ({
        ...recipient,
        datasetId: scope.toDatasetId,
        id: uuidv7(),
        createdOn: new Date(),
      })),
    );
  }
  const switches = await tx
    .select()
    .from(customerNotificationSettings)
    .where(inDataset(customerNotificationSettings, copiedFrom(scope)));
  if (switches.length > 0) {
    await tx
      .insert(customerNotificationSettings)
      .values(switches.map((setting) => ({ ...setting, datasetId: scope.toDatasetId })));
  }
};

/** Company details (name, website, main address). The logo is customisation and stays behind. */
export const copyCompanyDetails: ConfigurationCopier = async (tx, scope) => {
  const [row] = await tx
    .select()
    .from(companyDetails)
    .where(inDataset(companyDetails, copiedFrom(scope)));
  if (!row) return;
  await tx
    .insert(companyDetails)
    .values({ ...row, datasetId: scope.toDatasetId, updatedOn: new Date() });
};

/**
 * Every part in order (the preferences after the records they name). Payment providers (their
 * credentials and configurations), access keys and web hooks are never copied: a copy would put
 * one merchant account's secrets behind a second company (docs/decisions/128-copy-from-company-what-is-copied-and-when.md "Copy-from company").
 */
export const configurationCopiers: ConfigurationCopier[] = [
  copySettlementGroups,
  copyLatePayments,
  copyReminderSchedules,
  copyPreferences,
  copyNotificationSettings,
  copyCompanyDetails,
];
