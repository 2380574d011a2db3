import { randomUUID } from 'node:crypto';
import type { RefundCall } from '../../src/providers/adapter.js';

/** A refund call as the books make one (issue 19): our refund's id is its idempotency key. */
export function refundCall(
  credentials: Record<string, unknown>,
  overrides: Partial<RefundCall> & Pick<RefundCall, 'providerReference'>,
): RefundCall {
  return {
    paymentTransactionId: randomUUID(),
    currency: 'GBP',
    amount: '10.00',
    note: null,
    configuration: { isTest: true, credentials },
    refundTransactionId: randomUUID(),
    paymentAmount: '92.50',
    reason: null,
    ...overrides,
  };
}
