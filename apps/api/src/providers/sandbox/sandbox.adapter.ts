import { randomUUID } from 'node:crypto';
import type { PaymentProviderAdapter, PendingPaymentCall, ProviderOutcome } from '../adapter.js';

/**
 * Ledgerline's own test provider, used by demo companies and tests: it answers at once and never
 * moves money. Like card providers' test cards it declines on purpose: a capture of an amount
 * ending in .99 is declined, so the failure path can be tried from the screens.
 */
export function createSandboxAdapter(): PaymentProviderAdapter {
  function outcome(kind: 'capture' | 'cancel', call: PendingPaymentCall, declined: string | null): ProviderOutcome {
    const recordId = `sbx_${kind}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const answer = declined
      ? { id: recordId, object: kind, status: 'declined', error: { code: 'amount_declined', message: declined } }
      : { id: recordId, object: kind, status: kind === 'capture' ? 'succeeded' : 'canceled', amount: call.amount, currency: call.currency };
    const exchange = {
      eventType: kind === 'capture' ? 'payment.capture' : 'payment.cancel',
      recordType: kind,
      recordId,
      status: answer.status,
      payload: JSON.stringify({ request: { reference: call.providerReference, amount: call.amount, currency: call.currency, note: call.note }, response: answer }, null, 2),
    };
    return declined ? { ok: false, errorMessage: declined, exchange } : { ok: true, exchange };
  }

  return {
    name: 'Sandbox',
    async capture(call) {
      const declined = call.amount.replace(/0+$/, '').endsWith('.99') ? 'The sandbox provider declined the capture (amounts ending in .99 are declined).' : null;
      return outcome('capture', call, declined);
    },
    async cancel(call) {
      return outcome('cancel', call, null);
    },
  };
}
