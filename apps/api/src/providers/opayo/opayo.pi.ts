import type {
  CheckoutChallengeInput,
  CheckoutConfiguration,
  CheckoutPaymentStatus,
  CheckoutStart,
  CheckoutStartInput,
  CheckoutStatus,
  CheckoutStatusInput,
  CheckoutTicketInput,
} from '../checkout.js';
import { CheckoutStartError, notSent, startCall } from '../checkout-support.js';
import { exchangeOf } from '../exchange.js';
import { providerFetch, ProviderUnreachableError } from '../http.js';
import { minorUnits } from '../money.js';
import {
  abandonAfterSeconds,
  cut,
  parse,
  piCredentialsOf,
  piAmountOf,
  piMessages,
  piSessionOf,
  sessionPrefix,
  threeDSSessionDataOf,
  type PiTransactionAnswer,
} from './opayo.pi-answers.js';

export { piAmountOf, piSessionOf, threeDSSessionDataOf } from './opayo.pi-answers.js';

/**
 * Opayo Pi on the payer page (docs/decisions/090-opayo-pi-on-the-payer-page.md "Opayo Pi on the payer page"):
 * a merchant session key for the page's Opayo.js drop-in, then the card identifier it gives
 * charged by the server (`POST /api/v1/transactions`), and a 3-D Secure challenge completed with
 * the issuer's `cres` (`POST /api/v1/transactions/{id}/3d-secure-challenge`).
 */
