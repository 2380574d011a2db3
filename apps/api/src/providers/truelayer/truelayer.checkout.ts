import type {
  CheckoutAdapter,
  CheckoutConfiguration,
  CheckoutPaymentStatus,
  CheckoutStatus,
} from '../checkout.js';
import {
  answered,
  CheckoutStartError,
  headerOf,
  notSent,
  refused,
  startCall,
  statusCall,
  textOf,
} from '../checkout-support.js';
import { exchangeOf } from '../exchange.js';
import { formBody, providerFetch } from '../http.js';
import { fromMinorUnits, minorUnits } from '../money.js';
import {
  maskedFields,
  maskedJson,
  recordedFetch,
  type ExchangeRecorder,
} from '../recorded-fetch.js';
import { createTlSignatureVerifier } from './truelayer.signing.js';

/** TrueLayer's hosts (reference/providers.md), by a configuration's sandbox switch. */
export interface TrueLayerHosts {
  authSandboxUrl: string;
  authLiveUrl: string;
  paySandboxUrl: string;
  payLiveUrl: string;
}

interface SingleImmediatePayment {
  simp_id?: string;
  id?: string;
  auth_uri?: string;
  status?: string;
  failure_reason?: string;
  amount?: number;
  currency?: string;
}

/** How far X-TL-Webhook-Timestamp may be from our clock (docs/decisions.md, issue 20 item 11). */
export const trueLayerWebhookToleranceSeconds = 300;

/** Faster Payments carries at most 18 characters of reference. */
export const trueLayerReferenceLength = 18;

/** A single immediate payment's status (v1), or a v3 payment's, as a payment transaction status. */
export function trueLayerStatus(status: string | undefined): CheckoutPaymentStatus {
  switch (status) {
    case 'executed':
    case 'settled':
      return 'Paid';
    case 'failed':
      return 'Failed';
    case 'rejected':
      return 'Rejected';
    case 'cancelled':
      return 'Cancelled';
    // new, authorised, submitted (v1); authorization_required, authorizing, authorized (v3)
    default:
      return 'Processing';
  }
}

/** Webhook types that move a payment: v1's status change carries the status; v3's are typed. */
const v3Types: Record<string, CheckoutPaymentStatus> = {
  payment_executed: 'Paid',
  payment_settled: 'Paid',
  payment_failed: 'Failed',
  payment_authorized: 'Processing',
};

/** The configuration's reference template with its placeholders filled, cut to 18 characters. */
export function referenceOf(template: unknown, values: Record<string, string>): string {
  const text = typeof template === 'string' && template.trim() ? template : '{accountReference}';
  const filled = text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  return filled
    .replace(/[^A-Za-z0-9 \-./&]/g, '')
    .trim()
    .slice(0, trueLayerReferenceLength);
}

export class TrueLayerTokenError extends Error {}

/**
 * TrueLayer single immediate payments (reference/providers.md: the spec's fields are the v1 API
 * field for field) for the payer page (issue 14): a client-credentials token of the merchant's
 * client (scope payments, kept until it nearly expires), a payment to the configuration's
 * beneficiary account, and the payer sent to `auth_uri` to approve it in their bank. status()
 * reads the payment; verifyNotification() checks the Tl-Signature JWS against TrueLayer's keys.
 */
