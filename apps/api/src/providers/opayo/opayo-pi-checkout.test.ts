import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { CheckoutConfiguration, CheckoutTicketInput } from '../checkout.js';
import { CheckoutStartError } from '../checkout-support.js';
import { createOpayoCheckout } from './opayo.checkout.js';
import { fakeOpayoPiCards } from '../../../test/fakes/fake-opayo-pi.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { recorded, startInput } from '../../../test/fixtures/checkout-input.js';

/**
 * Opayo Pi's checkout adapter against the fake, over real HTTP: the merchant session key for the
 * drop-in, the card identifier charged as Opayo takes it (minor units, SCA browser fields), every
 * answer as an outcome, and the 3-D Secure challenge's completion.
 */

let opayo: FakeOpayo;
let adapter: ReturnType<typeof createOpayoCheckout>;
const integrationKey = 'pi-integration-key';
const integrationPassword = 'pi-integration-secret-1';

const configuration = (overrides: Partial<CheckoutConfiguration> = {}): CheckoutConfiguration => ({
  id: randomUUID(),
  isTest: true,
  credentials: {
    vendorName: 'piVendor',
    adminUser: 'admin',
    adminPassword: 'Admin-1',
    integrationKey,
    integrationPassword,
  },
  settings: { useTestServer: true, integrationType: 'Pi', vendorTxCodeType: 'PaymentRequest' },
  ...overrides,
});

beforeAll(async () => {
  opayo = await startFakeOpayo();
  opayo.integrations.set(integrationKey, integrationPassword);
  adapter = createOpayoCheckout({
    testUrl: opayo.url,
    liveUrl: 'https://live.invalid',
    timeoutMs: 5000,
  });
});
afterAll(async () => {
  await opayo.close();
});

/** Starts a payment and tokenises a card as the page's drop-in would. */
async function started(card: string, overrides: Partial<CheckoutTicketInput> = {}) {
  const config = configuration();
  const input = startInput(config);
  const start = await adapter.start(input);
  if (start.next.kind !== 'opayo-pi') throw new Error('not an Opayo Pi step');
  const ticket: CheckoutTicketInput = {
    paymentTransactionId: input.paymentTransactionId,
    ledgerlineReference: `LL-${randomUUID().slice(0, 8)}`,
    providerReference: start.providerReference,
    amount: '92.5000',
    currency: 'GBP',
    captureType: 'Immediate',
    ticket: opayo.pi.tokenise(start.next.merchantSessionKey, card),
    configuration: config,
    description: 'Invoices INV-1 and INV-2',
    payer: { firstNames: 'Pat', surname: 'Payer' },
    browser: {
      ipAddress: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (test)',
      acceptHeader: 'text/html',
      language: 'en-GB',
      colorDepth: 24,
      screenHeight: 844,
      screenWidth: 390,
      timeZoneOffset: -60,
    },
    challengeUrl: `https://ledgerline.example/api/v0/pay/r/payments/${input.paymentTransactionId}/3ds`,
    ...overrides,
  };
  return { start, ticket };
}

const lastBody = (path: string) =>
  JSON.parse(opayo.requests.filter((r) => r.path === path).at(-1)!.body) as Record<string, never>;

