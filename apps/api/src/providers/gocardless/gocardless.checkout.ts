import type {
  CheckoutAdapter,
  CheckoutPaymentStatus,
  CheckoutStatus,
  NotificationEvent,
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
import { providerFetch, type ProviderAnswer } from '../http.js';
import { fromMinorUnits, minorUnits } from '../money.js';
import { eventOf, metadataKey, type GoCardlessEvent } from './gocardless.events.js';

interface GoCardlessError {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    errors?: {
      reason?: string;
      field?: string;
      message?: string;
      links?: { conflicting_resource_id?: string };
    }[];
  };
}

interface BillingRequest {
  id: string;
  status?: 'pending' | 'ready_to_fulfil' | 'fulfilling' | 'fulfilled' | 'cancelled';
  metadata?: Record<string, string>;
  links?: { payment_request_payment?: string };
}

interface Payment {
  id: string;
  status?: string;
  amount?: number | string;
  currency?: string;
  metadata?: Record<string, string>;
}

/** A GoCardless payment's status as a payment transaction status. */
export function goCardlessPaymentStatus(status: string | undefined): CheckoutPaymentStatus {
  switch (status) {
    case 'confirmed':
    case 'paid_out':
      return 'Paid';
    case 'failed':
    case 'charged_back':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled';
    case 'customer_approval_denied':
      return 'Rejected';
    // pending_customer_approval, pending_submission, submitted: on its way.
    default:
      return 'Processing';
  }
}

function errorOf(body: GoCardlessError | null, answer: ProviderAnswer): string {
  const first = body?.error?.errors?.[0];
  if (first?.message) return first.field ? `${first.field} ${first.message}` : first.message;
  return body?.error?.message ?? `HTTP ${answer.status}`;
}

/**
 * GoCardless for the payer page, on the merchant's access token from the OAuth
 * connection: a billing request (a payment request of the amount in pence, with a mandate request
 * it may fall back to) and a billing request flow whose authorisation_url the payer is sent to.
 * status() reads the billing request, then its payment once there is one; verifyNotification()
 * checks Webhook-Signature with the partner app's endpoint secret (GOCARDLESS_WEBHOOK_SECRET).
 */
