import { randomUUID } from 'node:crypto';
import type {
  PaymentProviderAdapter,
  PendingPaymentCall,
  ProviderOutcome,
  RefundCall,
  RefundOutcome,
} from '../adapter.js';

/** The Sandbox's test amounts (docs/api.md "Sandbox provider"): by the amount's last cents. */
const endsWith = (amount: string, cents: string) => amount.replace(/0+$/, '').endsWith(cents);

/** What the Sandbox answers a capture or a cancel: declined with a reason, or done. */
function outcome(
  kind: 'capture' | 'cancel',
  call: PendingPaymentCall,
  declined: string | null,
): ProviderOutcome {
  const recordId = `sbx_${kind}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const answer = declined
    ? {
        id: recordId,
        object: kind,
        status: 'declined',
        error: { code: 'amount_declined', message: declined },
      }
    : {
        id: recordId,
        object: kind,
        status: kind === 'capture' ? 'succeeded' : 'canceled',
        amount: call.amount,
        currency: call.currency,
      };
  const exchange = {
    eventType: kind === 'capture' ? 'payment.capture' : 'payment.cancel',
    recordType: kind,
    recordId,
    status: answer.status,
    payload: JSON.stringify(
      {
        request: {
          reference: call.providerReference,
          amount: call.amount,
          currency: call.currency,
          note: call.note,
        },
        response: answer,
      },
      null,
      2,
    ),
  };
  return declined ? { ok: false, errorMessage: declined, exchange } : { ok: true, exchange };
}

/**
 * Ledgerline's own test provider, used by demo companies and tests: it answers at once and never
 * moves money. Like card providers' test cards it declines on purpose: a capture of an amount
 * ending in .99 is declined, so the failure path can be tried from the screens. A refund of an
 * amount ending in .99 is declined too; one ending in .98 is accepted as pending (as GoCardless's
 * `created`), finished later by a signed Sandbox notification naming its refund reference.
 */
export function createSandboxAdapter(): PaymentProviderAdapter {
  return {
    name: 'Sandbox',
    async capture(call) {
      const declined = call.amount.replace(/0+$/, '').endsWith('.99')
        ? 'The sandbox provider declined the capture (amounts ending in .99 are declined).'
        : null;
      return outcome('capture', call, declined);
    },
    async cancel(call) {
      return outcome('cancel', call, null);
    },
    async refund(call: RefundCall): Promise<RefundOutcome> {
      const declined = endsWith(call.amount, '.99')
        ? 'The sandbox provider declined the refund (amounts ending in .99 are declined).'
        : null;
      const pending = !declined && endsWith(call.amount, '.98');
      const refundReference = `sbx_refund_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
      const status = declined ? 'declined' : pending ? 'pending' : 'succeeded';
      const answer = declined
        ? { object: 'refund', status, error: { code: 'refund_declined', message: declined } }
        : {
            id: refundReference,
            object: 'refund',
            status,
            amount: call.amount,
            currency: call.currency,
            payment: call.providerReference,
            metadata: { refundTransactionId: call.refundTransactionId },
          };
      const exchange = {
        eventType: 'refund.create',
        recordType: 'refund',
        recordId: declined ? null : refundReference,
        status,
        payload: JSON.stringify(
          {
            request: {
              payment: call.providerReference,
              amount: call.amount,
              currency: call.currency,
              reason: call.reason,
              idempotencyKey: call.refundTransactionId,
            },
            response: answer,
          },
          null,
          2,
        ),
      };
      return declined
        ? { ok: false, errorMessage: declined, exchange }
        : { ok: true, exchange, refundReference, pending };
    },
  };
}
