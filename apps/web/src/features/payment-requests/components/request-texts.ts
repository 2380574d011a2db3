import type { PaymentRequest } from '@ledgerline/contract';

export { requestStatusTone } from '@/ui/status-tones';

/** spec 2 §4: shown instead of the edit actions when the request cannot be edited. */
export function cannotEditHint(request: PaymentRequest): string {
  return request.requestStatus === 'Open'
    ? 'This payment request cannot be edited: settlement discounts or late payments are applied.'
    : 'Only Open payment requests can be edited.';
}

/** An ISO instant as the day a date field holds (yyyy-mm-dd, UTC as the server stores dates). */
export const dayOfIso = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

export const failedUpdate = 'An error occurred while updating the payment request: ';
