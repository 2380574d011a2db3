import type { CheckoutAdapter, CheckoutPaymentStatus, CheckoutStatus } from '../checkout.js';
import {
  answered,
  CheckoutStartError,
  notSent,
  startCall,
  statusCall,
  textOf,
} from '../checkout-support.js';
import { formBody, providerFetch } from '../http.js';
import { majorUnits } from '../money.js';
import { oppwaPending, oppwaSuccess, oppwaSuccessNeedingReview } from './oppwa.adapter.js';
import { verifyOppwaNotification } from './oppwa.notifications.js';

interface OppwaResult {
  id?: string;
  paymentType?: string;
  paymentBrand?: string;
  merchantTransactionId?: string;
  amount?: string;
  currency?: string;
  result?: { code?: string; description?: string };
}

/** OPPWA's result code groups (reference/providers.md; the rest from OPPWA's result code list). */
const cancelledByPayer = /^100\.396\.10[1-4]/;
/** 3-D Secure and risk checks: the card's issuer or the processor would not authorise it. */
const notAuthorised = /^(000\.400\.[1][0-9][1-9]|000\.400\.2|100\.390|800\.400\.1)/;
/** Risk systems and blacklists. */
const rejected = /^(100\.400|100\.38|100\.370\.100|100\.370\.11|800\.[32])/;
/** The checkout ran out (30 minutes or one payment) before anything was paid. */
const noSession = /No payment session found/i;

/** A result code (with its payment type) as a payment transaction status. */
export function oppwaStatus(
  code: string,
  paymentType: string | undefined,
  description = '',
): CheckoutPaymentStatus {
  if (oppwaSuccess.test(code) || oppwaSuccessNeedingReview.test(code))
    return paymentType === 'PA' ? 'Pending' : 'Paid';
  if (oppwaPending.test(code)) return 'Processing';
  if (cancelledByPayer.test(code) || noSession.test(description)) return 'Cancelled';
  if (notAuthorised.test(code)) return 'NotAuthorised';
  if (rejected.test(code)) return 'Rejected';
  return 'Failed';
}

/** Only a checkout's own payment path is read from a return query (never an address of the browser's choosing). */
const resourcePathOf = (value: string | undefined) =>
  value && /^\/v1\/checkouts\/[A-Za-z0-9.\-_]+\/payment$/.test(value) ? value : null;

/** OPPWA's amount ("92.00") as a decimal string, when the answer carries a well-formed one. */
const amountOf = (body: OppwaResult | null) =>
  typeof body?.amount === 'string' &&
  /^\d{1,15}(\.\d{1,4})?$/.test(body.amount) &&
  typeof body.currency === 'string' &&
  /^[A-Z]{3}$/.test(body.currency)
    ? { amount: body.amount, currency: body.currency }
    : {};

/**
 * ACI / PAY.ON OPPWA COPYandPAY (Total Processing) for the payer page: a checkout
 * (`POST /v1/checkouts`, DB, or PA when the request reserves) whose widget the page shows, then
 * the payment status call (`GET /v1/checkouts/{id}/payment`), which settles the payment. Its
 * encrypted notifications (oppwa.notifications.ts) bring refunds and chargebacks.
 */
