import type { CheckoutAdapter, CheckoutPaymentStatus, CheckoutStatus } from '../checkout.js';
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
import { minorUnits } from '../money.js';
import {
  currencyOf,
  eventOf,
  intentAmount,
  intentIdOf,
  intentOf,
  intentStatus,
  majorOf,
  metadataKey,
  type CheckoutSession,
  type PaymentIntent,
  type StripeEvent,
} from './stripe.events.js';

export { stripeSignatureHeader } from './stripe.events.js';

/** How long a Stripe-Signature timestamp stays acceptable (Stripe's own default). */
export const stripeSignatureToleranceSeconds = 300;

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
