import type { CheckoutAdapter, CheckoutPaymentStatus, CheckoutStartInput } from '../checkout.js';
import { CheckoutStartError, notSent, sameHex, startCall, textOf } from '../checkout-support.js';
import { exchangeOf } from '../exchange.js';
import { formBody, providerFetch } from '../http.js';
import { majorUnits } from '../money.js';
import { createOpayoPi } from './opayo.pi.js';
import {
  notificationReply,
  opayoNotificationSignature,
  opayoProtocol,
  opayoServiceUrl,
  parseOpayoAnswer,
  readServerSecret,
  withoutSecrets,
} from './opayo.server.js';

/** A notification's Status as a payment transaction status (TxType says whether it was reserved). */
export function opayoNotificationStatus(status: string, txType: string): CheckoutPaymentStatus {
  switch (status) {
    case 'OK':
      return txType === 'DEFERRED' ? 'Pending' : 'Paid';
    case 'AUTHENTICATED':
    case 'REGISTERED':
      return 'Pending';
    case 'NOTAUTHED':
      return 'NotAuthorised';
    case 'ABORT':
      return 'Cancelled';
    case 'REJECTED':
      return 'Rejected';
    case 'PENDING':
      return 'Processing';
    default:
      return 'Failed';
  }
}

/** What the payer is told when the notification says it did not go through. */
const payerMessages: Partial<Record<CheckoutPaymentStatus, string>> = {
  NotAuthorised: 'Your card was declined',
  Cancelled: 'The payment was cancelled on the Opayo card page.',
  Rejected: 'Opayo did not accept the card for this payment (fraud screening).',
  Failed: 'Opayo could not take the payment.',
};

/** Opayo's length limits (Server protocol 4.00): names 20, address 100, city 40, post code 10. */
const cut = (value: string, length: number) => value.trim().slice(0, length);

/**
 * What Opayo gets as the billing (and delivery) details. The payer page asks only for names and an
 * e-mail address, so a payer who gave none is sent the request's company name and fixed address
 * placeholders (docs/decisions/083-opayo-server-on-the-payer-page.md "Opayo Server on the payer page").
 */
export function billingFields(payer: CheckoutStartInput['payer']): Record<string, string> {
  const surname = cut(payer.surname || payer.companyName || 'Payer', 20);
  const firstNames = cut(payer.firstNames || (payer.surname ? 'Payer' : 'Card'), 20);
  const address = {
    Surname: surname,
    Firstnames: firstNames,
    Address1: 'Not given',
    City: 'Not given',
    PostCode: '000',
    Country: payer.country ?? 'GB',
  };
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(address)) {
    fields[`Billing${key}`] = value;
    fields[`Delivery${key}`] = value;
  }
  return fields;
}

/**
 * Opayo Server for the payer page: register the transaction
 * (`vspserver-register.vsp`, PAYMENT, or DEFERRED when the request reserves), keep the SecurityKey
 * sealed with the payment, send the payer to Opayo's card page (NextURL). Opayo then POSTs its
 * notification, signed with that SecurityKey (VPSSignature), and reads our `Status=OK` and
 * `RedirectURL=` answer to send the payer back. Server has no status call: the outcome is the
 * notification, which arrives before the payer returns. Pi (Opayo.js drop-in, a card identifier
 * charged by our server) is in opayo.pi.ts.
 */