export function createOppwaCheckout(options: {
  testUrl: string;
  liveUrl: string;
  timeoutMs: number;
}): CheckoutAdapter {
  const hostOf = (credentials: Record<string, unknown>) =>
    (credentials.useSandbox === true ? options.testUrl : options.liveUrl).replace(/\/$/, '');

  return {
    name: 'Oppwa',

    async start(input) {
      const eventType = 'checkout.create';
      const { credentials, settings } = input.configuration;
      const entityId = textOf(credentials, 'entityId');
      const accessToken = textOf(credentials, 'accessToken');
      if (!entityId || !accessToken)
        throw notSent('Total Processing', eventType, 'the entity id and access token are required');
      const host = hostOf(credentials);
      const fields: Record<string, string> = {
        entityId,
        amount: majorUnits(input.amount, input.currency),
        currency: input.currency,
        paymentType: input.captureType === 'Reserve' ? 'PA' : 'DB',
        merchantTransactionId: input.paymentTransactionId,
        merchantInvoiceId: input.ledgerlineReference,
        ...(input.payer.firstNames ? { 'customer.givenName': input.payer.firstNames } : {}),
        ...(input.payer.surname ? { 'customer.surname': input.payer.surname } : {}),
        ...(input.payer.companyName ? { 'customer.companyName': input.payer.companyName } : {}),
        ...(input.payer.emailAddress ? { 'customer.email': input.payer.emailAddress } : {}),
        // spec 3 §2 store-card details, with the payer's consent: the card is
        // registered with the payment, its registrationId in the payment's answer.
        ...(settings.storePayerPaymentMethod === true && input.saveCard === true
          ? { createRegistration: 'true' }
          : {}),
        ...(credentials.useSandbox === true ? { testMode: 'EXTERNAL' } : {}),
      };
      const url = `${host}/v1/checkouts`;
      // The entity id is not secret; the access token travels only in the header.
      const request = { method: 'POST', url, body: fields };
      const answer = await startCall('Total Processing', eventType, 'checkout', request, () =>
        providerFetch('Total Processing', url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        }),
      );
      const body = answer.json<OppwaResult>();
      const code = body?.result?.code ?? '';
      const exchange = answered(
        eventType,
        'checkout',
        body?.id ?? null,
        code || `http_${answer.status}`,
        request,
        answer,
      );
      if (!/^000\.200\.100/.test(code) || !body?.id)
        throw new CheckoutStartError(
          `Total Processing could not start the payment: ${body?.result?.description ?? `HTTP ${answer.status}`}`,
          exchange,
        );
      const brands =
        Array.isArray(settings.brands) && settings.brands.length > 0
          ? (settings.brands as string[]).join(' ')
          : 'VISA MASTER';
      return {
        next: {
          kind: 'oppwa',
          checkoutId: body.id,
          scriptUrl: `${host}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(body.id)}`,
          brands,
          shopperResultUrl: input.returnUrl,
        },
        providerReference: body.id,
        exchange,
      };
    },

    async status(input) {
      const eventType = 'checkout.payment.retrieve';
      const { credentials } = input.configuration;
      const entityId = textOf(credentials, 'entityId');
      const accessToken = textOf(credentials, 'accessToken');
      const checkoutId = input.providerReference ?? input.returnQuery.id ?? null;
      const fromReturn = resourcePathOf(input.returnQuery.resourcePath);
      const path =
        fromReturn && (!checkoutId || fromReturn === `/v1/checkouts/${checkoutId}/payment`)
          ? fromReturn
          : checkoutId
            ? `/v1/checkouts/${encodeURIComponent(checkoutId)}/payment`
            : null;
      if (!entityId || !accessToken || !path)
        return {
          status: 'Processing',
          exchange: notSent('Total Processing', eventType, 'no checkout to ask about').exchange,
        };
      const url = `${hostOf(credentials)}${path}?${formBody({ entityId })}`;
      const request = { method: 'GET', url };
      return statusCall(
        eventType,
        'checkout',
        checkoutId,
        request,
        async (): Promise<CheckoutStatus> => {
          const answer = await providerFetch('Total Processing', url, {
            method: 'GET',
            headers: { authorization: `Bearer ${accessToken}` },
            timeoutMs: options.timeoutMs,
          });
          const body = answer.json<OppwaResult>();
          const code = body?.result?.code ?? '';
          const exchange = answered(
            eventType,
            'payment',
            body?.id ?? checkoutId,
            code || `http_${answer.status}`,
            request,
            answer,
          );
          // Bad credentials (800.900.*) or no answer body: nothing is known about the payment.
          if (!code || /^800\.900/.test(code)) return { status: 'Processing', exchange };
          const status = oppwaStatus(code, body?.paymentType, body?.result?.description);
          const settled = status === 'Paid' || status === 'Pending';
          return {
            status,
            // The payment id: what capture (CP) and reversal (RV) act on (oppwa.adapter.ts).
            providerReference: settled && body?.id ? body.id : undefined,
            paymentTransactionId: body?.merchantTransactionId ?? null,
            paymentMethodType: 'Card',
            errorMessage:
              settled || status === 'Processing' ? null : (body?.result?.description ?? null),
            // What OPPWA says it took or reserved.
            ...amountOf(body),
            exchange,
          };
        },
      );
    },

    verifyNotification: verifyOppwaNotification,
  };
}
