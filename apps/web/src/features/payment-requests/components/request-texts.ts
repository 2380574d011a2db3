import type { PaymentRequest } from '@ledgerline/contract';

export { requestStatusTone } from '@/ui/status-tones';

/** spec 2 §4: shown instead of the edit actions when the request cannot be edited. */
export function cannotEditHint(request: PaymentRequest): string {
  return request.requestStatus === 'Open'
    ? 'This payment request cannot be edited: settlement discounts or late payments are applied.'
    : 'Only Open payment requests can be edited.';
}

/**
 * An ISO instant as the day a date field holds and the details card shows (yyyy-mm-dd, its UTC
 * day): the site sends a valid-from day as its UTC start and a valid-to day as its UTC end, so
 * 'Valid to 30 June' reads 30 June in every time zone.
 */
export const dayOfIso = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

export const failedUpdate = 'An error occurred while updating the payment request: ';

/** spec 2 §4: the shown usage is the request's own, else the account's default, else Single. */
export function shownUsage(request: PaymentRequest): 'Single' | 'Multiple' {
  return request.options.usage ?? request.account?.defaultUsageType ?? 'Single';
}
