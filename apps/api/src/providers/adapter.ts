/**
 * One adapter per payment provider behind one interface (design §1). The calls that move money
 * after a payment was authorised: capture (all or part of it) and cancel.
 */
export interface PendingPaymentCall {
  paymentTransactionId: string;
  providerReference: string | null;
  currency: string;
  /** Decimal string, as stored. */
  amount: string;
  note: string | null;
  /**
   * The payment's provider configuration, read in the transaction before the call: its mode and
   * its credentials in clear (for the call only; never logged or recorded). Null when the payment
   * names no configuration.
   */
  configuration: { isTest: boolean; credentials: Record<string, unknown> } | null;
  /**
   * The payment's own secret from its provider (CheckoutStart.secret: Opayo Server's SecurityKey),
   * in clear for the call only; null or absent when the provider gave none.
   */
  providerSecret?: string | null;
}

/** What the provider said, kept as a provider event for the provider data dialog (spec 2 §2). */
export interface ProviderExchange {
  eventType: string;
  recordType: string;
  recordId: string | null;
  status: string;
  /** The request and the answer, as exchanged. */
  payload: string;
}

export type ProviderOutcome = ({ ok: true } | { ok: false; errorMessage: string }) & { exchange: ProviderExchange };

export interface PaymentProviderAdapter {
  readonly name: string;
  capture(call: PendingPaymentCall): Promise<ProviderOutcome>;
  cancel(call: PendingPaymentCall): Promise<ProviderOutcome>;
}

export interface ProviderRegistry {
  /** The adapter for a payment's provider, or null when Ledgerline cannot act through it yet. */
  forProvider(name: string | null): PaymentProviderAdapter | null;
}

export function createProviderRegistry(adapters: PaymentProviderAdapter[]): ProviderRegistry {
  const byName = new Map(adapters.map((adapter) => [adapter.name.toLowerCase(), adapter]));
  return { forProvider: (name) => (name ? (byName.get(name.toLowerCase()) ?? null) : null) };
}
