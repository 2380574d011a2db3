import type {
  CheckoutAdapter,
  CheckoutPaymentStatus,
  CheckoutStatus,
  NotificationDispute,
  NotificationEvent,
  NotificationRefund,
} from '../checkout.js';
import {
  answered,
  CheckoutStartError,
  headerOf,
  hmacHex,
  notSent,
  refused,
  sameHex,
  startCall,
  statusCall,
  textOf,
} from '../checkout-support.js';
import { formBody, providerFetch } from '../http.js';
import { fromMinorUnits, minorUnits } from '../money.js';

interface StripeError {
  error?: { code?: string; message?: string; type?: string };
}

interface PaymentIntent extends StripeError {
  id?: string;
  object?: 'payment_intent';
  status?: string;
  amount?: number;
  amount_received?: number;
  amount_capturable?: number;
  currency?: string;
  metadata?: Record<string, string>;
  last_payment_error?: { message?: string; code?: string } | null;
  cancellation_reason?: string | null;
}

interface CheckoutSession extends StripeError {
  id?: string;
  object?: 'checkout.session';
  url?: string | null;
  status?: 'open' | 'complete' | 'expired' | null;
  payment_status?: 'paid' | 'unpaid' | 'no_payment_required';
  payment_intent?: string | PaymentIntent | null;
  metadata?: Record<string, string>;
  client_reference_id?: string | null;
  amount_total?: number | null;
  currency?: string | null;
}

/** A Refund (`refund.*`, `charge.refund.updated`) as Stripe sends it. */
interface StripeRefund {
  id?: string;
  object?: 'refund';
  amount?: number;
  currency?: string;
  charge?: string | null;
  payment_intent?: string | null;
  status?: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  reason?: string | null;
  failure_reason?: string | null;
  metadata?: Record<string, string>;
}

/** A Charge (`charge.refunded`): its refunds list only where the API version still includes it. */
interface StripeCharge {
  id?: string;
  object?: 'charge';
  amount?: number;
  amount_refunded?: number;
  currency?: string;
  payment_intent?: string | null;
  metadata?: Record<string, string>;
  refunds?: { data?: StripeRefund[] } | null;
}

/** A Dispute (`charge.dispute.*`). */
interface StripeDispute {
  id?: string;
  object?: 'dispute';
  amount?: number;
  currency?: string;
  charge?: string | null;
  payment_intent?: string | null;
  reason?: string | null;
  status?: string;
  evidence_details?: { due_by?: number | null } | null;
  metadata?: Record<string, string>;
}

interface StripeEvent {
  id?: string;
  type?: string;
  account?: string;
  /** Its shape follows the type: a session, payment intent, charge, refund or dispute. */
  data?: { object?: unknown };
}

/** How long a Stripe-Signature timestamp stays acceptable (Stripe's own default). */
export const stripeSignatureToleranceSeconds = 300;

/** Where the payment transaction id travels in Stripe's metadata (session and payment intent). */
const metadataKey = 'ledgerlinePaymentId';

/** A payment intent's status as a payment transaction status. */
function intentStatus(intent: PaymentIntent): CheckoutPaymentStatus {
  switch (intent.status) {
    case 'succeeded':
      return 'Paid';
    case 'requires_capture':
      return 'Pending';
    case 'canceled':
      return 'Cancelled';
    // requires_payment_method after a decline: Checkout lets the payer try another card, so the
    // payment is still under way until the session completes or expires.
    default:
      return 'Processing';
  }
}

const intentOf = (session: CheckoutSession): PaymentIntent | null =>
  session.payment_intent && typeof session.payment_intent === 'object'
    ? session.payment_intent
    : null;

const intentIdOf = (session: CheckoutSession): string | null =>
  typeof session.payment_intent === 'string'
    ? session.payment_intent
    : (intentOf(session)?.id ?? null);

