import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { escapeHtml, sendHtml, sendJson, type FakeRequest } from './fake-server.js';

/**
 * Opayo Pi, as the fake answers it (apps/api/test/fakes/fake-opayo.ts routes `/api/v1/…` and
 * `/fake/acs/…` here): merchant session keys, Opayo.js (a small drop-in that renders card fields
 * and tokenises them through `/api/v1/card-identifiers`), transactions, a 3-D Secure ACS page, and
 * the challenge's completion. Release and abort stay in fake-opayo.ts (its `deferred` map).
 */

/** Test cards: by number, what a transaction answers. */
export const fakeOpayoPiCards = {
  ok: '4929000000006',
  notAuthed: '4929000000014',
  rejected: '4929000000022',
  challenge: '4929000005559',
} as const;

export interface FakePiTransaction {
  transactionId: string;
  transactionType: 'Payment' | 'Deferred';
  vendorTxCode: string;
  amount: number;
  currency: string;
  status: 'Ok' | 'NotAuthed' | 'Rejected' | '3DAuth';
  notificationUrl: string;
  body: Record<string, unknown>;
}

/** A Pi Refund transaction: its id, vendor code and amount (minor units), and the original's id. */
export interface FakePiRefund {
  transactionId: string;
  vendorTxCode: string;
  referenceTransactionId: string;
  amount: number;
  description: string;
}

export interface FakeOpayoPi {
  /** Merchant session keys handed out, with their vendor. */
  sessions: Map<string, { vendor: string; expiry: Date }>;
  /** Card identifiers by id: their session and card number. */
  cards: Map<string, { merchantSessionKey: string; cardNumber: string }>;
  /** Pi transactions by id. */
  transactions: Map<string, FakePiTransaction>;
  /** Refund transactions by id. */
  refunds: Map<string, FakePiRefund>;
  /** A card identifier for a card, as Opayo.js would get it (for server tests). */
  tokenise(merchantSessionKey: string, cardNumber: string): string;
  /** The payer finishes at the issuer's page but never comes back to us. */
  finishChallenge(transactionId: string, passed: boolean): void;
  /** The cres the fake ACS posts back for a challenge the payer passes or fails. */
  cresFor(transactionId: string, passed: boolean): string;
  handle(request: FakeRequest, response: ServerResponse): boolean;
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
};

/** Opayo.js as far as the payer page uses it: sagepayCheckout({…}).form() / .tokenise() / .destroy(). */
const dropInScript = (base: string) => `(function () {
  window.sagepayCheckout = function (options) {
    var container = null;
    var field = function (name, label, autocomplete) {
      var wrap = document.createElement('label');
      wrap.textContent = label + ' ';
      var input = document.createElement('input');
      input.name = name;
      input.setAttribute('autocomplete', autocomplete);
      wrap.appendChild(input);
      container.appendChild(wrap);
    };
    var value = function (name) { return container.querySelector('[name="' + name + '"]').value; };
    return {
      form: function () {
        container = document.querySelector(options.containerSelector || '#sp-container');
        field('cardholderName', 'Name on card', 'cc-name');
        field('cardNumber', 'Card number', 'cc-number');
        field('expiryDate', 'Expiry (MMYY)', 'cc-exp');
        field('securityCode', 'Security code', 'cc-csc');
        return this;
      },
      tokenise: function () {
        fetch(${JSON.stringify(base)} + '/api/v1/card-identifiers', {
          method: 'POST',
          headers: { authorization: 'Bearer ' + options.merchantSessionKey, 'content-type': 'application/json' },
          body: JSON.stringify({ cardDetails: {
            cardholderName: value('cardholderName'), cardNumber: value('cardNumber'),
            expiryDate: value('expiryDate'), securityCode: value('securityCode') } })
        }).then(function (answer) {
          return answer.json().then(function (body) {
            options.onTokenise(answer.status === 201
              ? { success: true, cardIdentifier: body.cardIdentifier }
              : { success: false, error: { errorMessage: (body.errors && body.errors[0] && body.errors[0].clientMessage) || 'Invalid card details' } });
          });
        });
      },
      destroy: function () { if (container) container.innerHTML = ''; }
    };
  };
})();`;