export function createTrueLayerCheckout(
  options: TrueLayerHosts & {
    jwksUrls: string[];
    timeoutMs: number;
    now?: () => number;
  },
): CheckoutAdapter & {
  /** A token for the client: proves the client id and secret (the connection test). */
  token(
    configuration: Pick<CheckoutConfiguration, 'credentials'>,
    recorder?: ExchangeRecorder,
  ): Promise<string>;
} {
  const now = options.now ?? Date.now;
  const tokens = new Map<string, { token: string; until: number }>();
  const verifyTl = createTlSignatureVerifier({
    allowedJwks: options.jwksUrls,
    timeoutMs: options.timeoutMs,
    now,
    // The timestamp is only worth checking when TrueLayer's signature covers it.
    mustSign: ['X-Tl-Webhook-Timestamp'],
  });
  const hostsOf = (credentials: Record<string, unknown>) => {
    const sandbox = credentials.useSandbox === true;
    return {
      auth: (sandbox ? options.authSandboxUrl : options.authLiveUrl).replace(/\/$/, ''),
      pay: (sandbox ? options.paySandboxUrl : options.payLiveUrl).replace(/\/$/, ''),
    };
  };

  /** The token exchange; the token itself is never recorded (masked in a provider event). */
  async function token(
    configuration: Pick<CheckoutConfiguration, 'credentials'>,
    recorder?: ExchangeRecorder,
  ): Promise<string> {
    const clientId = textOf(configuration.credentials, 'clientId');
    const clientSecret = textOf(configuration.credentials, 'clientSecret');
    if (!clientId || !clientSecret)
      throw new TrueLayerTokenError('The client id and secret are required.');
    const { auth } = hostsOf(configuration.credentials);
    const url = `${auth}/connect/token`;
    const key = `${auth} ${clientId} ${clientSecret}`;
    const cached = tokens.get(key);
    if (cached && cached.until > now()) {
      recorder?.(
        exchangeOf({
          eventType: 'token',
          recordType: 'token',
          recordId: null,
          status: 'cached',
          request: { method: 'none', url },
          response: { error: 'A token for these credentials is still valid: nothing was sent.' },
        }),
      );
      return cached.token;
    }
    const fields = {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: 'payments',
    };
    const answer = await recordedFetch(
      'TrueLayer',
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: formBody(fields),
        timeoutMs: options.timeoutMs,
      },
      {
        recorder,
        eventType: 'token',
        recordType: 'token',
        request: { method: 'POST', url, body: maskedFields(fields, ['client_secret']) },
        status: (answer) => (answer.status === 200 ? 'issued' : `http_${answer.status}`),
        maskAnswer: (text) => maskedJson(text, ['access_token', 'refresh_token']),
      },
    );
    const body = answer.json<{
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    }>();
    if (answer.status !== 200 || !body?.access_token)
      throw new TrueLayerTokenError(
        `TrueLayer refused the client credentials (${body?.error ?? `HTTP ${answer.status}`}).`,
      );
    // Kept until a minute before it lapses.
    tokens.set(key, {
      token: body.access_token,
      until: now() + ((body.expires_in ?? 3600) - 60) * 1000,
    });
    return body.access_token;
  }

  return {
    name: 'TrueLayer',
    token,

    async start(input) {
      const eventType = 'single_immediate_payment.create';
      const settings = input.configuration.settings;
      const account = (settings.beneficiaryBankAccount ?? {}) as Record<string, unknown>;
      const beneficiaryName = textOf(settings, 'beneficiaryName');
      const sortCode = textOf(account, 'sortCode');
      const accountNumber = textOf(account, 'accountNumber');
      if (!beneficiaryName || !sortCode || !accountNumber)
        throw notSent('TrueLayer', eventType, 'the bank details are incomplete');
      if (input.currency !== 'GBP')
        throw notSent('TrueLayer', eventType, 'only GBP payments are possible');
      const values = {
        accountReference: input.ledgerlineReference,
        reference: input.ledgerlineReference,
        companyName: beneficiaryName,
      };
      const { pay } = hostsOf(input.configuration.credentials);
      const url = `${pay}/single-immediate-payments`;
      const payment = {
        amount: Number(minorUnits(input.amount, input.currency)),
        currency: 'GBP',
        remitter_reference: referenceOf(settings.remitterReference, values),
        beneficiary_name: beneficiaryName,
        beneficiary_sort_code: sortCode,
        beneficiary_account_number: accountNumber,
        beneficiary_reference: referenceOf(settings.beneficiaryReference, values),
        redirect_uri: input.returnUrl,
      };
      const request = { method: 'POST', url, body: payment };
      let accessToken: string;
      try {
        accessToken = await startCall(
          'TrueLayer',
          eventType,
          'single_immediate_payment',
          request,
          () => token(input.configuration),
        );
      } catch (error) {
        if (!(error instanceof TrueLayerTokenError)) throw error;
        throw new CheckoutStartError(
          `TrueLayer could not start the payment: ${error.message}`,
          exchangeOf({
            eventType: 'token',
            recordType: 'token',
            recordId: null,
            status: 'refused',
            request: {
              method: 'POST',
              url: `${hostsOf(input.configuration.credentials).auth}/connect/token`,
            },
            response: { error: error.message },
          }),
        );
      }
      const answer = await startCall(
        'TrueLayer',
        eventType,
        'single_immediate_payment',
        request,
        () =>
          providerFetch('TrueLayer', url, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${accessToken}`,
              'content-type': 'application/json',
              accept: 'application/json',
            },
            body: JSON.stringify(payment),
            timeoutMs: options.timeoutMs,
          }),
      );
      const body = answer.json<{
        results?: SingleImmediatePayment[];
        error?: string;
        error_description?: string;
      }>();
      const result = body?.results?.[0];
      const exchange = answered(
        eventType,
        'single_immediate_payment',
        result?.simp_id ?? null,
        result?.status ?? body?.error ?? `http_${answer.status}`,
        request,
        answer,
      );
      if (!result?.simp_id || !result.auth_uri)
        throw new CheckoutStartError(
          `TrueLayer could not start the payment: ${body?.error_description ?? body?.error ?? `HTTP ${answer.status}`}`,
          exchange,
        );
      return {
        next: { kind: 'redirect', url: result.auth_uri },
        providerReference: result.simp_id,
        exchange,
      };
    },

    async status(input) {
      const eventType = 'single_immediate_payment.retrieve';
      const reference = input.providerReference ?? input.returnQuery.payment_id ?? null;
      if (!reference) {
        return {
          status: 'Processing',
          exchange: notSent('TrueLayer', eventType, 'no payment to ask about').exchange,
        };
      }
      const { pay } = hostsOf(input.configuration.credentials);
      const url = `${pay}/single-immediate-payments/${encodeURIComponent(reference)}`;
      const request = { method: 'GET', url };
      return statusCall(
        eventType,
        'single_immediate_payment',
        reference,
        request,
        async (): Promise<CheckoutStatus> => {
          let accessToken: string;
          try {
            accessToken = await token(input.configuration);
          } catch (error) {
            if (!(error instanceof TrueLayerTokenError)) throw error;
            return {
              status: 'Processing',
              exchange: exchangeOf({
                eventType: 'token',
                recordType: 'token',
                recordId: null,
                status: 'refused',
                request: { method: 'POST', url: 'connect/token' },
                response: { error: error.message },
              }),
            };
          }
          const answer = await providerFetch('TrueLayer', url, {
            method: 'GET',
            headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
            timeoutMs: options.timeoutMs,
          });
          const body = answer.json<{ results?: SingleImmediatePayment[] }>();
          const result = body?.results?.[0];
          const exchange = answered(
            eventType,
            'single_immediate_payment',
            reference,
            result?.status ?? `http_${answer.status}`,
            request,
            answer,
          );
          if (!result) return { status: 'Processing', exchange };
          const status = trueLayerStatus(result.status);
          return {
            status,
            providerReference: result.simp_id ?? reference,
            paymentMethodType: 'BankTransfer',
            amount:
              typeof result.amount === 'number' && result.currency
                ? fromMinorUnits(result.amount, result.currency)
                : null,
            currency: result.currency ?? null,
            errorMessage:
              status === 'Failed' || status === 'Rejected' || status === 'Cancelled'
                ? `The bank ${result.status === 'cancelled' ? 'payment was cancelled' : 'did not make the payment'}${result.failure_reason ? ` (${result.failure_reason})` : ''}.`
                : null,
            exchange,
          };
        },
      );
    },

    async verifyNotification(input) {
      // A notification signed long ago (a captured one replayed) is refused before anything else.
      const stamped = headerOf(input.headers, 'x-tl-webhook-timestamp');
      if (!stamped) return refused(401, 'Missing X-TL-Webhook-Timestamp header.');
      const at = Date.parse(stamped);
      if (Number.isNaN(at)) return refused(401, 'X-TL-Webhook-Timestamp is not a timestamp.');
      if (Math.abs(now() - at) > trueLayerWebhookToleranceSeconds * 1000)
        return refused(401, 'X-TL-Webhook-Timestamp is outside the tolerance zone.');
      const signature =
        headerOf(input.headers, 'tl-signature') ?? headerOf(input.headers, 'x-tl-signature');
      const verified = await verifyTl({
        signature,
        method: 'POST',
        path: new URL(input.url).pathname,
        headers: input.headers,
        body: input.rawBody,
      });
      if (!verified.ok) return refused(verified.retry ? 503 : 401, verified.reason);
      let body: {
        event_id?: string;
        event_type?: string;
        event_body?: {
          single_immediate_payment_id?: string;
          status?: string;
          failure_reason?: string;
        };
        type?: string;
        payment_id?: string;
        failure_reason?: string;
        metadata?: Record<string, string>;
        refund_id?: string;
        disputed_reason?: string;
      };
      try {
        body = JSON.parse(input.rawBody.toString('utf8')) as typeof body;
      } catch {
        return refused(400, 'The notification is not JSON.');
      }
      const payload = input.rawBody.toString('utf8');
      const timestamp = headerOf(input.headers, 'x-tl-webhook-timestamp') ?? '';
      if (body.event_type === 'single_immediate_payment_status_changed' && body.event_body) {
        const id = body.event_body.single_immediate_payment_id ?? null;
        const status = body.event_body.status;
        const moved = trueLayerStatus(status);
        return {
          ok: true,
          events: [
            {
              // One event per payment and status: a redelivery of the same change is the same event.
              eventId: body.event_id ?? `${id}:${status}:${timestamp}`,
              paymentTransactionId: null,
              providerReference: id,
              status: status ? moved : null,
              eventType: `${body.event_type}.${status ?? 'unknown'}`,
              payload,
              errorMessage:
                moved === 'Failed' || moved === 'Rejected'
                  ? (body.event_body.failure_reason ?? null)
                  : null,
            },
          ],
        };
      }
      const type = body.type ?? body.event_type ?? 'unknown';
      const status = v3Types[type] ?? null;
      const refund =
        (type === 'refund_executed' || type === 'refund_failed') && body.refund_id
          ? {
              refundReference: body.refund_id,
              // Refund webhooks carry no amount: the refund staff made says it.
              amount: null,
              status: type === 'refund_executed' ? ('Succeeded' as const) : ('Failed' as const),
              reason: type === 'refund_failed' ? (body.failure_reason ?? null) : null,
            }
          : undefined;
      // Direct Debit mandates only: the payer's bank questions the payment (no dispute id).
      const dispute =
        type === 'payment_disputed' && body.payment_id
          ? {
              disputeReference: body.payment_id,
              stage: 'Opened' as const,
              amount: null,
              reason: body.disputed_reason ?? null,
              respondBy: null,
            }
          : undefined;
      return {
        ok: true,
        events: [
          {
            eventId: body.event_id ?? `${body.payment_id ?? 'unknown'}:${type}:${timestamp}`,
            paymentTransactionId: body.metadata?.ledgerlinePaymentId ?? null,
            providerReference: body.payment_id ?? null,
            status,
            eventType: type,
            payload,
            errorMessage: status === 'Failed' ? (body.failure_reason ?? null) : null,
            ...(refund ? { refund } : {}),
            ...(dispute ? { dispute } : {}),
          },
        ],
      };
    },
  };
}
