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

export type ProviderOutcome = ({ ok: true } | { ok: false; errorMessage: string }) & {
  exchange: ProviderExchange;
};

/**
 * Give money back through the provider's own refund API. `amount` (inherited) is what
 * to refund now, a decimal string in major units, never more than what is left of the payment
 * (the books check that before the call).
 */
export interface RefundCall extends PendingPaymentCall {
  /**
   * Our id for this refund (the Refund-type payment transaction's id): unique per refund, so it
   * is the provider's idempotency key, vendor code or merchant transaction id where it takes one.
   */
  refundTransactionId: string;
  /** What the payment was for in total (major units): a provider may pick reversal vs refund by it. */
  paymentAmount: string;
  /** Staff's reason, where the provider carries one (Stripe `reason`/metadata, Opayo Description). */
  reason: string | null;
  /**
   * What earlier refunds of this payment gave back (major units), as the books hold it: GoCardless
   * must be told the total of all refunds including this one (`total_amount_confirmation`), so two
   * refunds made unaware of each other are refused. Absent: the adapter asks the provider.
   */
  alreadyRefunded?: string | null;
  /** Ledgerline's payment reference, where the provider shows the payer a refund reference (TrueLayer). */
  ledgerlineReference?: string | null;
}

/**
 * What the provider said to a refund. ok: the provider accepted it; `pending` when it is not final
 * yet (TrueLayer `pending`, GoCardless `created`): its notification finishes it later.
 */
export type RefundOutcome = ProviderOutcome & {
  /** The provider's id of the refund (Stripe `re_…`, GoCardless `RF…`, OPPWA's RF id...). */
  refundReference?: string | null;
  pending?: boolean;
};

export interface PaymentProviderAdapter {
  readonly name: string;
  capture(call: PendingPaymentCall): Promise<ProviderOutcome>;
  cancel(call: PendingPaymentCall): Promise<ProviderOutcome>;
  /** Absent: the provider has no refund API Ledgerline can call (staff refund in its portal). */
  refund?(call: RefundCall): Promise<RefundOutcome>;
}

export interface ProviderRegistry {
  /** The adapter for a payment's provider, or null when Ledgerline cannot act through it yet. */
  forProvider(name: string | null): PaymentProviderAdapter | null;
}

export function createProviderRegistry(adapters: PaymentProviderAdapter[]): ProviderRegistry {
  const byName = new Map(adapters.map((adapter) => [adapter.name.toLowerCase(), adapter]));
  return { forProvider: (name) => (name ? (byName.get(name.toLowerCase()) ?? null) : null) };
}
