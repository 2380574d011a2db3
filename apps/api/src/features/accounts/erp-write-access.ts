/** What the ERP writes of accounts and payers need, as their calls describe it. */
export const erpWriteAccess =
  'Needs the PushErpData permission: an access key, an Administrator or a Standard user (docs/decisions.md, "ERP data writes").';