describe('Opayo Pi checkout', () => {
  it('offers Pi configurations and starts with a merchant session key for the drop-in', async () => {
    expect(adapter.takes?.({ integrationType: 'Pi' }) ?? true).toBe(true);
    const { start } = await started(fakeOpayoPiCards.ok);
    expect(start.next).toEqual({
      kind: 'opayo-pi',
      scriptUrl: `${opayo.url}/api/v1/js/sagepay.js`,
      merchantSessionKey: expect.stringMatching(/^[0-9A-F-]{36}$/),
    });
    const request = opayo.requests
      .filter((r) => r.path === '/api/v1/merchant-session-keys')
      .at(-1)!;
    expect(JSON.parse(request.body)).toEqual({ vendorName: 'piVendor' });
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`${integrationKey}:${integrationPassword}`).toString('base64')}`,
    );
    expect(start.providerReference).toMatch(/^pi-session:\d+:[0-9A-F-]{36}$/);
    expect(start.secret).toBeUndefined();
    expect(recorded(start.exchange)).not.toContain(integrationPassword);
  });

  it('refuses to start without the integration credentials, and says why when Opayo refuses them', async () => {
    const bare = configuration({
      credentials: { vendorName: 'piVendor', adminUser: 'admin', adminPassword: 'x' },
    });
    await expect(adapter.start(startInput(bare))).rejects.toThrow(
      'The Opayo configuration is not ready to take payments: the vendor name, integration key and integration password are required.',
    );
    const wrong = configuration({
      credentials: { ...configuration().credentials, integrationPassword: 'wrong' },
    });
    const refused = await adapter.start(startInput(wrong)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CheckoutStartError);
    expect((refused as CheckoutStartError).message).toBe(
      'Opayo could not start the payment: Authentication values are missing',
    );
  });

  it('charges the card identifier with the amount in minor units and the browser for 3-D Secure: Ok → Paid', async () => {
    const { ticket } = await started(fakeOpayoPiCards.ok);
    expect(adapter.verifyTicket!(ticket)).toBe(true);
    const answer = await adapter.chargeTicket!(ticket);
    expect(answer).toMatchObject({ status: 'Paid', paymentMethodType: 'Card', errorMessage: null });
    expect(opayo.pi.transactions.get(answer.providerReference!)).toMatchObject({
      transactionType: 'Payment',
      amount: 9250,
      currency: 'GBP',
      vendorTxCode: ticket.ledgerlineReference,
    });
    const body = lastBody('/api/v1/transactions');
    expect(body).toMatchObject({
      transactionType: 'Payment',
      amount: 9250,
      apply3DSecure: 'UseMSPSetting',
      entryMethod: 'Ecommerce',
      customerFirstName: 'Pat',
      customerLastName: 'Payer',
      billingAddress: {
        address1: 'Not given',
        city: 'Not given',
        postalCode: '000',
        country: 'GB',
      },
      strongCustomerAuthentication: {
        notificationURL: ticket.challengeUrl,
        browserIP: '203.0.113.9',
        browserUserAgent: 'Mozilla/5.0 (test)',
        browserJavascriptEnabled: true,
        browserLanguage: 'en-GB',
        browserColorDepth: '24',
        browserScreenHeight: '844',
        browserScreenWidth: '390',
        browserTZ: '-60',
        transType: 'GoodsAndServicePurchase',
      },
    });
    // The card identifier and session key are never recorded.
    expect(recorded(answer.exchange)).not.toContain(ticket.ticket);
    expect(recorded(answer.exchange)).not.toContain(integrationPassword);
  });

  it('a Reserve request is Deferred → Pending, released later by its transaction id', async () => {
    const { ticket } = await started(fakeOpayoPiCards.ok, { captureType: 'Reserve' });
    const answer = await adapter.chargeTicket!(ticket);
    expect(answer.status).toBe('Pending');
    expect(opayo.deferred.get(answer.providerReference!)).toEqual({
      amount: 9250,
      status: 'Deferred',
    });
  });

  it('NotAuthed and Rejected are the payer’s messages; a refused call is Failed with Opayo’s words', async () => {
    const declined = await adapter.chargeTicket!(
      (await started(fakeOpayoPiCards.notAuthed)).ticket,
    );
    expect(declined).toMatchObject({
      status: 'NotAuthorised',
      errorMessage: 'Your card was declined',
    });
    const rejected = await adapter.chargeTicket!((await started(fakeOpayoPiCards.rejected)).ticket);
    expect(rejected).toMatchObject({ status: 'Rejected' });
    const { ticket } = await started(fakeOpayoPiCards.ok);
    const unknownCard = await adapter.chargeTicket!({ ...ticket, ticket: randomUUID() });
    expect(unknownCard).toMatchObject({
      status: 'Failed',
      errorMessage: 'Opayo could not take the payment: Card identifier not found',
    });
  });

  it('3DAuth is a challenge for the page; the cres completes it: passed → Paid, failed → NotAuthorised', async () => {
    for (const passed of [true, false]) {
      const { ticket } = await started(fakeOpayoPiCards.challenge);
      const answer = await adapter.chargeTicket!(ticket);
      expect(answer.status).toBe('Processing');
      expect(answer.challenge).toEqual({
        acsUrl: `${opayo.url}/fake/acs/${answer.providerReference}`,
        creq: expect.any(String),
        threeDSSessionData: Buffer.from(ticket.paymentTransactionId).toString('base64url'),
      });
      const done = await adapter.completeChallenge!({
        paymentTransactionId: ticket.paymentTransactionId,
        transactionId: answer.providerReference!,
        captureType: 'Immediate',
        cres: opayo.pi.cresFor(answer.providerReference!, passed),
        threeDSSessionData: answer.challenge!.threeDSSessionData,
        configuration: ticket.configuration,
      });
      expect(done).toMatchObject(
        passed
          ? { status: 'Paid', providerReference: answer.providerReference }
          : { status: 'NotAuthorised', errorMessage: 'Your card was declined' },
      );
      expect(
        lastBody(`/api/v1/transactions/${answer.providerReference}/3d-secure-challenge`),
      ).toEqual({
        cRes: opayo.pi.cresFor(answer.providerReference!, passed),
        threeDSSessionData: answer.challenge!.threeDSSessionData,
      });
    }
  });

  it('a payment left at the issuer’s page is looked up: 3DAuth stays Processing, then Opayo’s outcome', async () => {
    const { ticket } = await started(fakeOpayoPiCards.challenge);
    const answer = await adapter.chargeTicket!(ticket);
    const poll = () =>
      adapter.status({
        paymentTransactionId: ticket.paymentTransactionId,
        providerReference: `${answer.providerReference}:challenge`,
        returnQuery: {},
        configuration: ticket.configuration,
      });
    expect((await poll()).status).toBe('Processing');
    const lookup = opayo.requests.at(-1)!;
    expect(lookup).toMatchObject({
      method: 'GET',
      path: `/api/v1/transactions/${answer.providerReference}`,
    });
    opayo.pi.finishChallenge(answer.providerReference!, true);
    expect(await poll()).toMatchObject({
      status: 'Paid',
      providerReference: answer.providerReference,
    });
  });

  it('does not take a card identifier for a Server payment, nor for a claimed session', async () => {
    const { ticket } = await started(fakeOpayoPiCards.ok);
    const server = configuration({
      settings: { useTestServer: true, integrationType: 'Server' },
    });
    expect(adapter.verifyTicket!({ ...ticket, configuration: server })).toBe(false);
    expect(
      adapter.verifyTicket!({ ...ticket, providerReference: `${ticket.providerReference}:ticket` }),
    ).toBe(false);
  });

  it('a session left without card details is Cancelled by the page’s poll; otherwise Processing', async () => {
    const config = configuration();
    const waiting = await adapter.status({
      paymentTransactionId: randomUUID(),
      providerReference: `pi-session:${Math.floor(Date.now() / 1000) + 400}:ABC`,
      returnQuery: {},
      configuration: config,
    });
    expect(waiting.status).toBe('Processing');
    const expired = await adapter.status({
      paymentTransactionId: randomUUID(),
      providerReference: `pi-session:${Math.floor(Date.now() / 1000) - 3600}:ABC`,
      returnQuery: {},
      configuration: config,
    });
    expect(expired).toMatchObject({
      status: 'Cancelled',
      errorMessage: 'The card form expired before card details were sent.',
    });
  });
});
