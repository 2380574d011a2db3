import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CheckoutAdapter,
  CheckoutConfiguration,
  CheckoutTicketInput,
} from '../checkout.js';
import { CheckoutStartError } from '../checkout-support.js';
import { createTranSafeAdapter } from './transafe.adapter.js';
import { createTranSafeCheckout } from './transafe.checkout.js';
import { fakeTranSafeCards, startFakeTranSafe, type FakeTranSafe } from '../../../test/fakes/fake-transafe.js';
import { recorded, startInput } from '../../../test/fixtures/checkout-input.js';

const userName = 'merchant:web';
const password = 'frame-secret-1';
const timestamp = 1_796_000_000;

let tranSafe: FakeTranSafe;
let adapter: CheckoutAdapter;
let configuration: CheckoutConfiguration;

beforeAll(async () => {
  tranSafe = await startFakeTranSafe();
  // TranSafe's Basic user name has '|' for ':'.
  tranSafe.users.set('merchant|web', password);
  adapter = createTranSafeCheckout({
    testUrl: tranSafe.url,
    liveUrl: 'http://127.0.0.1:9',
    timeoutMs: 5000,
    now: () => Math.floor(Date.now() / 1000),
  });
  configuration = {
    id: randomUUID(),
    isTest: true,
    credentials: { userName, password },
    settings: { useTestSite: true },
  };
});
afterAll(() => tranSafe.close());

type FrameStep = {
  kind: 'transafe-frame';
  frameUrl: string;
  frameOrigin: string;
  attributes: Record<string, string>;
};

/** What the PaymentFrame does when the page asks it for a ticket: the card → a ticket and its HMAC. */
async function ticketFrom(step: FrameStep, account: string = fakeTranSafeCards.approved) {
  const frame = new URL(step.frameUrl);
  const page = await fetch(frame);
  expect(page.status, await page.clone().text()).toBe(200);
  const answer = await fetch(new URL('ticket', frame), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: frame.searchParams.get('hmac-username'),
      timestamp: frame.searchParams.get('hmac-timestamp'),
      sequence: frame.searchParams.get('hmac-sequence'),
      account,
      expdate: '1230',
      cv: '123',
    }),
  });
  const body = (await answer.json()) as {
    code: string;
    ticket: string;
    monetra_resp_hmacsha256: string;
  };
  expect(body.code).toBe('AUTH');
  return { ticket: body.ticket, ticketHmac: body.monetra_resp_hmacsha256 };
}

async function started(overrides: Parameters<typeof startInput>[1] = {}) {
  const input = startInput(configuration, overrides);
  const start = await adapter.start(input);
  if (start.next.kind !== 'transafe-frame') throw new Error('not the frame');
  const ticketInput = (ticket: { ticket: string; ticketHmac: string }): CheckoutTicketInput => ({
    paymentTransactionId: input.paymentTransactionId,
    ledgerlineReference: input.ledgerlineReference,
    providerReference: start.providerReference,
    amount: input.amount,
    currency: input.currency,
    captureType: input.captureType,
    configuration,
    ...ticket,
  });
  return { input, start, step: start.next, ticketInput };
}

