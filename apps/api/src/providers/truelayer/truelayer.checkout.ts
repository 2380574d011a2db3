import type {
  CheckoutAdapter,
  CheckoutConfiguration,
  CheckoutPaymentStatus,
  CheckoutStart,
  CheckoutStartInput,
  CheckoutStatus,
  CheckoutStatusInput,
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
import type { Config } from '../../config.js';
import { createTlSignatureVerifier, tlSignRequest } from './truelayer.signing.js';

/** TrueLayer's hosts (reference/providers.md), by a configuration's sandbox switch. */
export interface TrueLayerHosts {
  authSandboxUrl: string;
  authLiveUrl: string;
  /** v1 single immediate payments. */
  paySandboxUrl: string;
  payLiveUrl: string;
  /** v3: payments into a merchant account, their refunds. */
  apiSandboxUrl: string;
  apiLiveUrl: string;
  /** v3: the hosted payment page the payer authorises a payment on. */
  hppSandboxUrl: string;
  hppLiveUrl: string;
  /** The JWKS addresses a webhook's Tl-Signature may name. */
  jwksUrls: string[];
}

/** The hosts from the server's configuration (TRUELAYER_* in config.ts). */
export function trueLayerHostsOf(config: Config): TrueLayerHosts {
  return {
    authSandboxUrl: config.TRUELAYER_AUTH_SANDBOX_URL,
    authLiveUrl: config.TRUELAYER_AUTH_LIVE_URL,
    paySandboxUrl: config.TRUELAYER_PAY_SANDBOX_URL,
    payLiveUrl: config.TRUELAYER_PAY_LIVE_URL,
    apiSandboxUrl: config.TRUELAYER_API_SANDBOX_URL,
    apiLiveUrl: config.TRUELAYER_API_LIVE_URL,
    hppSandboxUrl: config.TRUELAYER_HPP_SANDBOX_URL,
    hppLiveUrl: config.TRUELAYER_HPP_LIVE_URL,
    jwksUrls: config.TRUELAYER_JWKS_URL.split(','),
  };
}

/**
 * Whether a configuration takes v3 payments into its TrueLayer merchant account: it names the
 * account and holds the request signing key v3 creation is signed with. Any other configuration
 * takes v1 single immediate payments to its bank details (docs/decisions/132-truelayer-v3-payments-for-merchant-account.md, "TrueLayer v3
 * payments for merchant-account configurations").
 */
export function usesTrueLayerV3(
  configuration: Pick<CheckoutConfiguration, 'settings' | 'credentials'>,
): boolean {
  return Boolean(
    textOf(configuration.settings, 'merchantAccountId') &&
    textOf(configuration.credentials, 'signingKeyId') &&
    textOf(configuration.credentials, 'signingPrivateKey'),
  );
}

/** A v3 payment as `POST /v3/payments` and `GET /v3/payments/{id}` answer it. */
interface V3Payment {
  id?: string;
  resource_token?: string;
  user?: { id?: string };
  status?: string;
  amount_in_minor?: number;
  currency?: string;
  failure_reason?: string;
  failure_stage?: string;
  metadata?: Record<string, string>;
}

/** TrueLayer's v3 problem document (RFC 7807). */
interface V3Problem {
  title?: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

/** A v3 refusal in a sentence: its detail and each field's complaint. */
function problemText(problem: V3Problem | null, status: number): string {
  const detail = problem?.detail ?? problem?.title ?? `HTTP ${status}`;
  const fields = Object.entries(problem?.errors ?? {})
    .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
    .join('; ');
  return `${detail}${fields ? ` (${fields})` : ''}`;
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

/** How far X-TL-Webhook-Timestamp may be from our clock (docs/decisions/091-refunds-disputes-and-late-failures-from-stripe.md). */
export const trueLayerWebhookToleranceSeconds = 300;

/** What the payer reads when a v3 payment cannot be made without their name and email. */
export const trueLayerPayerMessage =
  'TrueLayer needs your name and email address to take this payment: enter them under Your details and try again.';

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
    // new, authorised, submitted (v1); authorization_required, authorizing, authorized,
    // attempt_failed (v3: the payer may try again)
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
 * TrueLayer payments for the payer page, with a client-credentials token of the
 * merchant's client (scope payments, kept until it nearly expires). A configuration with a
 * merchant account and a request signing key makes v3 payments into that account (refundable;
 * the payer authorises on TrueLayer's hosted payment page); any other makes v1 single immediate
 * payments to its bank details (reference/providers.md: the spec's fields are the v1 API field for
 * field; the payer approves at `auth_uri`). status() reads the payment; verifyNotification()
 * checks the Tl-Signature JWS against TrueLayer's keys.
 */
export function createTrueLayerCheckout(
  options: TrueLayerHosts & {
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
      api: (sandbox ? options.apiSandboxUrl : options.apiLiveUrl).replace(/\/$/, ''),
      hpp: (sandbox ? options.hppSandboxUrl : options.hppLiveUrl).replace(/\/$/, ''),
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

  /** A token for a start call; a refusal becomes the payer's CheckoutStartError. */
  async function tokenForStart(
    configuration: CheckoutConfiguration,
    eventType: string,
    recordType: string,
    request: { method: string; url: string; body?: unknown },
  ): Promise<string> {
    try {
      return await startCall('TrueLayer', eventType, recordType, request, () =>
        token(configuration),
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
            url: `${hostsOf(configuration.credentials).auth}/connect/token`,
          },
          response: { error: error.message },
        }),
      );
    }
  }

  /** A token for a status call, or the Processing answer a refused token leaves. */
  async function tokenForStatus(
    configuration: CheckoutConfiguration,
  ): Promise<{ token: string } | { refused: CheckoutStatus }> {
    try {
      return { token: await token(configuration) };
    } catch (error) {
      if (!(error instanceof TrueLayerTokenError)) throw error;
      return {
        refused: {
          status: 'Processing',
          exchange: exchangeOf({
            eventType: 'token',
            recordType: 'token',
            recordId: null,
            status: 'refused',
            request: { method: 'POST', url: 'connect/token' },
            response: { error: error.message },
          }),
        },
      };
    }
  }

  /** v1: a single immediate payment to the configuration's bank details; the payer to auth_uri. */
  async function startV1(input: CheckoutStartInput): Promise<CheckoutStart> {
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
    const accessToken = await tokenForStart(
      input.configuration,
      eventType,
      'single_immediate_payment',
      request,
    );
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
  }

  /**
   * v3: a signed `POST /v3/payments` into the configuration's merchant account (Idempotency-Key =
   * our payment id, so a replay makes no second payment), the payer named as TrueLayer requires,
   * and the payer sent to TrueLayer's hosted payment page with the payment's resource token.
   */
  async function startV3(input: CheckoutStartInput): Promise<CheckoutStart> {
    const eventType = 'payment.create';
    const { settings, credentials } = input.configuration;
    const merchantAccountId = textOf(settings, 'merchantAccountId')!;
    if (input.currency !== 'GBP')
      throw notSent('TrueLayer', eventType, 'only GBP payments are possible');
    const payer = input.payer;
    const name = [payer.firstNames, payer.surname].filter(Boolean).join(' ') || payer.companyName;
    if (!name || !payer.emailAddress) {
      const message = trueLayerPayerMessage;
      throw new CheckoutStartError(
        message,
        exchangeOf({
          eventType,
          recordType: 'payment',
          recordId: null,
          status: 'not_sent',
          request: { method: 'none', url: '' },
          response: { error: message },
        }),
      );
    }
    const values = {
      accountReference: input.ledgerlineReference,
      reference: input.ledgerlineReference,
      companyName: textOf(settings, 'beneficiaryName') ?? '',
    };
    const { api, hpp } = hostsOf(credentials);
    const url = `${api}/v3/payments`;
    const payment = {
      amount_in_minor: Number(minorUnits(input.amount, input.currency)),
      currency: 'GBP',
      payment_method: {
        type: 'bank_transfer',
        provider_selection: { type: 'user_selected' },
        beneficiary: {
          type: 'merchant_account',
          merchant_account_id: merchantAccountId,
          reference: referenceOf(settings.beneficiaryReference, values),
        },
      },
      user: { name, email: payer.emailAddress },
      // Echoed in v3 webhooks and the payment's read: the notification finds our payment by it.
      metadata: { ledgerlinePaymentId: input.paymentTransactionId },
    };
    const text = JSON.stringify(payment);
    const request = { method: 'POST', url, body: payment };
    let signature: string;
    try {
      signature = tlSignRequest({
        privateKeyPem: textOf(credentials, 'signingPrivateKey')!,
        keyId: textOf(credentials, 'signingKeyId')!,
        method: 'POST',
        path: new URL(url).pathname,
        headers: [['Idempotency-Key', input.paymentTransactionId]],
        body: text,
      });
    } catch {
      throw notSent(
        'TrueLayer',
        eventType,
        'the request signing key could not be read (an EC P-521 private key in PEM)',
      );
    }
    const accessToken = await tokenForStart(input.configuration, eventType, 'payment', request);
    const answer = await startCall('TrueLayer', eventType, 'payment', request, () =>
      providerFetch('TrueLayer', url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'idempotency-key': input.paymentTransactionId,
          'tl-signature': signature,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: text,
        timeoutMs: options.timeoutMs,
      }),
    );
    const made = answer.json<V3Payment & V3Problem>();
    const exchange = exchangeOf({
      eventType,
      recordType: 'payment',
      recordId: made?.id ?? null,
      status: made?.status ?? made?.title ?? `http_${answer.status}`,
      request,
      // The resource token lets whoever holds it authorise the payment: never recorded.
      response: { status: answer.status, body: maskedJson(answer.text, ['resource_token']) },
    });
    const ok = answer.status >= 200 && answer.status < 300;
    if (!ok || !made?.id || !made.resource_token || made.status === 'failed')
      throw new CheckoutStartError(
        `TrueLayer could not start the payment: ${ok ? (made?.failure_reason ?? 'the payment failed') : problemText(made, answer.status)}`,
        exchange,
      );
    // The return URI is encoded: ours has a query, and the page's fragment is `&`-separated.
    const page =
      `${hpp}/payments#payment_id=${encodeURIComponent(made.id)}` +
      `&resource_token=${encodeURIComponent(made.resource_token)}` +
      `&return_uri=${encodeURIComponent(input.returnUrl)}`;
    return { next: { kind: 'redirect', url: page }, providerReference: made.id, exchange };
  }

  /** v1 `GET /single-immediate-payments/{id}`; found false when TrueLayer knows no such payment. */
  async function statusV1(
    input: CheckoutStatusInput,
    reference: string,
  ): Promise<{ found: boolean; answer: CheckoutStatus }> {
    const eventType = 'single_immediate_payment.retrieve';
    const { pay } = hostsOf(input.configuration.credentials);
    const url = `${pay}/single-immediate-payments/${encodeURIComponent(reference)}`;
    const request = { method: 'GET', url };
    let found = true;
    const answer = await statusCall(
      eventType,
      'single_immediate_payment',
      reference,
      request,
      async (): Promise<CheckoutStatus> => {
        const got = await tokenForStatus(input.configuration);
        if ('refused' in got) return got.refused;
        const answer = await providerFetch('TrueLayer', url, {
          method: 'GET',
          headers: { authorization: `Bearer ${got.token}`, accept: 'application/json' },
          timeoutMs: options.timeoutMs,
        });
        found = answer.status !== 404;
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
    return { found, answer };
  }

  /** v3 `GET /v3/payments/{id}`; found false when TrueLayer knows no such payment. */
  async function statusV3(
    input: CheckoutStatusInput,
    reference: string,
  ): Promise<{ found: boolean; answer: CheckoutStatus }> {
    const eventType = 'payment.retrieve';
    const { api } = hostsOf(input.configuration.credentials);
    const url = `${api}/v3/payments/${encodeURIComponent(reference)}`;
    const request = { method: 'GET', url };
    let found = true;
    const answer = await statusCall(
      eventType,
      'payment',
      reference,
      request,
      async (): Promise<CheckoutStatus> => {
        const got = await tokenForStatus(input.configuration);
        if ('refused' in got) return got.refused;
        const answer = await providerFetch('TrueLayer', url, {
          method: 'GET',
          headers: { authorization: `Bearer ${got.token}`, accept: 'application/json' },
          timeoutMs: options.timeoutMs,
        });
        found = answer.status !== 404;
        const payment = answer.status === 200 ? answer.json<V3Payment>() : null;
        const exchange = answered(
          eventType,
          'payment',
          reference,
          payment?.status ?? `http_${answer.status}`,
          request,
          answer,
        );
        if (!payment?.status) return { status: 'Processing', exchange };
        const status = trueLayerStatus(payment.status);
        return {
          status,
          providerReference: payment.id ?? reference,
          paymentTransactionId: payment.metadata?.ledgerlinePaymentId ?? null,
          paymentMethodType: 'BankTransfer',
          amount:
            typeof payment.amount_in_minor === 'number' && payment.currency
              ? fromMinorUnits(payment.amount_in_minor, payment.currency)
              : null,
          currency: payment.currency ?? null,
          errorMessage:
            status === 'Failed'
              ? `The bank did not make the payment${payment.failure_reason ? ` (${payment.failure_reason})` : ''}.`
              : null,
          exchange,
        };
      },
    );
    return { found, answer };
  }

  return {
    name: 'TrueLayer',
    token,

    start: (input) => (usesTrueLayerV3(input.configuration) ? startV3(input) : startV1(input)),

    /**
     * Asks the API the configuration pays through now, then the other one when TrueLayer knows
     * no such payment there: a configuration given (or stripped of) its merchant account keeps
     * its earlier payments readable.
     */
    async status(input) {
      const reference = input.providerReference ?? input.returnQuery.payment_id ?? null;
      if (!reference) {
        return {
          status: 'Processing',
          exchange: notSent('TrueLayer', 'payment.retrieve', 'no payment to ask about').exchange,
        };
      }
      const [first, second] = usesTrueLayerV3(input.configuration)
        ? [statusV3, statusV1]
        : [statusV1, statusV3];
      const asked = await first(input, reference);
      if (asked.found) return asked.answer;
      const other = await second(input, reference);
      return other.found ? other.answer : asked.answer;
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