export function createOpayoPi(options: {
  hostOf: (configuration: CheckoutConfiguration) => string;
  timeoutMs: number;
  now?: () => number;
}) {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const apiUrl = (configuration: CheckoutConfiguration, path: string) =>
    `${options.hostOf(configuration)}/api/v1/${path}`;

  async function start(input: CheckoutStartInput): Promise<CheckoutStart> {
    const eventType = 'merchant-session-key.create';
    const credentials = piCredentialsOf(input.configuration);
    if (!credentials)
      throw notSent(
        'Opayo',
        eventType,
        'the vendor name, integration key and integration password are required',
      );
    const url = apiUrl(input.configuration, 'merchant-session-keys');
    const body = { vendorName: credentials.vendorName };
    const request = { method: 'POST', url, body };
    const answer = await startCall('Opayo', eventType, 'merchant-session-key', request, () =>
      providerFetch('Opayo', url, {
        method: 'POST',
        headers: { authorization: credentials.authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs: options.timeoutMs,
      }),
    );
    const answered = answer.json<{
      merchantSessionKey?: string;
      expiry?: string;
      description?: string;
    }>();
    const key = answered?.merchantSessionKey ?? '';
    const expiry = Math.floor(Date.parse(answered?.expiry ?? '') / 1000);
    const exchange = exchangeOf({
      eventType,
      recordType: 'merchant-session-key',
      recordId: key || null,
      status: answer.status === 201 ? 'created' : `http_${answer.status}`,
      request,
      response: { status: answer.status, body: answer.text },
    });
    if (answer.status !== 201 || !/^[A-Za-z0-9-]{1,100}$/.test(key) || !Number.isFinite(expiry))
      throw new CheckoutStartError(
        `Opayo could not start the payment: ${answered?.description ?? `HTTP ${answer.status}`}`,
        exchange,
      );
    return {
      next: {
        kind: 'opayo-pi',
        scriptUrl: apiUrl(input.configuration, 'js/sagepay.js'),
        merchantSessionKey: key,
      },
      // The key is no secret (the page holds it; it only lets card details be tokenised for 400 s).
      providerReference: `${sessionPrefix}${expiry}:${key}`,
      exchange,
    };
  }

  /** Opayo's answer to a transaction or a challenge as an outcome. */
  function outcomeOf(
    answer: { status: number; text: string },
    answered: PiTransactionAnswer | null,
    reserve: boolean,
    paymentTransactionId: string,
    exchange: CheckoutStatus['exchange'],
  ): CheckoutStatus {
    const transactionId = answered?.transactionId ?? null;
    const base = {
      providerReference: transactionId,
      paymentMethodType: 'Card' as const,
      ...piAmountOf(answered),
      exchange,
    };
    const status = answered?.status ?? '';
    if (status === 'Ok' && answer.status < 300)
      return {
        ...base,
        status: reserve || answered?.transactionType === 'Deferred' ? 'Pending' : 'Paid',
        errorMessage: null,
      };
    if (status === '3DAuth' && answered?.acsUrl && answered.cReq && transactionId)
      return {
        ...base,
        status: 'Processing',
        challenge: {
          acsUrl: answered.acsUrl,
          creq: answered.cReq,
          threeDSSessionData: threeDSSessionDataOf(paymentTransactionId),
        },
      };
    const mapped: CheckoutPaymentStatus =
      status === 'NotAuthed' ? 'NotAuthorised' : status === 'Rejected' ? 'Rejected' : 'Failed';
    const said =
      answered?.statusDetail ??
      answered?.description ??
      answered?.errors?.[0]?.description ??
      `HTTP ${answer.status}`;
    return {
      ...base,
      status: mapped,
      errorMessage: piMessages[mapped] ?? `Opayo could not take the payment: ${said}`,
    };
  }

  /** Posts to Opayo; a call that got no answer is Failed with the exchange `unreachable`. */
  async function post(
    configuration: CheckoutConfiguration,
    url: string,
    body: unknown,
    recorded: { eventType: string; body: unknown; recordId: string },
    read: (
      answer: { status: number; text: string },
      exchange: CheckoutStatus['exchange'],
    ) => CheckoutStatus,
  ): Promise<CheckoutStatus> {
    const credentials = piCredentialsOf(configuration);
    if (!credentials) {
      const { exchange, message } = notSent(
        'Opayo',
        recorded.eventType,
        'the vendor name, integration key and integration password are required',
      );
      return { status: 'Failed', errorMessage: message, exchange };
    }
    const request = { method: 'POST', url, body: recorded.body };
    try {
      const answer = await providerFetch('Opayo', url, {
        method: 'POST',
        headers: { authorization: credentials.authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs: options.timeoutMs,
      });
      const answered = parse(answer.text);
      const exchange = exchangeOf({
        eventType: recorded.eventType,
        recordType: 'transaction',
        recordId: answered?.transactionId ?? recorded.recordId,
        status: answered?.status ?? `http_${answer.status}`,
        request,
        response: { status: answer.status, body: answer.text },
      });
      return read(answer, exchange);
    } catch (error) {
      if (!(error instanceof ProviderUnreachableError)) throw error;
      return {
        status: 'Failed',
        paymentMethodType: 'Card',
        errorMessage: 'Opayo could not be reached; please try again in a moment.',
        exchange: exchangeOf({
          eventType: recorded.eventType,
          recordType: 'transaction',
          recordId: recorded.recordId,
          status: 'unreachable',
          request,
          response: { error: error.message },
        }),
      };
    }
  }

  /** A card identifier is this payment's when the payment still waits for one of its session. */
  const verifyTicket = (input: CheckoutTicketInput) =>
    piSessionOf(input.providerReference) !== null && /^[A-Za-z0-9-]{1,100}$/.test(input.ticket);

  async function chargeTicket(input: CheckoutTicketInput): Promise<CheckoutStatus> {
    const reserve = input.captureType === 'Reserve';
    const session = piSessionOf(input.providerReference?.replace(/:ticket$/, '') ?? null);
    const eventType = reserve ? 'transaction.deferred' : 'transaction.payment';
    const payer = input.payer ?? {};
    const browser = input.browser;
    const vendorTxCode =
      input.configuration.settings.vendorTxCodeType === 'Guid'
        ? input.paymentTransactionId
        : input.ledgerlineReference;
    const sca = {
      notificationURL: input.challengeUrl ?? '',
      browserIP: browser?.ipAddress ?? '',
      browserAcceptHeader: cut(browser?.acceptHeader || 'text/html', 2048),
      browserJavascriptEnabled: true,
      browserUserAgent: cut(browser?.userAgent ?? '', 2048),
      browserJavaEnabled: false,
      browserLanguage: cut(browser?.language || 'en-GB', 8),
      ...(browser?.colorDepth ? { browserColorDepth: String(browser.colorDepth) } : {}),
      ...(browser?.screenHeight ? { browserScreenHeight: String(browser.screenHeight) } : {}),
      ...(browser?.screenWidth ? { browserScreenWidth: String(browser.screenWidth) } : {}),
      ...(browser?.timeZoneOffset !== undefined
        ? { browserTZ: `${browser.timeZoneOffset >= 0 ? '+' : ''}${browser.timeZoneOffset}` }
        : {}),
      challengeWindowSize: 'FullScreen',
      transType: 'GoodsAndServicePurchase',
    };
    const body = {
      transactionType: reserve ? 'Deferred' : 'Payment',
      paymentMethod: {
        card: { merchantSessionKey: session?.key ?? '', cardIdentifier: input.ticket },
      },
      vendorTxCode,
      // Minor units, from the payment as stored: never the browser's amount.
      amount: Number(minorUnits(input.amount, input.currency)),
      currency: input.currency,
      description: cut(input.description || `Payment ${input.ledgerlineReference}`, 100),
      apply3DSecure: 'UseMSPSetting',
      customerFirstName: cut(payer.firstNames || (payer.surname ? 'Payer' : 'Card'), 20),
      customerLastName: cut(payer.surname || payer.companyName || 'Payer', 20),
      // The page asks for no address (docs/decisions/083-opayo-server-on-the-payer-page.md "Opayo Server on the payer page").
      billingAddress: {
        address1: 'Not given',
        city: 'Not given',
        postalCode: '000',
        country: payer.country ?? 'GB',
      },
      entryMethod: 'Ecommerce',
      strongCustomerAuthentication: sca,
    };
    // The card identifier and session key are single-use, but they are never recorded.
    const recordedBody = {
      ...body,
      paymentMethod: { card: { merchantSessionKey: '(session key)', cardIdentifier: '(card)' } },
    };
    return post(
      input.configuration,
      apiUrl(input.configuration, 'transactions'),
      body,
      { eventType, body: recordedBody, recordId: input.paymentTransactionId },
      (answer, exchange) =>
        outcomeOf(answer, parse(answer.text), reserve, input.paymentTransactionId, exchange),
    );
  }

  async function completeChallenge(input: CheckoutChallengeInput): Promise<CheckoutStatus> {
    const url = apiUrl(
      input.configuration,
      `transactions/${encodeURIComponent(input.transactionId)}/3d-secure-challenge`,
    );
    const body = { cRes: input.cres, threeDSSessionData: input.threeDSSessionData };
    return post(
      input.configuration,
      url,
      body,
      { eventType: 'transaction.3d-secure-challenge', body, recordId: input.transactionId },
      (answer, exchange) => {
        const answered = parse(answer.text);
        // Opayo refused the request itself (a cres that is not this transaction's): the
        // transaction still waits for its real answer.
        if (answer.status >= 400 && !answered?.status) return { status: 'Processing', exchange };
        const outcome = outcomeOf(
          answer,
          answered,
          input.captureType === 'Reserve',
          input.paymentTransactionId,
          exchange,
        );
        // A second challenge is not part of 3-D Secure 2: what is not final now failed.
        if (outcome.status === 'Processing')
          return {
            status: 'Failed',
            providerReference: input.transactionId,
            paymentMethodType: 'Card',
            errorMessage: 'Opayo could not take the payment: 3-D Secure did not finish.',
            exchange,
          };
        return { ...outcome, providerReference: outcome.providerReference ?? input.transactionId };
      },
    );
  }

  /**
   * Status polls ask Opayo nothing while the page holds the drop-in: the outcome is the answer to
   * the charge or the challenge, which our server receives itself. A session left without card
   * details is given up; a payment waiting for 3-D Secure is looked up.
   */
  async function status(input: CheckoutStatusInput): Promise<CheckoutStatus> {
    const challenged = /^([^:]{1,100}):challenge$/.exec(input.providerReference ?? '');
    if (challenged) return lookUp(input, challenged[1]!);
    const session = piSessionOf(input.providerReference);
    if (session && now() - session.expiry > abandonAfterSeconds)
      return {
        status: 'Cancelled',
        errorMessage: 'The card form expired before card details were sent.',
        exchange: exchangeOf({
          eventType: 'merchant-session-key.expired',
          recordType: 'merchant-session-key',
          recordId: input.paymentTransactionId,
          status: 'expired',
          request: { method: 'none', url: '' },
          response: { error: 'No card details before the merchant session key expired.' },
        }),
      };
    return {
      status: 'Processing',
      exchange: exchangeOf({
        eventType: 'transaction.status',
        recordType: 'transaction',
        recordId: null,
        status: 'not_sent',
        request: { method: 'none', url: '' },
        response: { error: 'The outcome comes from the transaction or 3-D Secure answer.' },
      }),
    };
  }

  /**
   * A payment left at the card issuer's page (the payer came back another way): what Opayo says
   * of the transaction now (`GET /api/v1/transactions/{id}`); still `3DAuth` stays Processing.
   */
  async function lookUp(input: CheckoutStatusInput, transactionId: string) {
    const url = apiUrl(input.configuration, `transactions/${encodeURIComponent(transactionId)}`);
    const credentials = piCredentialsOf(input.configuration);
    const request = { method: 'GET', url };
    const waiting = (exchange: CheckoutStatus['exchange']): CheckoutStatus => ({
      status: 'Processing',
      exchange,
    });
    if (!credentials)
      return waiting(
        notSent('Opayo', 'transaction.status', 'the integration key is required').exchange,
      );
    try {
      const answer = await providerFetch('Opayo', url, {
        method: 'GET',
        headers: { authorization: credentials.authorization },
        timeoutMs: options.timeoutMs,
      });
      const answered = parse(answer.text);
      const exchange = exchangeOf({
        eventType: 'transaction.status',
        recordType: 'transaction',
        recordId: transactionId,
        status: answered?.status ?? `http_${answer.status}`,
        request,
        response: { status: answer.status, body: answer.text },
      });
      // Not found, refused, or still at the issuer's page: nothing is known yet.
      if (answer.status !== 200 || !answered?.status || answered.status === '3DAuth')
        return waiting(exchange);
      const outcome = outcomeOf(answer, answered, false, input.paymentTransactionId, exchange);
      return { ...outcome, providerReference: transactionId };
    } catch (error) {
      if (!(error instanceof ProviderUnreachableError)) throw error;
      return waiting(
        exchangeOf({
          eventType: 'transaction.status',
          recordType: 'transaction',
          recordId: transactionId,
          status: 'unreachable',
          request,
          response: { error: error.message },
        }),
      );
    }
  }

  return { start, verifyTicket, chargeTicket, completeChallenge, status };
}
