import { createHmac } from 'node:crypto';
import type {
  CheckoutAdapter,
  CheckoutConfiguration,
  CheckoutStatus,
  CheckoutTicketInput,
} from '../checkout.js';
import { notSent, sameHex, textOf } from '../checkout-support.js';
import { exchangeOf } from '../exchange.js';
import { providerFetch, ProviderUnreachableError } from '../http.js';
import { majorUnits } from '../money.js';

interface TranSafeAnswer {
  code?: string;
  msoft_code?: string;
  verbiage?: string;
  ttid?: string;
  /** The amount approved, where the answer carries it (a partial approval may be less). */
  amount?: string;
}

/** The frame's identity kept as the payment's provider reference until TranSafe gives a ttid. */
const framePrefix = 'paymentframe:';
/**
 * A frame's HMAC is good for 15 minutes (Monetra's examples); with `auto-reload` the frame renews
 * itself while the page stays open, so a payment is given up only after an hour without a ticket.
 */
const frameLifeSeconds = 60 * 60;

/**
 * The PaymentFrame options Ledgerline asks for, in the order Monetra hashes them (its public
 * PaymentFrame examples): the payer's name on the card, no address fields, the expiry as one
 * text field, the browser's autofill allowed, and no submit button inside the frame (the page's
 * own Pay button asks the frame for its ticket).
 */
const frameOptions: [string, string][] = [
  ['include-cardholdername', 'yes'],
  ['include-street', 'no'],
  ['include-zip', 'no'],
  ['expdate-format', 'single-text'],
  ['auto-reload', 'yes'],
  ['autocomplete', 'yes'],
  ['include-submit-button', 'no'],
];

const hmacOf = (password: string, content: string) =>
  createHmac('sha256', password).update(content, 'utf8').digest('hex');

/** The user name as TranSafe's Basic authentication takes it: any ':' written '|'. */
const basicUserName = (userName: string) => userName.replace(/:/g, '|');

/**
 * The frame's fields, HMAC'd with the password (Monetra's PaymentFrame examples): timestamp,
 * domain, sequence, user name, then the options; `hmacsha256` is the hex HMAC-SHA256 of their
 * values joined without separator.
 */
export function paymentFrameFields(input: {
  userName: string;
  password: string;
  timestamp: string;
  domain: string;
  sequence: string;
}): [string, string][] {
  const fields: [string, string][] = [
    ['timestamp', input.timestamp],
    ['domain', input.domain],
    ['sequence', input.sequence],
    ['username', input.userName],
    ...frameOptions,
  ];
  const hmac = hmacOf(input.password, fields.map(([, value]) => value).join(''));
  return [['hmacsha256', hmac], ...fields];
}

/**
 * The HMAC the frame puts beside the ticket it answers (`monetra_resp_hmacsha256`): user name,
 * timestamp, sequence and ticket, keyed with the password. Only the frame start() described, for
 * this payment (its sequence), can have made it.
 */
export const ticketHmacOf = (
  password: string,
  userName: string,
  timestamp: string,
  sequence: string,
  ticket: string,
) => hmacOf(password, `${userName}${timestamp}${sequence}${ticket}`);

/** A payment's frame timestamp, from the provider reference start() kept. */
const frameTimestampOf = (reference: string | null) => {
  const match = reference ? /^paymentframe:(\d{1,12})/.exec(reference) : null;
  return match ? match[1]! : null;
};

/**
 * TranSafe (Monetra) for the payer page: the PaymentFrame (card fields on
 * TranSafe's host, framed by our page) gives the page a card ticket; the server then charges it
 * with `POST transaction/purchase` (Immediate) or `POST transaction/preauth` (Reserve), the
 * payment's own amount in `money`. The answer is the outcome: `code: AUTH` Paid (Pending for a
 * preauth, completed or reversed later by transafe.adapter.ts with the ttid), DENY NotAuthorised
 * with TranSafe's verbiage, anything else Failed. TranSafe sends no notifications.
 */
