import type { PaymentProviderName } from '@ledgerline/contract';

/**
 * How long each provider keeps what Ledgerline starts with it (docs/decisions/113-holds-and-reservations-last-as-long-as-the.md "Holds and
 * reservations last as long as the provider's own windows"):
 * - sessionMinutes: how long a payer can still finish a payment started on the payer page (the
 *   provider's checkout session, card form or bank flow). A started, unfinished payment holds its
 *   request that long, so a second payer cannot pay a Single request twice.
 * - authorisationDays: how long the provider keeps a reservation (an uncaptured authorisation)
 *   before it lapses; the reservation expiry job cancels ours then.
 */
export const providerWindows: Record<
  PaymentProviderName,
  { sessionMinutes: number; authorisationDays: number }
> = {
  // Checkout Session: expires_at defaults to 24 hours; an uncaptured PaymentIntent lapses after 7 days.
  Stripe: { sessionMinutes: 24 * 60, authorisationDays: 7 },
  // A hosted checkout expires after 30 minutes; a PA (pre-authorisation) is kept about 7 days.
  Oppwa: { sessionMinutes: 30, authorisationDays: 7 },
  // Opayo Server's and Pi's pages with a 3-D Secure challenge: 30 minutes; a DEFERRED payment
  // must be RELEASEd within 30 days, but the card issuer's hold lasts about 6: we keep 6.
  Opayo: { sessionMinutes: 30, authorisationDays: 6 },
  // PaymentFrame: its card form, then an auth-only transaction the issuer holds about 7 days.
  TranSafe: { sessionMinutes: 30, authorisationDays: 7 },
  // A bank redirect (TrueLayer) or a billing-request flow (GoCardless) can take the payer a while
  // at their bank; neither reserves money, the window is a bound only.
  TrueLayer: { sessionMinutes: 60, authorisationDays: 7 },
  GoCardless: { sessionMinutes: 60, authorisationDays: 7 },
  // The Sandbox's card form answers at once: PAY_ATTEMPT_HOLD_MINUTES (10) is its session.
  Sandbox: { sessionMinutes: 0, authorisationDays: 7 },
};

/** A started payment of this provider holds its request this long (minutes); else the configured default. */
export function holdMinutesOf(providerName: string | null, fallback: number): number {
  const minutes = providerWindows[providerName as PaymentProviderName]?.sessionMinutes ?? 0;
  return minutes > 0 ? minutes : fallback;
}

/** When a reservation made now with this provider lapses. */
export function authorisationExpiryOf(providerName: string | null, from: Date = new Date()): Date {
  const days = providerWindows[providerName as PaymentProviderName]?.authorisationDays ?? 7;
  return new Date(from.getTime() + days * 86_400_000);
}