describe('TranSafe PaymentFrame checkout', () => {
  it('describes the frame: its HMAC fields in Monetra’s order, keyed with the password, that TranSafe accepts', async () => {
    const fixed = createTranSafeCheckout({
      testUrl: tranSafe.url,
      liveUrl: 'http://127.0.0.1:9',
      timeoutMs: 5000,
      now: () => timestamp,
    });
    const input = startInput(configuration);
    const start = await fixed.start(input);
    if (start.next.kind !== 'transafe-frame') throw new Error('not the frame');
    const values = [
      String(timestamp),
      'https://ledgerline.example',
      input.paymentTransactionId,
      userName,
      'yes', // include-cardholdername
      'no', // include-street
      'no', // include-zip
      'single-text', // expdate-format
      'yes', // auto-reload
      'yes', // autocomplete
      'no', // include-submit-button
    ];
    const hmac = createHmac('sha256', password).update(values.join('')).digest('hex');
    expect(start.next.attributes).toEqual({
      'data-hmac-hmacsha256': hmac,
      'data-hmac-timestamp': String(timestamp),
      'data-hmac-domain': 'https://ledgerline.example',
      'data-hmac-sequence': input.paymentTransactionId,
      'data-hmac-username': userName,
      'data-hmac-include-cardholdername': 'yes',
      'data-hmac-include-street': 'no',
      'data-hmac-include-zip': 'no',
      'data-hmac-expdate-format': 'single-text',
      'data-hmac-auto-reload': 'yes',
      'data-hmac-autocomplete': 'yes',
      'data-hmac-include-submit-button': 'no',
    });
    const frame = new URL(start.next.frameUrl);
    expect(`${frame.origin}${frame.pathname}`).toBe(`${tranSafe.url}/PaymentFrame/`);
    expect(frame.searchParams.get('hmac-hmacsha256')).toBe(hmac);
    expect(start.next.frameOrigin).toBe(tranSafe.url);
    expect(start.providerReference).toBe(`paymentframe:${timestamp}`);
    // Nothing secret is shown to the page or recorded.
    expect(JSON.stringify(start.next)).not.toContain(password);
    expect(recorded(start.exchange)).not.toContain(password);
  });

  it('TranSafe refuses a frame whose fields were changed after signing', async () => {
    const { step } = await started();
    const tampered = new URL(step.frameUrl);
    tampered.searchParams.set('hmac-domain', 'https://attacker.example');
    const page = await fetch(tampered);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('Invalid HMAC');
  });

  it('charges the ticket with purchase: the payment’s amount, our reference, Basic auth; AUTH is Paid with the ttid', async () => {
    const { input, step, ticketInput } = await started();
    const ticket = await ticketFrom(step);
    expect(adapter.verifyTicket!(ticketInput(ticket))).toBe(true);
    const answer = await adapter.chargeTicket!(ticketInput(ticket));
    const sent = tranSafe.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/api/v2/transaction/purchase');
    expect(sent.headers.authorization).toBe(
      `Basic ${Buffer.from(`merchant|web:${password}`).toString('base64')}`,
    );
    expect(JSON.parse(sent.body)).toEqual({
      account_data: { cardshieldticket: ticket.ticket },
      money: { amount: '92.50' },
      order: { ordernum: input.ledgerlineReference },
    });
    const ttid = [...tranSafe.transactions.keys()].at(-1)!;
    expect(answer).toMatchObject({
      status: 'Paid',
      providerReference: ttid,
      paymentMethodType: 'Card',
      errorMessage: null,
    });
    expect(tranSafe.transactions.get(ttid)).toEqual({ amount: '92.50', status: 'complete' });
    // Neither the password nor the ticket is kept in the provider event.
    expect(recorded(answer.exchange)).not.toContain(password);
    expect(recorded(answer.exchange)).not.toContain(ticket.ticket);
  });

  it('a Reserve request is a preauth: Pending, completed later with the ttid by the capture adapter', async () => {
    const { step, ticketInput } = await started({ captureType: 'Reserve', amount: '40' });
    const answer = await adapter.chargeTicket!(ticketInput(await ticketFrom(step)));
    expect(tranSafe.requests.at(-1)!.path).toBe('/api/v2/transaction/preauth');
    expect(answer.status).toBe('Pending');
    const ttid = answer.providerReference!;
    expect(tranSafe.transactions.get(ttid)).toEqual({ amount: '40.00', status: 'preauth' });
    const capture = createTranSafeAdapter({
      testUrl: tranSafe.url,
      liveUrl: 'http://127.0.0.1:9',
      timeoutMs: 5000,
    });
    const captured = await capture.capture({
      paymentTransactionId: randomUUID(),
      providerReference: ttid,
      amount: '40',
      currency: 'GBP',
      note: null,
      configuration,
    });
    expect(captured.ok).toBe(true);
    expect(tranSafe.transactions.get(ttid)!.status).toBe('complete');
  });

  it('DENY is NotAuthorised with TranSafe’s verbiage; CALL and the test switch’s other codes are Failed', async () => {
    const declined = await started();
    const denied = await adapter.chargeTicket!(
      declined.ticketInput(await ticketFrom(declined.step, fakeTranSafeCards.declined)),
    );
    expect(denied).toMatchObject({ status: 'NotAuthorised', errorMessage: 'DECLINED' });

    const call = await started();
    const referred = await adapter.chargeTicket!(
      call.ticketInput(await ticketFrom(call.step, fakeTranSafeCards.callIssuer)),
    );
    expect(referred).toMatchObject({ status: 'Failed', errorMessage: 'CALL FOR AUTH' });

    const switched = await started();
    tranSafe.nextAnswer = { code: 'DENY', verbiage: 'CVV2 MISMATCH' };
    const forced = await adapter.chargeTicket!(
      switched.ticketInput(await ticketFrom(switched.step)),
    );
    expect(forced).toMatchObject({ status: 'NotAuthorised', errorMessage: 'CVV2 MISMATCH' });
  });

  it('a wrong ticket: its HMAC fails for another payment or another ticket; TranSafe refuses an unknown or used one', async () => {
    const first = await started();
    const second = await started();
    const ticket = await ticketFrom(first.step);
    // The same ticket and HMAC presented for another payment (another frame's sequence).
    expect(adapter.verifyTicket!(second.ticketInput(ticket))).toBe(false);
    expect(
      adapter.verifyTicket!(first.ticketInput({ ...ticket, ticket: `${ticket.ticket}0` })),
    ).toBe(false);
    expect(
      adapter.verifyTicket!(first.ticketInput({ ...ticket, ticketHmac: '0'.repeat(64) })),
    ).toBe(false);
    expect(adapter.verifyTicket!({ ...first.ticketInput(ticket), providerReference: null })).toBe(
      false,
    );

    const unknown = await adapter.chargeTicket!(
      first.ticketInput({ ...ticket, ticket: 'f'.repeat(24) }),
    );
    expect(unknown).toMatchObject({
      status: 'NotAuthorised',
      errorMessage: 'Invalid or expired card ticket',
    });
    expect((await adapter.chargeTicket!(first.ticketInput(ticket))).status).toBe('Paid');
    const again = await adapter.chargeTicket!(first.ticketInput(ticket));
    expect(again).toMatchObject({
      status: 'NotAuthorised',
      errorMessage: 'Invalid or expired card ticket',
    });
  });

  it('wrong credentials are Failed (not the card’s fault); an unreachable TranSafe is Failed; none configured: nothing sent', async () => {
    const { step, ticketInput } = await started();
    const ticket = await ticketFrom(step);
    const wrong = { ...configuration, credentials: { userName, password: 'not-it' } };
    const refused = await adapter.chargeTicket!({ ...ticketInput(ticket), configuration: wrong });
    expect(refused).toMatchObject({
      status: 'Failed',
      errorMessage: 'Invalid username or password',
    });

    const live = { ...configuration, isTest: false };
    const unreachable = await adapter.chargeTicket!({
      ...ticketInput(ticket),
      configuration: live,
    });
    expect(unreachable.status).toBe('Failed');
    expect(JSON.parse(unreachable.exchange.payload).response.error).toContain('TranSafe');

    const empty = { ...configuration, credentials: {} };
    await expect(adapter.start(startInput(empty))).rejects.toBeInstanceOf(CheckoutStartError);
    const unsent = await adapter.chargeTicket!({ ...ticketInput(ticket), configuration: empty });
    expect(unsent).toMatchObject({ status: 'Failed' });
    expect(unsent.exchange.status).toBe('not_sent');
  });

  it('the status poll asks nothing: the outcome is the charge’s answer; a frame left an hour is Cancelled', async () => {
    const requests = tranSafe.requests.length;
    const poll = (providerReference: string, at: number) =>
      createTranSafeCheckout({
        testUrl: tranSafe.url,
        liveUrl: 'http://127.0.0.1:9',
        timeoutMs: 5000,
        now: () => at,
      }).status({
        paymentTransactionId: randomUUID(),
        providerReference,
        returnQuery: {},
        configuration,
      });
    const frame = `paymentframe:${timestamp}`;
    expect((await poll(frame, timestamp + 3599)).status).toBe('Processing');
    expect(await poll(frame, timestamp + 3601)).toMatchObject({
      status: 'Cancelled',
      errorMessage: 'The card form expired before card details were sent.',
    });
    // Card details were sent: the charge's answer decides, however long it takes.
    expect((await poll(`${frame}:ticket`, timestamp + 7200)).status).toBe('Processing');
    expect(tranSafe.requests.length).toBe(requests);
  });
});
