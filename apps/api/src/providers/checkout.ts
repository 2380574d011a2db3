import type { PaymentNextStep } from '@ledgerline/contract';
import type { ProviderExchange } from './adapter.js';

/**
 * How a payer pays through a provider: start a checkout, learn its outcome, and read
 * the provider's signed notifications. One adapter per provider; the payer-page service calls
 * them between transactions, never inside one (style.md §7).
 */

/** The statuses a provider can move a payment to (spec 2 §3 payment transaction statuses). */
export type CheckoutPaymentStatus =
  'Processing' | 'Pending' | 'Paid' | 'Failed' | 'NotAuthorised' | 'Rejected' | 'Cancelled';

export interface CheckoutConfiguration {
  id: string;
  isTest: boolean;
  /** The sealed credentials in clear, for the call only; never logged or recorded. */
  credentials: Record<string, unknown>;
  /** The configuration's non-secret settings (display name, method types, filters...). */
  settings: Record<string, unknown>;
}

export interface CheckoutStartInput {
  paymentTransactionId: string;
  /** Ledgerline's payment reference, shown to the payer by the provider where it can. */
  ledgerlineReference: string;
  /** Decimal string in the currency's major unit, as stored. */
  amount: string;
  currency: string;
  /** Reserve: authorise only (manual capture); Immediate: take the money. */
  captureType: 'Immediate' | 'Reserve';
  description: string;
  payer: {
    firstNames?: string;
    surname?: string;
    companyName?: string;
    emailAddress?: string;
    /**
     * ISO 3166-1 alpha-2 of the payer's address. The payer page asks for no address, so it is the
     * company's default country (spec 3 §3 preferences); GB when absent.
     */
    country?: string;
  };
  /**
   * Store the card for later payments: true only when the configuration stores
   * cards and the payer ticked the page's box. Absent or false: the card serves this payment only.
   */
  saveCard?: boolean;
  /** Where the provider sends the payer back: `<PUBLIC_URL>/pay/{id}?payment={paymentId}`. */
  returnUrl: string;
  /** Where the provider sends a payer who gives up (the same page, `&cancelled=1`). */
  cancelUrl: string;
  /** `<PUBLIC_URL>/api/v0/webhooks/{provider}/{configurationId}`. */
  notificationUrl: string;
  configuration: CheckoutConfiguration;
}

export interface CheckoutStart {
  next: PaymentNextStep;
  /** The provider's id for this payment or session, kept as paymentProviderReference. */
  providerReference: string | null;
  exchange: ProviderExchange;
  /**
   * A secret the provider gave for this one payment (Opayo Server's SecurityKey), opaque to
   * Ledgerline: kept sealed with the payment and handed back to the adapter for the payment's
   * notifications and its capture / cancel calls. Never recorded in the exchange.
   */
  secret?: string;
}

export interface CheckoutStatusInput {
  paymentTransactionId: string;
  providerReference: string | null;
  /** The query the provider put on the return URL (OPPWA resourcePath, TrueLayer payment_id...). */
  returnQuery: Record<string, string>;
  configuration: CheckoutConfiguration;
}

export interface CheckoutStatus {
  status: CheckoutPaymentStatus;
  /** The provider's id, when only now known. */
  providerReference?: string | null;
  /**
   * Our payment transaction id as the provider's answer names it (Stripe's metadata, OPPWA's
   * merchantTransactionId), or null when it names none. An answer found through an id from the
   * return URL settles a payment only when it names that payment.
   */
  paymentTransactionId?: string | null;
  paymentMethodType?: 'Card' | 'BankTransfer' | 'BankDebit' | null;
  /** For the payer when it failed ('Your card was declined'). */
  errorMessage?: string | null;
  /**
   * What the provider says it took or reserved (major units, decimal string) and in which
   * currency, where its answer carries them: the books refuse and record a mismatch with the
   * payment's own amount or currency.
   */
  amount?: string | null;
  currency?: string | null;
  exchange: ProviderExchange;
  /**
   * The card issuer wants 3-D Secure (Opayo Pi `3DAuth`): the payment stays Processing, the page
   * POSTs `creq` and `threeDSSessionData` to `acsUrl`, and the issuer's page sends the payer back
   * to CheckoutTicketInput.challengeUrl with `cres` (completeChallenge).
   */
  challenge?: { acsUrl: string; creq: string; threeDSSessionData: string };
}