/**
 * spec 3 §2 card options on the session. Use-customer: Checkout makes a
 * Customer for the payer (`customer_creation=always`; payment mode makes none unless it must).
 * A card is saved only when the configuration stores cards and the payer ticked the page's box:
 * `payment_intent_data[setup_future_usage]=off_session` attaches it to that Customer for later
 * payments without the payer (Stripe's page then tells the payer it is saved). Stripe's own
 * save box (`saved_payment_method_options[payment_method_save]`) is not used: the payer has
 * already been asked on our page, and that box needs an existing Customer passed as `customer`.
 */
function cardOptionsOf(settings: Record<string, unknown>, payerAgreed: boolean) {
  const useCustomer = settings.useStripeCustomer === true;
  const storeCard = useCustomer && settings.storePayerPaymentMethod === true;
  return {
    ...(useCustomer ? { customer_creation: 'always' } : {}),
    ...(storeCard && payerAgreed
      ? { 'payment_intent_data[setup_future_usage]': 'off_session' }
      : {}),
  };
}

/**
 * Stripe Checkout on the merchant's connected account (Stripe-Account header: a direct charge),
 * for the payer page. start() makes a Checkout Session in payment mode with one line
 * of the amount (manual capture for Reserve) and sends the payer to its url; status() reads the
 * session, or the payment intent once it is known; verifyNotification() checks Stripe-Signature
 * against the platform's Connect endpoint secret (STRIPE_WEBHOOK_SECRET).
 */
