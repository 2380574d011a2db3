import Big from 'big.js';

/** spec 2 §3 AccountSettings: the account's own switch, and who decides. */
export interface AccountEditSettings {
  editPaymentStatus: string; // Default | Allow | Disable
  editPaymentOverrideStatus: string; // UseAccountStatus | UsePaymentRequest
}

/** spec 2 §3 Transaction allocation: what the request says of one invoice. */
export interface AllocationEditSettings {
  canEditAmount: boolean | null;
  required: boolean | null;
  minimumAmount: string | null;
  maximumAmount: string | null;
}

/**
 * Whether the payer may change what they pay of one invoice of a Transaction request
 * (docs/decisions/081-payers-may-change-what-they-pay-of-an-invoice.md "Payers may change what they pay of an invoice"):
 * - the account's editPaymentOverrideStatus UsePaymentRequest: the allocation's canEditAmount
 *   decides (absent means no);
 * - otherwise the account's editPaymentStatus: Allow / Disable, and Default (or no account)
 *   follows the company preference defaultEditPaymentStatus (absent means Disable).
 */
export function mayEditAmount(
  account: AccountEditSettings | null,
  companyDefault: string | null | undefined,
  allocation: Pick<AllocationEditSettings, 'canEditAmount'>,
): boolean {
  if (account?.editPaymentOverrideStatus === 'UsePaymentRequest')
    return allocation.canEditAmount === true;
  const status = account?.editPaymentStatus ?? 'Default';
  if (status === 'Allow') return true;
  if (status === 'Disable') return false;
  return companyDefault === 'Allow';
}

export interface EditBounds {
  minimumAmount: Big;
  maximumAmount: Big;
  /** False: the invoice may be left out (amount 0). */
  required: boolean;
}

/**
 * The bounds of an editable invoice: minimumAmount (default one minor unit, e.g. 0.01) up to the
 * smaller of maximumAmount and what the invoice costs paid in full today (after its discount, with
 * its fees). A minimum above that is lowered to it. `required` absent means required.
 */
export function editBoundsOf(
  allocation: AllocationEditSettings,
  amountToPay: Big,
  decimals: number,
): EditBounds {
  const unit = new Big(1).div(10 ** decimals);
  let maximum = amountToPay;
  if (allocation.maximumAmount !== null && new Big(allocation.maximumAmount).lt(maximum))
    maximum = new Big(allocation.maximumAmount);
  if (maximum.lt(0)) maximum = new Big(0);
  let minimum =
    allocation.minimumAmount !== null && new Big(allocation.minimumAmount).gt(0)
      ? new Big(allocation.minimumAmount)
      : unit;
  if (minimum.gt(maximum)) minimum = maximum;
  return {
    minimumAmount: minimum.round(decimals, Big.roundUp),
    maximumAmount: maximum.round(decimals, Big.roundDown),
    required: allocation.required !== false,
  };
}