/** One thing a provider's notification says about one payment. */
export interface NotificationEvent {
  /** The provider's own event id: a notification is processed once per (provider, eventId). */
  eventId: string;
  /** Our payment transaction id when the provider echoes it (metadata), else null. */
  paymentTransactionId: string | null;
  /** The provider's payment or session id, to find the payment when the id above is null. */
  providerReference: string | null;
  /** The status it moves the payment to, or null when the event says nothing about status. */
  status: CheckoutPaymentStatus | null;
  eventType: string;
  /** The event as received (one event of a batch), kept as the provider event's payload. */
  payload: string;
  errorMessage?: string | null;
  /**
   * The merchant's account at the provider the event comes from (Stripe's `account`, GoCardless's
   * `links.organisation`), for platform-wide providers (see CheckoutAdapter.accountOf).
   */
  account?: string | null;
  /** What the provider says was taken (major units) and its currency, where the event carries them. */
  amount?: string | null;
  currency?: string | null;
  /**
   * A status move that comes after the payment had succeeded (GoCardless `failed` after
   * `confirmed`/`paid_out`, `late_failure_settled`): the money is gone again. Only with this flag
   * may a notification move a Paid payment to Failed.
   */
  lateFailure?: boolean;
  /** A refund the event reports: provider-initiated, or the outcome of one staff asked for. */
  refund?: NotificationRefund;
  /** A dispute or chargeback the event reports. */
  dispute?: NotificationDispute;
}

/** A refund as a notification reports it (reference/providers.md "Refunds"). */
export interface NotificationRefund {
  /** The provider's refund id: matches a refund staff made (RefundOutcome.refundReference). */
  refundReference: string;
  /** Major units, decimal string; null when the event does not say (read it from the provider). */
  amount: string | null;
  /** Succeeded: money went back; Pending: on its way; Failed: it did not (or came back). */
  status: 'Succeeded' | 'Pending' | 'Failed';
  reason?: string | null;
}

/**
 * A dispute as a notification reports it. Opened/UnderReview: the payer's bank questions it (the
 * money may be held); Lost: the money is gone (a GoCardless `charged_back` is Lost at once); Won:
 * it came back (`chargeback_cancelled`, Stripe `won`).
 */
export interface NotificationDispute {
  /** The provider's dispute id (Stripe `dp_…`); for providers without one, the event's payment id. */
  disputeReference: string;
  stage: 'Opened' | 'UnderReview' | 'Won' | 'Lost';
  /** Major units, decimal string; null means the whole payment. */
  amount: string | null;
  currency?: string | null;
  reason: string | null;
  /** ISO 8601: the last moment evidence can be given (Stripe `evidence_details.due_by`), or null. */
  respondBy: string | null;
}

/** The answer a provider expects to a notification, when it is not our default JSON. */
export interface NotificationReply {
  contentType: string;
  body: string;
}

export type VerifiedNotification =
  | {
      ok: true;
      events: NotificationEvent[];
      /** The provider's own answer (Opayo Server: `Status=OK` and the payer's RedirectURL). */
      reply?: NotificationReply;
      /** The payment's secret as it is now (Opayo adds the TxAuthNo), stored with a new event. */
      secret?: { paymentTransactionId: string; secret: string };
    }
  /** Signature missing or wrong: nothing is read; answer the provider's expected code. */
  | { ok: false; statusCode: number; body: string; contentType?: string };

/** One payment of the notified configuration with its secret (CheckoutStart.secret) in clear. */
export interface PaymentSecret {
  paymentTransactionId: string;
  ledgerlineReference: string | null;
  secret: string | null;
  /** The payer page's return address for this payment (`<PUBLIC_URL>/pay/{id}?payment={paymentId}`). */
  returnUrl: string;
}