export function createStripeCheckout(options: {
  apiUrl: string;
  secretKey: string | undefined;
  webhookSecret: string | undefined;
  timeoutMs: number;
  now?: () => number;
}): CheckoutAdapter {
  const api = options.apiUrl.replace(/\/$/, '');
  const now = options.now ?? Date.now;

  function headers(account: string, idempotencyKey?: string): Record<string, string> {
    return {
      authorization: `Bearer ${options.secretKey}`,
      'stripe-account': account,
      'stripe-version': '2024-06-20',
      ...(idempotencyKey
        ? {
            'idempotency-key': idempotencyKey,
            'content-type': 'application/x-www-form-urlencoded',
          }
        : {}),
    };
  }

  return {
    name: 'Stripe',

    /** spec 3 §2: a Stripe configuration does not work until an account is connected. */
    takes: (_settings, credentials) => textOf(credentials ?? {}, 'stripeAccountId') !== null,

    async start(input) {
      const eventType = 'checkout.session.create';
      const account = textOf(input.configuration.credentials, 'stripeAccountId');
      if (!account) throw notSent('Stripe', eventType, 'no Stripe account is connected');
      if (!options.secretKey)
        throw notSent('Stripe', eventType, 'STRIPE_SECRET_KEY is not set on this server');
      const reserve = input.captureType === 'Reserve';
      const fields: Record<string, string> = {
        mode: 'payment',
        success_url: input.returnUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: input.paymentTransactionId,
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': input.currency.toLowerCase(),
        'line_items[0][price_data][unit_amount]': minorUnits(input.amount, input.currency),
        'line_items[0][price_data][product_data][name]':
          input.description || input.ledgerlineReference,
        [`metadata[${metadataKey}]`]: input.paymentTransactionId,
        'metadata[ledgerlineReference]': input.ledgerlineReference,
        'metadata[captureType]': input.captureType,
        [`payment_intent_data[metadata][${metadataKey}]`]: input.paymentTransactionId,
        'payment_intent_data[metadata][ledgerlineReference]': input.ledgerlineReference,
        'payment_intent_data[description]': input.ledgerlineReference,
        ...(reserve ? { 'payment_intent_data[capture_method]': 'manual' } : {}),
        ...(input.payer.emailAddress ? { customer_email: input.payer.emailAddress } : {}),
        ...cardOptionsOf(input.configuration.settings, input.saveCard === true),
      };
      const url = `${api}/v1/checkout/sessions`;
      const request = { method: 'POST', url, body: { ...fields, stripeAccount: account } };
      const answer = await startCall('Stripe', eventType, 'checkout.session', request, () =>
        providerFetch('Stripe', url, {
          method: 'POST',
          // One session per payment attempt: a retried start gets the same session back.
          headers: headers(account, `${input.paymentTransactionId}-checkout`),
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        }),
      );
      const session = answer.json<CheckoutSession>();
      const exchange = answered(
        eventType,
        'checkout.session',
        session?.id ?? null,
        session?.status ?? session?.error?.code ?? `http_${answer.status}`,
        request,
        answer,
      );
      if (answer.status !== 200 || !session?.id || !session.url)
        throw new CheckoutStartError(
          `Stripe could not start the payment: ${session?.error?.message ?? `HTTP ${answer.status}`}`,
          exchange,
        );
      return {
        next: { kind: 'redirect', url: session.url },
        providerReference: session.id,
        exchange,
      };
    },

    async status(input) {
      const reference = input.providerReference ?? input.returnQuery.session_id ?? null;
      const account = textOf(input.configuration.credentials, 'stripeAccountId');
      const isIntent = reference?.startsWith('pi_') ?? false;
      const eventType = isIntent ? 'payment_intent.retrieve' : 'checkout.session.retrieve';
      const recordType = isIntent ? 'payment_intent' : 'checkout.session';
      if (!reference || !account || !options.secretKey) {
        const missing = notSent('Stripe', eventType, 'no Stripe account or session to ask about');
        return { status: 'Processing', exchange: missing.exchange };
      }
      const url = isIntent
        ? `${api}/v1/payment_intents/${encodeURIComponent(reference)}`
        : `${api}/v1/checkout/sessions/${encodeURIComponent(reference)}?expand[]=payment_intent`;
      const request = { method: 'GET', url, body: { stripeAccount: account } };
      return statusCall(
        eventType,
        recordType,
        reference,
        request,
        async (): Promise<CheckoutStatus> => {
          const answer = await providerFetch('Stripe', url, {
            method: 'GET',
            headers: headers(account),
            timeoutMs: options.timeoutMs,
          });
          const body = answer.json<CheckoutSession & PaymentIntent>();
          const ok = answer.status === 200 && body?.id;
          if (!ok || !body) {
            return {
              status: 'Processing',
              exchange: answered(
                eventType,
                recordType,
                reference,
                body?.error?.code ?? `http_${answer.status}`,
                request,
                answer,
              ),
            };
          }
          if (isIntent) {
            return {
              status: intentStatus(body),
              paymentTransactionId: body.metadata?.[metadataKey] ?? null,
              paymentMethodType: 'Card',
              errorMessage: body.last_payment_error?.message ?? null,
              amount: majorOf(intentAmount(body), body.currency),
              currency: currencyOf(body.currency),
              exchange: answered(
                eventType,
                recordType,
                body.id!,
                body.status ?? 'unknown',
                request,
                answer,
              ),
            };
          }
          const intent = intentOf(body);
          let status: CheckoutPaymentStatus;
          if (body.status === 'expired') status = 'Cancelled';
          else if (body.status === 'complete')
            status =
              body.payment_status === 'paid'
                ? 'Paid'
                : intent
                  ? intentStatus(intent)
                  : body.metadata?.captureType === 'Reserve'
                    ? 'Pending'
                    : 'Processing';
          else status = intent?.status === 'canceled' ? 'Cancelled' : 'Processing';
          return {
            status,
            // The payment intent is what capture and cancel act on (providers/stripe/stripe.adapter.ts).
            providerReference: intentIdOf(body) ?? body.id!,
            // The intent's figure once there is one (what was taken or is held), else the session's.
            amount: intent
              ? majorOf(intentAmount(intent), intent.currency)
              : majorOf(body.amount_total, body.currency),
            currency: currencyOf(intent?.currency ?? body.currency),
            paymentTransactionId: body.metadata?.[metadataKey] ?? body.client_reference_id ?? null,
            paymentMethodType: 'Card',
            errorMessage:
              status === 'Processing' || status === 'Paid' || status === 'Pending'
                ? null
                : (intent?.last_payment_error?.message ?? null),
            exchange: answered(
              eventType,
              recordType,
              body.id!,
              `${body.status}/${body.payment_status}`,
              request,
              answer,
            ),
          };
        },
      );
    },

    accountOf: (configuration) => textOf(configuration.credentials, 'stripeAccountId'),

    verifyNotification(input) {
      if (!options.webhookSecret)
        return refused(
          400,
          'Stripe notifications are not accepted: STRIPE_WEBHOOK_SECRET is not set.',
        );
      const header = headerOf(input.headers, 'stripe-signature');
      if (!header) return refused(400, 'Missing Stripe-Signature header.');
      const parts = header.split(',').map((part) => part.trim().split('='));
      const timestamp = parts.find(([key]) => key === 't')?.[1];
      const signatures = parts.filter(([key]) => key === 'v1').map(([, value]) => value ?? '');
      if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0)
        return refused(400, 'Unable to extract timestamp and signatures from header.');
      const expected = hmacHex(
        options.webhookSecret,
        Buffer.concat([Buffer.from(`${timestamp}.`), input.rawBody]),
      );
      if (!signatures.some((signature) => sameHex(expected, signature)))
        return refused(400, 'No signatures found matching the expected signature for payload.');
      if (Math.abs(now() / 1000 - Number(timestamp)) > stripeSignatureToleranceSeconds)
        return refused(400, 'Timestamp outside the tolerance zone.');

      let event: StripeEvent;
      try {
        event = JSON.parse(input.rawBody.toString('utf8')) as StripeEvent;
      } catch {
        return refused(400, 'The notification is not JSON.');
      }
      if (!event.id || !event.type) return refused(400, 'The notification is not a Stripe event.');
      return { ok: true, events: [eventOf(event, input.rawBody.toString('utf8'))] };
    },
  };
}