export function createOpayoCheckout(options: {
  testUrl: string;
  liveUrl: string;
  timeoutMs: number;
}): CheckoutAdapter {
  const hostOf = (settings: Record<string, unknown>) =>
    settings.useTestServer === true ? options.testUrl : options.liveUrl;
  const pi = createOpayoPi({
    hostOf: (configuration) => hostOf(configuration.settings).replace(/\/$/, ''),
    timeoutMs: options.timeoutMs,
  });
  const isPi = (configuration: { settings: Record<string, unknown> }) =>
    configuration.settings.integrationType === 'Pi';

  return {
    name: 'Opayo',

    async start(input) {
      if (isPi(input.configuration)) return pi.start(input);
      const eventType = 'transaction.register';
      const { credentials, settings } = input.configuration;
      const vendorName = textOf(credentials, 'vendorName');
      if (!vendorName) throw notSent('Opayo', eventType, 'the vendor name is required');
      const vendorTxCode =
        settings.vendorTxCodeType === 'Guid'
          ? input.paymentTransactionId
          : input.ledgerlineReference;
      const fields: Record<string, string> = {
        VPSProtocol: opayoProtocol,
        TxType: input.captureType === 'Reserve' ? 'DEFERRED' : 'PAYMENT',
        Vendor: vendorName,
        VendorTxCode: vendorTxCode,
        Amount: majorUnits(input.amount, input.currency),
        Currency: input.currency,
        Description: cut(input.description || `Payment ${input.ledgerlineReference}`, 100),
        NotificationURL: input.notificationUrl,
        ...billingFields(input.payer),
        ...(input.payer.emailAddress ? { CustomerEMail: cut(input.payer.emailAddress, 255) } : {}),
        Profile: 'NORMAL',
        // The merchant's own Opayo rules decide AVS/CV2 and 3-D Secure; the payer is present (4.00).
        ApplyAVSCV2: '0',
        Apply3DSecure: '0',
        AllowGiftAid: '0',
        InitiatedType: 'CIT',
      };
      const url = opayoServiceUrl(hostOf(settings), 'vspserver-register');
      const request = { method: 'POST', url, body: fields };
      const answer = await startCall('Opayo', eventType, 'transaction', request, () =>
        providerFetch('Opayo', url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        }),
      );
      const answered = parseOpayoAnswer(answer.text);
      const status = answered.Status ?? `http_${answer.status}`;
      const exchange = exchangeOf({
        eventType,
        recordType: 'transaction',
        recordId: answered.VPSTxId ?? null,
        status,
        request,
        // The SecurityKey is kept sealed with the payment, never in the provider event.
        response: { status: answer.status, body: formBody(withoutSecrets(answered)) },
      });
      const registered = status === 'OK' || status === 'OK REPEATED';
      const nextUrl = answered.NextURL ?? '';
      if (
        !registered ||
        !answered.VPSTxId ||
        !answered.SecurityKey ||
        !/^https?:\/\//.test(nextUrl)
      )
        throw new CheckoutStartError(
          `Opayo could not start the payment: ${answered.StatusDetail ?? `HTTP ${answer.status}`}`,
          exchange,
        );
      return {
        next: { kind: 'redirect', url: nextUrl },
        providerReference: answered.VPSTxId,
        exchange,
        secret: JSON.stringify({ securityKey: answered.SecurityKey, vendorTxCode }),
      };
    },

    // Server has no status call: the payment stays as its notification left it.
    async status(input) {
      if (isPi(input.configuration)) return pi.status(input);
      return {
        status: 'Processing',
        exchange: exchangeOf({
          eventType: 'transaction.status',
          recordType: 'transaction',
          recordId: input.providerReference,
          status: 'not_sent',
          request: { method: 'none', url: '' },
          response: {
            error: 'Opayo Server has no status call; its notification settles the payment.',
          },
        }),
      };
    },

    async verifyNotification(input) {
      const fields = new URLSearchParams(input.rawBody.toString('utf8'));
      const vpsTxId = fields.get('VPSTxId') ?? '';
      const known = vpsTxId && input.paymentSecret ? await input.paymentSecret(vpsTxId) : null;
      const secret = readServerSecret(known?.secret);
      const vendorName = textOf(input.configuration.credentials, 'vendorName');
      const invalid = (detail: string) => ({
        ok: false as const,
        statusCode: 200,
        contentType: 'text/plain',
        body: notificationReply('INVALID', known?.returnUrl ?? input.publicUrl ?? '', detail),
      });
      if (!known || !secret || !vendorName) return invalid('Unknown transaction.');
      if (fields.get('VendorTxCode') !== secret.vendorTxCode)
        return invalid('VendorTxCode does not match the transaction.');
      const expected = opayoNotificationSignature(fields, vendorName, secret.securityKey);
      if (!sameHex(expected, fields.get('VPSSignature') ?? ''))
        return invalid('VPSSignature does not match.');

      const opayoStatus = fields.get('Status') ?? '';
      const status = opayoNotificationStatus(opayoStatus, fields.get('TxType') ?? '');
      const txAuthNo = fields.get('TxAuthNo');
      return {
        ok: true,
        events: [
          {
            eventId: `${vpsTxId}:${opayoStatus}`,
            paymentTransactionId: known.paymentTransactionId,
            providerReference: vpsTxId,
            status,
            eventType: `notification.${opayoStatus.toLowerCase() || 'unknown'}`,
            payload: input.rawBody.toString('utf8'),
            errorMessage: payerMessages[status] ?? null,
          },
        ],
        reply: {
          contentType: 'text/plain',
          body: notificationReply('OK', known.returnUrl, 'Notification received.'),
        },
        // Release and abort of a reserved payment need the authorisation number.
        ...(txAuthNo
          ? {
              secret: {
                paymentTransactionId: known.paymentTransactionId,
                secret: JSON.stringify({ ...secret, txAuthNo }),
              },
            }
          : {}),
      };
    },

    // Pi: the card identifier of the page's Opayo.js drop-in (a Server payment has none).
    verifyTicket: (input) => isPi(input.configuration) && pi.verifyTicket(input),
    chargeTicket: (input) => pi.chargeTicket(input),
    completeChallenge: (input) => pi.completeChallenge(input),
  };
}
