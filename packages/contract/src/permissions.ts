/** Permission names of spec 1 §6. */
export const permissions = [
  'ConfigureSystemSettings',
  'ViewAuditLogs',
  'ManageAccessKeys',
  'ManageSubscriptionKeys',
  'ConfigurePaymentProvider',
  'DeletePaymentProvider',
  'CreateSettlementConfigurations',
  'EditSettlementConfigurations',
  'DeleteSettlementConfigurations',
  'CreateLatePayments',
  'EditLatePayments',
  'DeleteLatePayments',
  'CreateCompanies',
  'EditCompanies',
  'DeleteCompanies',
  'EditAccountSettings',
  'UploadTransactionDocument',
  'DeleteTransactionDocument',
  'EditTransactionSettlementOffer',
  'EditPaymentRequest',
  'ExportPaymentTransactions',
  'ImportAllocatedStatus',
  'ChangeAllocatedStatus',
  'CancelPendingPayment',
  'CapturePendingPayment',
  // Not in the spec (docs/decisions/114-refunds-are-an-administrator-s-and-a-refund-is-a.md "Refunds are an Administrator's"): give money
  // back through the payment's provider. Administrators only: it moves money out.
  'RefundPayment',
  // Not in the spec (docs/decisions/020-erp-data-writes.md, "ERP data writes"): pushing banks, accounts and
  // transactions the way an ERP connector does.
  'PushErpData',
] as const;
export type Permission = (typeof permissions)[number];

export const roles = ['Administrator', 'Standard', 'Viewer'] as const;
export type Role = (typeof roles)[number];

/** design §4: what each role may do. */
export const rolePermissions: Record<Role, readonly Permission[]> = {
  Administrator: permissions,
  Standard: [
    'EditPaymentRequest',
    'ExportPaymentTransactions',
    'ImportAllocatedStatus',
    'ChangeAllocatedStatus',
    'CapturePendingPayment',
    'CancelPendingPayment',
    'EditAccountSettings',
    'UploadTransactionDocument',
    'DeleteTransactionDocument',
    'EditTransactionSettlementOffer',
    'CreateSettlementConfigurations',
    'EditSettlementConfigurations',
    'DeleteSettlementConfigurations',
    'CreateLatePayments',
    'EditLatePayments',
    'DeleteLatePayments',
    'ViewAuditLogs',
    'PushErpData',
  ],
  Viewer: [],
};

/**
 * spec 1 §6: with the PermissionPolicy flag off every check passes; with it on, an array of
 * permissions requires all of them. The server always enforces (design §3); this decides what the
 * site shows.
 */
export function hasPermissions(
  granted: readonly string[],
  required: Permission | readonly Permission[] | undefined,
  permissionPolicy: boolean,
): boolean {
  if (!permissionPolicy || required === undefined) return true;
  const list = typeof required === 'string' ? [required] : required;
  return list.every((p) => granted.includes(p));
}