/** Stripe's lower-case currency as ISO 4217. */
const currencyOf = (currency: string | null | undefined) => currency?.toUpperCase() ?? null;

/** Minor units as major units in the object's currency, or null when either is missing. */
const majorOf = (amount: number | null | undefined, currency: string | null | undefined) =>
  typeof amount === 'number' && currency ? fromMinorUnits(amount, currency) : null;

/** A Stripe Refund as a notification's refund (docs/decisions/091-refunds-disputes-and-late-failures-from-stripe.md, "Stripe refunds and disputes"). */
function refundOf(refund: StripeRefund): NotificationRefund | undefined {
  if (!refund.id) return undefined;
  const status: NotificationRefund['status'] =
    refund.status === 'succeeded'
      ? 'Succeeded'
      : refund.status === 'failed' || refund.status === 'canceled'
        ? 'Failed'
        : 'Pending';
  return {
    refundReference: refund.id,
    amount: majorOf(refund.amount, refund.currency),
    status,
    reason:
      status === 'Failed'
        ? (refund.failure_reason ?? refund.status ?? null)
        : (refund.reason ?? null),
  };
}

/** A Stripe dispute's status as a stage (warning_* are inquiries; closed without a chargeback is won). */
function disputeStage(status: string | undefined): NotificationDispute['stage'] {
  switch (status) {
    case 'won':
    case 'warning_closed':
    case 'prevented':
      return 'Won';
    case 'lost':
      return 'Lost';
    case 'under_review':
    case 'warning_under_review':
      return 'UnderReview';
    // needs_response, warning_needs_response
    default:
      return 'Opened';
  }
}

function disputeOf(dispute: StripeDispute): NotificationDispute | undefined {
  if (!dispute.id) return undefined;
  const dueBy = dispute.evidence_details?.due_by;
  return {
    disputeReference: dispute.id,
    stage: disputeStage(dispute.status),
    amount: majorOf(dispute.amount, dispute.currency),
    currency: currencyOf(dispute.currency),
    reason: dispute.reason ?? null,
    // 0 means no response is allowed (reference/providers.md).
    respondBy: dueBy ? new Date(dueBy * 1000).toISOString() : null,
  };
}