export function createGoCardlessCheckout(options: {
  live: boolean;
  apiUrl?: string;
  webhookSecret: string | undefined;
  timeoutMs: number;
}): CheckoutAdapter {
  const api = (
    options.apiUrl ??
    (options.live ? 'https://api.gocardless.com' : 'https://api-sandbox.gocardless.com')
  ).replace(/\/$/, '');

  const headers = (accessToken: string, idempotencyKey?: string): Record<string, string> => ({
    authorization: `Bearer ${accessToken}`,
    'gocardless-version': '2015-07-06',
    accept: 'application/json',
    ...(idempotencyKey
      ? { 'content-type': 'application/json', 'idempotency-key': idempotencyKey }
      : {}),
  });

  async function read<T>(accessToken: string, path: string) {
    const answer = await providerFetch('GoCardless', `${api}${path}`, {
      method: 'GET',
      headers: headers(accessToken),
      timeoutMs: options.timeoutMs,
    });
    return { answer, body: answer.json<T & GoCardlessError>() };
  }

  return {
    name: 'GoCardless',

    async start(input) {
      const accessToken = textOf(input.configuration.credentials, 'accessToken');
      if (!accessToken)
        throw notSent(
          'GoCardless',
          'billing_request.create',
          'the GoCardless account is not connected',
        );
      const scheme = input.currency === 'EUR' ? 'sepa_core' : 'bacs';
      const metadata = {
        [metadataKey]: input.paymentTransactionId,
        ledgerline_reference: input.ledgerlineReference.slice(0, 500),
      };
      const billingRequest = {
        billing_requests: {
          payment_request: {
            description: (input.description || input.ledgerlineReference).slice(0, 255),
            amount: Number(minorUnits(input.amount, input.currency)),
            currency: input.currency,
            metadata,
          },
          mandate_request: { scheme, currency: input.currency },
          // Where the payer's bank cannot pay instantly, GoCardless collects by direct debit.
          fallback_enabled: true,
          metadata,
        },
      };
      const createUrl = `${api}/billing_requests`;
      const createRequest = { method: 'POST', url: createUrl, body: billingRequest };
      const created = await startCall(
        'GoCardless',
        'billing_request.create',
        'billing_request',
        createRequest,
        () =>
          providerFetch('GoCardless', createUrl, {
            method: 'POST',
            headers: headers(accessToken, `${input.paymentTransactionId}-billing-request`),
            body: JSON.stringify(billingRequest),
            timeoutMs: options.timeoutMs,
          }),
      );
      const body = created.json<{ billing_requests?: BillingRequest } & GoCardlessError>();
      let requestId = body?.billing_requests?.id ?? null;
      // A retried create answers 409 with the request the first one made.
      const conflict = body?.error?.errors?.find(
        (e) => e.reason === 'idempotent_creation_conflict',
      );
      if (created.status === 409 && conflict?.links?.conflicting_resource_id) {
        requestId = conflict.links.conflicting_resource_id;
      }
      const createExchange = answered(
        'billing_request.create',
        'billing_request',
        requestId,
        body?.billing_requests?.status ?? body?.error?.type ?? `http_${created.status}`,
        createRequest,
        created,
      );
      if (!requestId)
        throw new CheckoutStartError(
          `GoCardless could not start the payment: ${errorOf(body, created)}`,
          createExchange,
        );

      const flow = {
        billing_request_flows: {
          redirect_uri: input.returnUrl,
          exit_uri: input.cancelUrl,
          links: { billing_request: requestId },
          ...(input.payer.emailAddress || input.payer.surname
            ? {
                prefilled_customer: {
                  email: input.payer.emailAddress ?? null,
                  given_name: input.payer.firstNames ?? null,
                  family_name: input.payer.surname ?? null,
                  company_name: input.payer.companyName ?? null,
                },
              }
            : {}),
        },
      };
      const flowUrl = `${api}/billing_request_flows`;
      const flowRequest = { method: 'POST', url: flowUrl, body: flow };
      // A flow only points at the billing request: making another one on a retry is harmless.
      const flowAnswer = await startCall(
        'GoCardless',
        'billing_request_flow.create',
        'billing_request_flow',
        flowRequest,
        () =>
          providerFetch('GoCardless', flowUrl, {
            method: 'POST',
            headers: { ...headers(accessToken), 'content-type': 'application/json' },
            body: JSON.stringify(flow),
            timeoutMs: options.timeoutMs,
          }),
      );
      const flowBody = flowAnswer.json<
        { billing_request_flows?: { id: string; authorisation_url?: string } } & GoCardlessError
      >();
      const authorisationUrl = flowBody?.billing_request_flows?.authorisation_url;
      const exchange = answered(
        'billing_request_flow.create',
        'billing_request',
        requestId,
        authorisationUrl ? 'flow_created' : (flowBody?.error?.type ?? `http_${flowAnswer.status}`),
        { method: 'POST', url: createUrl, body: { billingRequest, flow } },
        {
          ...flowAnswer,
          text: JSON.stringify({ billingRequest: created.text, flow: flowAnswer.text }),
        },
      );
      if (!authorisationUrl)
        throw new CheckoutStartError(
          `GoCardless could not start the payment: ${errorOf(flowBody, flowAnswer)}`,
          exchange,
        );
      return {
        next: { kind: 'redirect', url: authorisationUrl },
        providerReference: requestId,
        exchange,
      };
    },

    async status(input) {
      const accessToken = textOf(input.configuration.credentials, 'accessToken');
      const reference = input.providerReference;
      const isPayment = reference?.startsWith('PM') ?? false;
      const eventType = isPayment ? 'payment.retrieve' : 'billing_request.retrieve';
      const recordType = isPayment ? 'payment' : 'billing_request';
      if (!accessToken || !reference) {
        const missing = notSent(
          'GoCardless',
          eventType,
          'no GoCardless account or billing request to ask about',
        );
        return { status: 'Processing', exchange: missing.exchange };
      }
      const path = isPayment
        ? `/payments/${encodeURIComponent(reference)}`
        : `/billing_requests/${encodeURIComponent(reference)}`;
      const request = { method: 'GET', url: `${api}${path}` };
      return statusCall(
        eventType,
        recordType,
        reference,
        request,
        async (): Promise<CheckoutStatus> => {
          let paymentId = isPayment ? reference : null;
          if (!isPayment) {
            const { answer, body } = await read<{ billing_requests?: BillingRequest }>(
              accessToken,
              path,
            );
            const billing = body?.billing_requests;
            const exchange = answered(
              eventType,
              recordType,
              reference,
              billing?.status ?? `http_${answer.status}`,
              request,
              answer,
            );
            if (!billing) return { status: 'Processing', exchange };
            if (billing.status === 'cancelled')
              return { status: 'Cancelled', paymentMethodType: 'BankDebit', exchange };
            paymentId = billing.links?.payment_request_payment ?? null;
            // Not fulfilled yet: the payer is still in the flow, or GoCardless is fulfilling it.
            if (!paymentId)
              return { status: 'Processing', paymentMethodType: 'BankDebit', exchange };
          }
          const paymentPath = `/payments/${encodeURIComponent(paymentId!)}`;
          const paymentRequest = { method: 'GET', url: `${api}${paymentPath}` };
          const { answer, body } = await read<{ payments?: Payment }>(accessToken, paymentPath);
          const payment = body?.payments;
          const exchange = answered(
            'payment.retrieve',
            'payment',
            paymentId,
            payment?.status ?? `http_${answer.status}`,
            paymentRequest,
            answer,
          );
          if (!payment) return { status: 'Processing', exchange };
          const status = goCardlessPaymentStatus(payment.status);
          return {
            status,
            providerReference: payment.id,
            paymentMethodType: 'BankDebit',
            amount:
              payment.amount != null && payment.currency
                ? fromMinorUnits(payment.amount, payment.currency)
                : null,
            currency: payment.currency ?? null,
            errorMessage:
              status === 'Failed' || status === 'Rejected'
                ? `The payment ${payment.status?.replace(/_/g, ' ')}.`
                : null,
            exchange,
          };
        },
      );
    },

    accountOf: (configuration) => textOf(configuration.credentials, 'organisationId'),

    verifyNotification(input) {
      const invalid = refused(498, 'Invalid Token');
      if (!options.webhookSecret) return invalid;
      const signature = headerOf(input.headers, 'webhook-signature');
      if (!signature || !sameHex(hmacHex(options.webhookSecret, input.rawBody), signature.trim()))
        return invalid;
      let body: { events?: GoCardlessEvent[] };
      try {
        body = JSON.parse(input.rawBody.toString('utf8')) as { events?: GoCardlessEvent[] };
      } catch {
        return refused(400, 'The notification is not JSON.');
      }
      if (!Array.isArray(body.events)) return refused(400, 'The notification has no events.');
      const events: NotificationEvent[] = [];
      for (const event of body.events) {
        if (event.id) events.push(eventOf(event));
      }
      return { ok: true, events };
    },
  };
}