export function createTranSafeCheckout(options: {
  testUrl: string;
  liveUrl: string;
  timeoutMs: number;
  /** The clock, in whole seconds (the frame's HMAC timestamp). */
  now?: () => number;
}): CheckoutAdapter {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const hostOf = (configuration: CheckoutConfiguration) =>
    (configuration.isTest ? options.testUrl : options.liveUrl).replace(/\/$/, '');
  const credentialsOf = (configuration: CheckoutConfiguration) => {
    const userName = textOf(configuration.credentials, 'userName');
    const password = textOf(configuration.credentials, 'password');
    return userName && password ? { userName, password } : null;
  };

  function verifyTicket(input: CheckoutTicketInput): boolean {
    const credentials = credentialsOf(input.configuration);
    const timestamp = frameTimestampOf(input.providerReference);
    if (!credentials || !timestamp) return false;
    const expected = ticketHmacOf(
      credentials.password,
      credentials.userName,
      timestamp,
      input.paymentTransactionId,
      input.ticket,
    );
    return sameHex(expected, input.ticketHmac ?? '');
  }

  async function chargeTicket(input: CheckoutTicketInput): Promise<CheckoutStatus> {
    const reserve = input.captureType === 'Reserve';
    const eventType = reserve ? 'transaction.preauth' : 'transaction.purchase';
    const credentials = credentialsOf(input.configuration);
    if (!credentials) {
      const { exchange, message } = notSent(
        'TranSafe',
        eventType,
        'the user name and password are required',
      );
      return { status: 'Failed', errorMessage: message, exchange };
    }
    const url = `${hostOf(input.configuration)}/api/v2/transaction/${reserve ? 'preauth' : 'purchase'}`;
    const body = {
      account_data: { cardshieldticket: input.ticket },
      money: { amount: majorUnits(input.amount, input.currency) },
      order: { ordernum: input.ledgerlineReference },
    };
    // The ticket is single-use but still charges a card: it is never recorded.
    const request = {
      method: 'POST',
      url,
      body: { ...body, account_data: { cardshieldticket: '(ticket)' } },
    };
    const recordId = input.paymentTransactionId;
    try {
      const answer = await providerFetch('TranSafe', url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${basicUserName(credentials.userName)}:${credentials.password}`).toString('base64')}`,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        timeoutMs: options.timeoutMs,
      });
      const answered = answer.json<TranSafeAnswer>();
      const code = answered?.code ?? '';
      const exchange = exchangeOf({
        eventType,
        recordType: 'transaction',
        recordId: answered?.ttid ?? recordId,
        status: code || `http_${answer.status}`,
        request,
        response: { status: answer.status, body: answer.text },
      });
      const ttid = answered?.ttid ?? null;
      if (code === 'AUTH')
        return {
          status: reserve ? 'Pending' : 'Paid',
          // What capture (`PATCH transaction/{ttid}/complete`) and reversal act on.
          providerReference: ttid,
          paymentMethodType: 'Card',
          errorMessage: null,
          // What TranSafe approved; it names no currency (an account settles
          // in one), so none is claimed.
          ...(typeof answered?.amount === 'string' && /^\d{1,15}(\.\d{1,4})?$/.test(answered.amount)
            ? { amount: answered.amount }
            : {}),
          exchange,
        };
      const said = answered?.verbiage?.trim();
      return {
        // A refusal of the card; a refusal of our credentials (401/403) is no fault of the card.
        status: code === 'DENY' && answer.status < 400 ? 'NotAuthorised' : 'Failed',
        providerReference: ttid,
        paymentMethodType: 'Card',
        errorMessage: said || `TranSafe could not take the payment (HTTP ${answer.status}).`,
        exchange,
      };
    } catch (error) {
      if (!(error instanceof ProviderUnreachableError)) throw error;
      // No answer: nothing is known; the payment is recorded Failed and the payer may try again
      // (docs/decisions/084-transafe-paymentframe-a-card-ticket-charged-by.md "TranSafe PaymentFrame").
      return {
        status: 'Failed',
        paymentMethodType: 'Card',
        errorMessage: 'TranSafe could not be reached; please try again in a moment.',
        exchange: exchangeOf({
          eventType,
          recordType: 'transaction',
          recordId,
          status: 'unreachable',
          request,
          response: { error: error.message },
        }),
      };
    }
  }

  return {
    name: 'TranSafe',

    async start(input) {
      const credentials = credentialsOf(input.configuration);
      if (!credentials)
        throw notSent(
          'TranSafe',
          'paymentframe.request',
          'the user name and password are required',
        );
      const host = hostOf(input.configuration);
      const timestamp = String(now());
      const fields = paymentFrameFields({
        ...credentials,
        timestamp,
        // The frame answers only to the page that framed it: the payer page's origin.
        domain: new URL(input.returnUrl).origin,
        // One frame per payment: its sequence is the payment's id.
        sequence: input.paymentTransactionId,
      });
      const query = new URLSearchParams(fields.map(([key, value]) => [`hmac-${key}`, value]));
      const frameUrl = `${host}/PaymentFrame/?${query.toString()}`;
      const attributes = Object.fromEntries(
        fields.map(([key, value]) => [`data-hmac-${key}`, value]),
      );
      return {
        next: { kind: 'transafe-frame', frameUrl, frameOrigin: new URL(host).origin, attributes },
        providerReference: `${framePrefix}${timestamp}`,
        // Nothing is sent to TranSafe yet: the frame's fields are what the page will send.
        exchange: exchangeOf({
          eventType: 'paymentframe.request',
          recordType: 'paymentframe',
          recordId: input.paymentTransactionId,
          status: 'frame_shown',
          request: { method: 'GET', url: `${host}/PaymentFrame/`, body: attributes },
          response: { status: 200, body: '' },
        }),
      };
    },

    // The outcome is the answer to the charge (chargeTicket); there is nothing to ask TranSafe
    // about a frame before it. A frame left without card details past its HMAC's life (and the
    // hold on new attempts) is Cancelled; one whose ticket was claimed waits for its charge.
    async status(input) {
      const reference = input.providerReference ?? '';
      const timestamp = frameTimestampOf(reference);
      if (
        timestamp &&
        !reference.endsWith(':ticket') &&
        now() - Number(timestamp) > frameLifeSeconds
      )
        return {
          status: 'Cancelled',
          errorMessage: 'The card form expired before card details were sent.',
          exchange: exchangeOf({
            eventType: 'paymentframe.expired',
            recordType: 'paymentframe',
            recordId: input.paymentTransactionId,
            status: 'expired',
            request: { method: 'none', url: '' },
            response: { error: `No card details within ${frameLifeSeconds / 60} minutes.` },
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
          response: { error: 'The outcome comes from the purchase or preauth answer.' },
        }),
      };
    },

    verifyTicket,
    chargeTicket,
  };
}