/** What one Stripe event says about one payment (docs/decisions/059-checkout-adapters-choices-where-the-reference.md, "Stripe checkout events"). */
function eventOf(event: StripeEvent, payload: string): NotificationEvent {
  const type = event.type!;
  const base = {
    eventId: event.id!,
    eventType: type,
    payload,
    // Connect: the connected account the event happened on (absent for the platform's own).
    account: event.account ?? null,
  };
  const data = (event.data?.object ?? {}) as Record<string, unknown>;
  if (type.startsWith('charge.dispute.')) {
    const dispute = data as StripeDispute;
    return {
      ...base,
      paymentTransactionId: dispute.metadata?.[metadataKey] ?? null,
      providerReference: dispute.payment_intent ?? dispute.charge ?? null,
      status: null,
      currency: currencyOf(dispute.currency),
      dispute: disputeOf(dispute),
    };
  }
  if (type.startsWith('refund.') || type === 'charge.refund.updated') {
    const refund = data as StripeRefund;
    return {
      ...base,
      // Our refunds carry the payment's id in their metadata; one made in Stripe's dashboard not.
      paymentTransactionId: refund.metadata?.[metadataKey] ?? null,
      providerReference: refund.payment_intent ?? refund.charge ?? null,
      status: null,
      currency: currencyOf(refund.currency),
      refund: refundOf(refund),
    };
  }
  if (type === 'charge.refunded') {
    const charge = data as StripeCharge;
    // The newest refund, where the API version still lists them; refund.* always names it.
    const newest = charge.refunds?.data?.[0];
    return {
      ...base,
      paymentTransactionId: charge.metadata?.[metadataKey] ?? null,
      providerReference: charge.payment_intent ?? charge.id ?? null,
      status: null,
      amount: majorOf(charge.amount, charge.currency),
      currency: currencyOf(charge.currency),
      ...(newest ? { refund: refundOf(newest) } : {}),
    };
  }
  const object = data as CheckoutSession & PaymentIntent;
  const paymentTransactionId = object.metadata?.[metadataKey] ?? null;
  let status: CheckoutPaymentStatus | null = null;
  let providerReference: string | null = object.id ?? null;
  let errorMessage: string | null = null;
  let amount: string | null = null;
  if (type.startsWith('checkout.session.')) {
    providerReference = intentIdOf(object) ?? object.id ?? null;
    amount = majorOf(object.amount_total, object.currency);
    if (type === 'checkout.session.completed')
      status =
        object.payment_status === 'paid'
          ? 'Paid'
          : object.metadata?.captureType === 'Reserve'
            ? 'Pending'
            : 'Processing';
    else if (type === 'checkout.session.async_payment_succeeded') status = 'Paid';
    else if (type === 'checkout.session.async_payment_failed') {
      status = 'Failed';
      errorMessage = 'The payment failed.';
    } else if (type === 'checkout.session.expired') status = 'Cancelled';
  } else if (type.startsWith('payment_intent.')) {
    amount = majorOf(intentAmount(object), object.currency);
    if (type === 'payment_intent.succeeded') status = 'Paid';
    else if (type === 'payment_intent.amount_capturable_updated') status = 'Pending';
    else if (type === 'payment_intent.canceled') status = 'Cancelled';
    // payment_intent.payment_failed: Checkout lets the payer try again, so it moves nothing;
    // the message is kept for the provider data dialog.
    else if (type === 'payment_intent.payment_failed')
      errorMessage = object.last_payment_error?.message ?? null;
  }
  return {
    ...base,
    paymentTransactionId,
    providerReference,
    status,
    errorMessage,
    amount,
    currency: currencyOf(object.currency),
  };
}

/** What a payment intent took (succeeded), holds (requires_capture) or asks for (otherwise). */
function intentAmount(intent: PaymentIntent): number | undefined {
  if (intent.status === 'succeeded') return intent.amount_received ?? intent.amount;
  if (intent.status === 'requires_capture') return intent.amount_capturable ?? intent.amount;
  return intent.amount;
}

/** Signs a payload as Stripe does (`t=…,v1=…`): for tests and the e2e fakes. */
export function stripeSignatureHeader(secret: string, payload: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, `${timestamp}.${payload}`)}`;
}
