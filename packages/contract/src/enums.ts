/** spec 1 §4 */
export const datasetStatuses = [
  'Initialise',
  'Provisioning',
  'Error',
  'Deleting',
  'Inactive',
  'Active',
  'Migrating',
  'Resetting',
] as const;
export type DatasetStatus = (typeof datasetStatuses)[number];

/** Working states: a spinner shows and the company cannot be chosen (spec 1 §4). */
export const workingDatasetStatuses: readonly DatasetStatus[] = [
  'Initialise',
  'Provisioning',
  'Deleting',
  'Migrating',
  'Resetting',
];
export function isWorkingDatasetStatus(status: DatasetStatus): boolean {
  return workingDatasetStatuses.includes(status);
}

/** spec 1 §3. `Default` is the built-in host system of dataset 1; it is never offered in forms. */
export const hostSystems = ['Default', 'Sage100', 'Sage200Pro', 'Custom'] as const;
export type HostSystem = (typeof hostSystems)[number];

export const datasetTypes = ['Production', 'Demo'] as const;
export type DatasetType = (typeof datasetTypes)[number];

export const rebuildStatuses = ['None', 'QueuedForRebuild', 'Rebuilding', 'Completed'] as const;
export type RebuildStatus = (typeof rebuildStatuses)[number];

/** spec 1 §3, §9 */
export const baseCurrencies = ['GBP', 'USD', 'EUR', 'CAD', 'SGD', 'THB', 'ZAR'] as const;
export type BaseCurrency = (typeof baseCurrencies)[number];

/** spec 1 §3 */
export const tenantSettingNames = [
  'UsePayerSpaSite',
  'AllowMultiplePaymentProviders',
  'ShowBetaPaymentProviders',
  'AllowLatePayments',
  'AllowInternalNotifications',
  'AllowCustomerNotifications',
] as const;
export type TenantSettingName = (typeof tenantSettingNames)[number];

/** Feature flags of spec 1 §6 and spec 3 (design §4). */
export const featureFlagNames = [
  'PermissionPolicy',
  'NewAccessKeyPage',
  'OpayoPi',
  'Capitalise',
  'settlementConfigurations',
  'paymentPlans',
] as const;
export type FeatureFlagName = (typeof featureFlagNames)[number];

export const defaultDatasetId = 1;

/** spec 2 §3 payment request usage (options.usage); spec 3 §3 the company's default. */
export const usageTypes = ['Single', 'Multiple'] as const;
export type UsageType = (typeof usageTypes)[number];