export function createFakeOpayoPi(deps: {
  base: () => string;
  integrations: Map<string, string>;
  deferred: Map<string, { amount: number; status: 'Deferred' | 'Released' | 'Aborted' }>;
}): FakeOpayoPi {
  const sessions: FakeOpayoPi['sessions'] = new Map();
  const cards: FakeOpayoPi['cards'] = new Map();
  const transactions: FakeOpayoPi['transactions'] = new Map();
  const refunds: FakeOpayoPi['refunds'] = new Map();

  const authorised = (request: FakeRequest) => {
    const [key, ...rest] = Buffer.from(
      (request.headers.authorization ?? '').replace(/^Basic /, ''),
      'base64',
    )
      .toString('utf8')
      .split(':');
    return Boolean(key) && deps.integrations.get(key!) === rest.join(':');
  };
  const json = (request: FakeRequest) => {
    try {
      return JSON.parse(request.body || '{}') as Record<string, unknown>;
    } catch {
      return {};
    }
  };

  function tokenise(merchantSessionKey: string, cardNumber: string) {
    const cardIdentifier = randomUUID().toUpperCase();
    cards.set(cardIdentifier, { merchantSessionKey, cardNumber });
    return cardIdentifier;
  }
  const cresFor = (transactionId: string, passed: boolean) =>
    Buffer.from(JSON.stringify({ transactionId, transStatus: passed ? 'Y' : 'N' })).toString(
      'base64url',
    );

  /** A transaction's answer body, as Pi gives it. */
  function answerOf(transaction: FakePiTransaction) {
    const detail = {
      Ok: ['0000', 'The Authorisation was Successful.'],
      NotAuthed: ['2000', 'The Authorisation was Declined by the bank.'],
      Rejected: ['4026', 'The transaction was rejected by the fraud rules.'],
      '3DAuth': [
        '2021',
        'Please redirect your customer to the ACSURL to complete the 3DS Transaction',
      ],
    }[transaction.status];
    return {
      transactionId: transaction.transactionId,
      transactionType: transaction.transactionType,
      status: transaction.status,
      statusCode: detail[0],
      statusDetail: detail[1],
      ...(transaction.status === '3DAuth'
        ? {
            acsUrl: `${deps.base()}/fake/acs/${transaction.transactionId}`,
            cReq: Buffer.from(
              JSON.stringify({ transactionId: transaction.transactionId }),
            ).toString('base64url'),
          }
        : {
            retrievalReference: 13_645_788,
            bankAuthorisationCode: transaction.status === 'Ok' ? '999777' : undefined,
            amount: {
              totalAmount: transaction.amount,
              saleAmount: transaction.amount,
              surchargeAmount: 0,
            },
            currency: transaction.currency,
            paymentMethod: {
              card: { cardType: 'Visa', lastFourDigits: '0006', expiryDate: '1229' },
            },
          }),
    };
  }

  function settle(transaction: FakePiTransaction, status: FakePiTransaction['status']) {
    transaction.status = status;
    if (status === 'Ok' && transaction.transactionType === 'Deferred')
      deps.deferred.set(transaction.transactionId, {
        amount: transaction.amount,
        status: 'Deferred',
      });
  }

  function createTransaction(request: FakeRequest, response: ServerResponse) {
    if (!authorised(request))
      return sendJson(response, 401, {
        code: 1001,
        description: 'Authentication values are missing',
      });
    const body = json(request);
    if (body.transactionType === 'Refund') return refund(body, response);
    const card = (body.paymentMethod as { card?: Record<string, string> } | undefined)?.card;
    const sca = body.strongCustomerAuthentication as Record<string, unknown> | undefined;
    const type = body.transactionType;
    if (type !== 'Payment' && type !== 'Deferred')
      return sendJson(response, 422, {
        errors: [
          { description: 'Invalid transactionType', property: 'transactionType', code: 1003 },
        ],
      });
    if (typeof body.amount !== 'number' || !Number.isInteger(body.amount) || body.amount <= 0)
      return sendJson(response, 422, {
        errors: [{ description: 'Invalid amount', property: 'amount', code: 1003 }],
      });
    for (const property of [
      'vendorTxCode',
      'currency',
      'description',
      'customerFirstName',
      'customerLastName',
    ])
      if (typeof body[property] !== 'string' || body[property] === '')
        return sendJson(response, 422, {
          errors: [{ description: 'Missing mandatory field', property, code: 1003 }],
        });
    if (body.entryMethod !== 'Ecommerce' || typeof sca?.notificationURL !== 'string')
      return sendJson(response, 422, {
        errors: [
          {
            description: 'Missing mandatory field',
            property: 'strongCustomerAuthentication.notificationURL',
            code: 1003,
          },
        ],
      });
    const identified = card ? cards.get(card.cardIdentifier ?? '') : undefined;
    if (!identified || identified.merchantSessionKey !== card?.merchantSessionKey)
      return sendJson(response, 422, {
        errors: [
          {
            description: 'Card identifier not found',
            property: 'paymentMethod.card.cardIdentifier',
            code: 1009,
          },
        ],
      });
    if ([...transactions.values()].some((t) => t.vendorTxCode === body.vendorTxCode))
      return sendJson(response, 422, {
        errors: [
          {
            description: 'The VendorTxCode has been used before',
            property: 'vendorTxCode',
            code: 4042,
          },
        ],
      });
    // A card identifier is single-use.
    cards.delete(card!.cardIdentifier!);
    const transaction: FakePiTransaction = {
      transactionId: randomUUID().toUpperCase(),
      transactionType: type,
      vendorTxCode: body.vendorTxCode as string,
      amount: body.amount,
      currency: body.currency as string,
      status: '3DAuth',
      notificationUrl: sca.notificationURL,
      body,
    };
    transactions.set(transaction.transactionId, transaction);
    const status =
      identified.cardNumber === fakeOpayoPiCards.challenge
        ? '3DAuth'
        : identified.cardNumber === fakeOpayoPiCards.notAuthed
          ? 'NotAuthed'
          : identified.cardNumber === fakeOpayoPiCards.rejected
            ? 'Rejected'
            : 'Ok';
    settle(transaction, status);
    return sendJson(response, status === '3DAuth' ? 202 : 201, answerOf(transaction));
  }

  /**
   * A Refund transaction (Elavon's refund page): the original must be a taken Payment or a
   * released Deferred; its refunds together stay within what was taken, else
   * 1018 'This refund amount will exceed the amount of the original transaction'.
   */
  function refund(body: Record<string, unknown>, response: ServerResponse) {
    const fieldError = (property: string, description: string, code = 1003) =>
      sendJson(response, 422, { errors: [{ description, property, code }] });
    if (typeof body.amount !== 'number' || !Number.isInteger(body.amount) || body.amount <= 0)
      return fieldError('amount', 'Invalid amount');
    for (const property of ['vendorTxCode', 'description', 'referenceTransactionId'])
      if (typeof body[property] !== 'string' || body[property] === '')
        return fieldError(property, 'Missing mandatory field');
    const vendorTxCode = body.vendorTxCode as string;
    if (
      vendorTxCode.length > 40 ||
      [...transactions.values(), ...refunds.values()].some((t) => t.vendorTxCode === vendorTxCode)
    )
      return fieldError('vendorTxCode', 'The VendorTxCode has been used before', 4042);
    const originalId = body.referenceTransactionId as string;
    const original = transactions.get(originalId);
    const released = deps.deferred.get(originalId);
    const taken =
      original?.status !== 'Ok'
        ? null
        : original.transactionType === 'Payment'
          ? original.amount
          : released?.status === 'Released'
            ? released.amount
            : null;
    if (taken === null)
      return sendJson(response, 404, { code: 1012, description: 'Transaction not found' });
    const refunded = [...refunds.values()]
      .filter((r) => r.referenceTransactionId === originalId)
      .reduce((sum, r) => sum + r.amount, 0);
    if (refunded + body.amount > taken)
      return sendJson(response, 422, {
        code: 1018,
        description: 'This refund amount will exceed the amount of the original transaction',
      });
    const transactionId = randomUUID().toUpperCase();
    refunds.set(transactionId, {
      transactionId,
      vendorTxCode,
      referenceTransactionId: originalId,
      amount: body.amount,
      description: body.description as string,
    });
    return sendJson(response, 201, {
      statusCode: '0000',
      statusDetail: 'The Authorisation was Successful.',
      transactionId,
      transactionType: 'Refund',
      retrievalReference: 12_260_787,
      bankAuthorisationCode: '999777',
      paymentMethod: { card: { cardType: 'Visa', lastFourDigits: '0006', expiryDate: '1229' } },
      amount: { totalAmount: body.amount, saleAmount: body.amount, surchargeAmount: 0 },
      currency: original!.currency,
      status: 'Ok',
    });
  }

  function handle(request: FakeRequest, response: ServerResponse): boolean {
    const { method, path } = request;
    if (method === 'OPTIONS' && path === '/api/v1/card-identifiers') {
      response.writeHead(204, cors);
      response.end();
      return true;
    }
    if (method === 'GET' && path === '/api/v1/js/sagepay.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(dropInScript(deps.base()));
      return true;
    }
    if (method === 'POST' && path === '/api/v1/merchant-session-keys') {
      if (!authorised(request))
        sendJson(response, 401, { code: 1001, description: 'Authentication values are missing' });
      else if (typeof json(request).vendorName !== 'string')
        sendJson(response, 422, {
          errors: [{ description: 'Missing mandatory field', property: 'vendorName', code: 1003 }],
        });
      else {
        const merchantSessionKey = randomUUID().toUpperCase();
        const expiry = new Date(Date.now() + 400_000);
        sessions.set(merchantSessionKey, { vendor: json(request).vendorName as string, expiry });
        sendJson(response, 201, { merchantSessionKey, expiry: expiry.toISOString() });
      }
      return true;
    }
    if (method === 'POST' && path === '/api/v1/card-identifiers') {
      const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const details = (json(request).cardDetails ?? {}) as Record<string, string>;
      response.setHeader('access-control-allow-origin', '*');
      const session = sessions.get(key);
      if (!session || session.expiry.getTime() < Date.now())
        sendJson(response, 401, {
          errors: [{ code: 1002, clientMessage: 'Authentication failed' }],
        });
      else if (!/^\d{12,19}$/.test(details.cardNumber ?? ''))
        sendJson(response, 422, {
          errors: [{ code: 1003, clientMessage: 'The card number is invalid' }],
        });
      else
        sendJson(response, 201, {
          cardIdentifier: tokenise(key, details.cardNumber!),
          expiry: new Date(Date.now() + 400_000).toISOString(),
          cardType: 'Visa',
        });
      return true;
    }
    if (method === 'POST' && path === '/api/v1/transactions') {
      createTransaction(request, response);
      return true;
    }
    const lookup = /^\/api\/v1\/transactions\/([^/]+)$/.exec(path);
    if (method === 'GET' && lookup) {
      const transaction = transactions.get(decodeURIComponent(lookup[1]!));
      if (!authorised(request))
        sendJson(response, 401, { code: 1001, description: 'Authentication values are missing' });
      else if (!transaction)
        sendJson(response, 404, { code: 1012, description: 'Transaction not found' });
      else {
        const {
          acsUrl: _acsUrl,
          cReq: _cReq,
          ...answer
        } = answerOf(transaction) as Record<string, unknown>;
        sendJson(response, 200, answer);
      }
      return true;
    }
    const challenge = /^\/api\/v1\/transactions\/([^/]+)\/3d-secure-challenge$/.exec(path);
    if (method === 'POST' && challenge) {
      const transaction = transactions.get(decodeURIComponent(challenge[1]!));
      const body = json(request);
      if (!authorised(request))
        sendJson(response, 401, { code: 1001, description: 'Authentication values are missing' });
      else if (!transaction)
        sendJson(response, 404, { code: 1012, description: 'Transaction not found' });
      else if (transaction.status !== '3DAuth')
        sendJson(response, 422, {
          code: 1017,
          description: 'The transaction is not awaiting 3-D Secure',
        });
      else if (body.cRes === cresFor(transaction.transactionId, true)) {
        settle(transaction, 'Ok');
        sendJson(response, 201, answerOf(transaction));
      } else if (body.cRes === cresFor(transaction.transactionId, false)) {
        settle(transaction, 'NotAuthed');
        sendJson(response, 201, answerOf(transaction));
      } else sendJson(response, 422, { code: 1003, description: 'Invalid cRes' });
      return true;
    }
    const acs = /^\/fake\/acs\/([^/]+)$/.exec(path);
    if (method === 'POST' && acs) {
      // The card issuer's page: the browser POSTed creq; the payer passes or fails the challenge,
      // and the page POSTs cres (and the session data it was given) to the notification URL.
      const transaction = transactions.get(decodeURIComponent(acs[1]!));
      if (!transaction || !request.form.get('creq')) {
        sendHtml(response, '<p>Unknown 3-D Secure request.</p>');
        return true;
      }
      const sessionData = escapeHtml(request.form.get('threeDSSessionData') ?? '');
      const form = (passed: boolean, label: string) =>
        `<form method="post" action="${escapeHtml(transaction.notificationUrl)}">` +
        `<input type="hidden" name="cres" value="${cresFor(transaction.transactionId, passed)}">` +
        `<input type="hidden" name="threeDSSessionData" value="${sessionData}">` +
        `<button type="submit">${label}</button></form>`;
      sendHtml(
        response,
        `<h1>Your bank: confirm this payment</h1>${form(true, 'Authenticate')}${form(false, 'Fail authentication')}`,
      );
      return true;
    }
    return false;
  }

  function finishChallenge(transactionId: string, passed: boolean) {
    const transaction = transactions.get(transactionId);
    if (transaction?.status === '3DAuth') settle(transaction, passed ? 'Ok' : 'NotAuthed');
  }

  return { sessions, cards, transactions, refunds, tokenise, cresFor, finishChallenge, handle };
}