export interface NotificationInput {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: signatures are over these bytes. */
  rawBody: Buffer;
  configuration: CheckoutConfiguration;
  /** The full URL the notification was posted to (some signatures cover it). */
  url: string;
  /**
   * For providers that sign each payment's notifications with that payment's own secret (Opayo
   * Server): the payment of this configuration with the provider's reference, or null.
   */
  paymentSecret?: (providerReference: string) => Promise<PaymentSecret | null>;
  /** `<PUBLIC_URL>`, for a provider that must be told where to send the payer even when refused. */
  publicUrl?: string;
}

/** What 3-D Secure asks of the payer's browser: the page's fields and the request's own. */
export interface PayerBrowser {
  ipAddress: string;
  userAgent: string;
  acceptHeader: string;
  language?: string;
  colorDepth?: number;
  screenHeight?: number;
  screenWidth?: number;
  /** Minutes behind UTC (`Date.getTimezoneOffset()`). */
  timeZoneOffset?: number;
}

/**
 * A card ticket a provider's frame gave the payer page (TranSafe PaymentFrame ticket, Opayo Pi
 * card identifier), to be charged by the server with the payment's own amount.
 */
export interface CheckoutTicketInput {
  paymentTransactionId: string;
  ledgerlineReference: string;
  /** What start() kept as the provider reference (the frame's identity). */
  providerReference: string | null;
  /** Decimal string in the currency's major unit, as stored. */
  amount: string;
  currency: string;
  captureType: 'Immediate' | 'Reserve';
  ticket: string;
  /** The frame's HMAC over the ticket, proving it comes from the frame start() described. */
  ticketHmac?: string;
  configuration: CheckoutConfiguration;
  description?: string;
  payer?: CheckoutStartInput['payer'];
  browser?: PayerBrowser;
  /** Where a card issuer's 3-D Secure page sends the payer back (`POST` with `cres`). */
  challengeUrl?: string;
}

/** What a card issuer's 3-D Secure page sent back for a payment (Opayo Pi). */
export interface CheckoutChallengeInput {
  paymentTransactionId: string;
  /** The provider's transaction id, kept when the charge answered with a challenge. */
  transactionId: string;
  captureType: 'Immediate' | 'Reserve';
  cres: string;
  threeDSSessionData: string;
  configuration: CheckoutConfiguration;
}

export interface CheckoutAdapter {
  readonly name: string;
  /**
   * Whether a configuration with these settings and credentials can take payments on the payer
   * page (e.g. a Stripe configuration only once an account is connected); absent: every one can.
   */
  takes?(settings: Record<string, unknown>, credentials?: Record<string, unknown>): boolean;
  start(input: CheckoutStartInput): Promise<CheckoutStart>;
  /** What the provider says now; called when the payer returns and while the page polls. */
  status(input: CheckoutStatusInput): Promise<CheckoutStatus>;
  /** Verify a notification's signature, then read it. Absent: the provider sends none. */
  verifyNotification?(
    input: NotificationInput,
  ): VerifiedNotification | Promise<VerifiedNotification>;
  /**
   * Present for platform-wide providers (Stripe Connect, GoCardless partner apps), whose one
   * endpoint receives every merchant's events signed with the platform's one secret: the
   * merchant account a configuration stands for. An event is then applied to the payment it names
   * only when it comes from that payment's configuration's account (docs/decisions/077-platform-notifications-find-their-payment-across.md, "Platform
   * notifications find their payment across configurations").
   */
  accountOf?(configuration: CheckoutConfiguration): string | null;
  /**
   * Present for providers whose card frame hands the page a ticket (TranSafe): whether the ticket
   * comes from the frame start() described (nothing is sent), then the charge itself.
   */
  verifyTicket?(input: CheckoutTicketInput): boolean;
  chargeTicket?(input: CheckoutTicketInput): Promise<CheckoutStatus>;
  /** Present for providers whose charge may answer with a 3-D Secure challenge (Opayo Pi). */
  completeChallenge?(input: CheckoutChallengeInput): Promise<CheckoutStatus>;
}

export interface CheckoutRegistry {
  forProvider(name: string | null): CheckoutAdapter | null;
}

export function createCheckoutRegistry(adapters: CheckoutAdapter[]): CheckoutRegistry {
  const byName = new Map(adapters.map((adapter) => [adapter.name.toLowerCase(), adapter]));
  return { forProvider: (name) => (name ? (byName.get(name.toLowerCase()) ?? null) : null) };
}
