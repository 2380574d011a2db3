import { createCipheriv, randomBytes } from 'node:crypto';
import { sendJson, startFakeServer, type FakeServer } from './fake-server.js';

export interface FakeOppwaCheckout {
  id: string;
  /** The form as posted. */
  form: URLSearchParams;
  /** Set once the shopper paid: the payment's id and result. */
  payment: { id: string; code: string; description: string } | null;
  /**
   * The stored card (registration) the payment made: only for a checkout posted with
   * `createRegistration=true` and paid successfully; null otherwise.
   */
  registrationId: string | null;
}

export interface FakeOppwa extends FakeServer {
  checkouts: Map<string, FakeOppwaCheckout>;
  /**
   * The shopper submits the widget: `success` (test mode 000.100.110), `declined` (800.100.151,
   * invalid card), `pending` (000.200.000), `threeDs` (000.400.107 3-D Secure rejected). A PA that
   * succeeds becomes a pre-authorisation capture and reversal act on.
   */
  pay(checkoutId: string, outcome?: 'success' | 'declined' | 'pending' | 'threeDs'): string;
  entityId: string;
  accessToken: string;
  /**
   * Payments by id: debits (DB) and pre-authorisations (PA), and what became of them (CP with the
   * amount captured, RV); `refunded` is the sum of their RFs, in cents.
   */
  payments: Map<string, FakeOppwaPayment>;
  /** Cards stored as registrations (createRegistration=true), by registration id: the checkout. */
  registrations: Map<string, { checkoutId: string; paymentId: string }>;
  /** Refunds (RF) by their own id. */
  refunds: Map<string, { referencedId: string; amount: string; merchantTransactionId: string }>;
  /** The webhook listener's secret (64 hex characters), as OPPWA shows it to the merchant. */
  webhookSecret: string;
  /** A webhook body as OPPWA encrypts it: hex ciphertext, IV and tag headers. */
  encrypt(
    notification: unknown,
    secret?: string,
  ): { body: string; headers: Record<string, string> };
  /** The PAYMENT payload of a chargeback (CB) or its reversal (CR) of a payment. */
  chargeback(paymentId: string, kind: 'CB' | 'CR', amount?: string): Record<string, unknown>;
  /** POSTs an encrypted notification to `url` (a configuration's webhook address). */
  notify(url: string, notification: unknown): Promise<Response>;
}

export interface FakeOppwaPayment {
  amount: string;
  currency: string;
  status: 'DB' | 'PA' | 'CP' | 'RV';
  /** For a CP: the amount captured. */
  captured?: string;
  refunded?: number;
}

const timestamp = () => new Date().toISOString().replace('T', ' ').replace('Z', '+0000');

/**
 * ACI / PAY.ON OPPWA's `POST /v1/payments/{id}` back office: CP (capture of a PA, amount and
 * currency), RV (reversal). Bearer access token and entityId as OPPWA checks them; test-mode
 * success code 000.100.110; 800.900.300 for bad authentication, 700.400.200 for a PA already
 * captured or reversed.
 */
export async function startFakeOppwa(): Promise<FakeOppwa> {
  const entityId = `8a8294174b7ecb28${randomBytes(8).toString('hex')}`;
  const accessToken = randomBytes(24).toString('base64');
  const payments: FakeOppwa['payments'] = new Map();
  const refunds: FakeOppwa['refunds'] = new Map();
  const webhookSecret = randomBytes(32).toString('hex').toUpperCase();
  const result = (code: string, description: string) => ({
    result: { code, description },
    buildNumber: 'fake',
    timestamp: timestamp(),
    ndc: randomBytes(16).toString('hex'),
  });
  const checkouts = new Map<string, FakeOppwaCheckout>();
  const registrations = new Map<string, { checkoutId: string; paymentId: string }>();
  const outcomes = {
    success: [
      '000.100.110',
      "Request successfully processed in 'Merchant in Integrator Test Mode'",
    ],
    declined: ['800.100.151', 'transaction declined (invalid card)'],
    pending: ['000.200.000', 'transaction pending'],
    threeDs: ['000.400.107', 'Communication error to Scheme Directory Server'],
  } as const;
  function pay(checkoutId: string, outcome: keyof typeof outcomes = 'success') {
    const checkout = checkouts.get(checkoutId)!;
    const [code, description] = outcomes[outcome];
    const id = `8ac7a4a1${randomBytes(12).toString('hex')}`;
    checkout.payment = { id, code, description };
    // COPYandPAY registers the card with a successful payment of a checkout that asked for it.
    if (outcome === 'success' && checkout.form.get('createRegistration') === 'true') {
      checkout.registrationId = `8ac7a4a0${randomBytes(12).toString('hex')}`;
      registrations.set(checkout.registrationId, { checkoutId, paymentId: id });
    }
    if (outcome === 'success')
      payments.set(id, {
        amount: checkout.form.get('amount')!,
        currency: checkout.form.get('currency')!,
        status: checkout.form.get('paymentType') === 'PA' ? 'PA' : 'DB',
      });
    return id;
  }
  const authorised = (request: { headers: Record<string, unknown> }, entity: string | null) =>
    request.headers.authorization === `Bearer ${accessToken}` && entity === entityId;
  const server = await startFakeServer((request, response) => {
    if (request.method === 'POST' && request.path === '/v1/checkouts') {
      if (!authorised(request, request.form.get('entityId')))
        return sendJson(response, 401, result('800.900.300', 'invalid authentication information'));
      const amount = request.form.get('amount') ?? '';
      const paymentType = request.form.get('paymentType');
      if (
        !/^\d+\.\d{2}$/.test(amount) ||
        !/^[A-Z]{3}$/.test(request.form.get('currency') ?? '') ||
        (paymentType !== 'DB' && paymentType !== 'PA')
      )
        return sendJson(response, 400, result('200.300.404', 'invalid or missing parameter'));
      const id = `${randomBytes(16).toString('hex').toUpperCase()}.uat01-vm-tx04`;
      const createRegistration = request.form.get('createRegistration');
      if (
        createRegistration !== null &&
        createRegistration !== 'true' &&
        createRegistration !== 'false'
      )
        return sendJson(response, 400, result('200.300.404', 'invalid or missing parameter'));
      checkouts.set(id, { id, form: request.form, payment: null, registrationId: null });
      return sendJson(response, 200, {
        id,
        ...result('000.200.100', 'successfully created checkout'),
      });
    }
    const status = /^\/v1\/checkouts\/([^/]+)\/payment$/.exec(request.path);
    if (request.method === 'GET' && status) {
      if (!authorised(request, request.query.get('entityId')))
        return sendJson(response, 401, result('800.900.300', 'invalid authentication information'));
      const checkout = checkouts.get(decodeURIComponent(status[1]!));
      if (!checkout)
        return sendJson(
          response,
          200,
          result(
            '200.300.404',
            'invalid or missing parameter - (opp) No payment session found for the requested id - are you mixing test/live servers or have you paid more than 30min ago?',
          ),
        );
      if (!checkout.payment)
        return sendJson(response, 200, result('000.200.000', 'transaction pending'));
      return sendJson(response, 200, {
        id: checkout.payment.id,
        paymentType: checkout.form.get('paymentType'),
        paymentBrand: 'VISA',
        amount: checkout.form.get('amount'),
        currency: checkout.form.get('currency'),
        merchantTransactionId: checkout.form.get('merchantTransactionId'),
        ...(checkout.registrationId ? { registrationId: checkout.registrationId } : {}),
        card: {
          bin: '420000',
          last4Digits: '0000',
          holder: 'Pat Payer',
          expiryMonth: '12',
          expiryYear: '2030',
        },
        ...result(checkout.payment.code, checkout.payment.description),
      });
    }
    // The widget script: a form with one button that pays and returns to shopperResultUrl with
    // id and resourcePath, as COPYandPAY's own widget does.
    if (request.method === 'GET' && request.path === '/v1/paymentWidgets.js') {
      const checkoutId = request.query.get('checkoutId') ?? '';
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return response.end(
        `(function(){var id=${JSON.stringify(checkoutId)};function go(){var form=document.querySelector('form.paymentWidgets');if(!form)return;var b=document.createElement('button');b.type='button';b.textContent='Pay now';b.onclick=function(){fetch(${JSON.stringify(server.url)}+'/fake/pay/'+encodeURIComponent(id),{method:'POST'}).then(function(){var u=new URL(form.action);u.searchParams.set('id',id);u.searchParams.set('resourcePath','/v1/checkouts/'+id+'/payment');location.href=u.toString();});};form.appendChild(b);}if(document.readyState==='loading'){document.addEventListener('DOMContentLoaded',go);}else{go();}})();`,
      );
    }
    const fakePay = /^\/fake\/pay\/([^/]+)$/.exec(request.path);
    if (request.method === 'POST' && fakePay && checkouts.has(decodeURIComponent(fakePay[1]!))) {
      pay(decodeURIComponent(fakePay[1]!));
      response.writeHead(204, { 'access-control-allow-origin': '*' });
      return response.end();
    }
    const match = /^\/v1\/payments\/([^/]+)$/.exec(request.path);
    if (request.method !== 'POST' || !match)
      return sendJson(response, 404, result('200.300.404', 'invalid or missing parameter'));
    if (
      request.headers.authorization !== `Bearer ${accessToken}` ||
      request.form.get('entityId') !== entityId
    ) {
      return sendJson(response, 401, result('800.900.300', 'invalid authentication information'));
    }
    const payment = payments.get(decodeURIComponent(match[1]!));
    if (!payment) return sendJson(response, 400, result('700.400.000', 'invalid payment id'));
    if (request.form.get('paymentType') === 'RF')
      return refund(decodeURIComponent(match[1]!), payment, request.form, response);
    if (payment.status !== 'PA')
      return sendJson(
        response,
        400,
        result(
          '700.400.200',
          'cannot reverse or capture an already captured or reversed transaction',
        ),
      );
    const paymentType = request.form.get('paymentType');
    if (paymentType === 'CP') {
      const amount = request.form.get('amount') ?? '';
      if (!/^\d+\.\d{2}$/.test(amount) || request.form.get('currency') !== payment.currency)
        return sendJson(response, 400, result('200.300.404', 'invalid or missing parameter'));
      if (Number(amount) > Number(payment.amount))
        return sendJson(
          response,
          400,
          result(
            '700.400.100',
            'cannot capture (PA value exceeded, PA reverted or invalid workflow?)',
          ),
        );
      payment.status = 'CP';
      payment.captured = amount;
    } else if (paymentType === 'RV') {
      payment.status = 'RV';
    } else {
      return sendJson(response, 400, result('200.300.404', 'invalid or missing parameter'));
    }
    return sendJson(response, 200, {
      id: randomBytes(16).toString('hex'),
      referencedId: match[1],
      paymentType,
      ...(paymentType === 'CP'
        ? { amount: request.form.get('amount'), currency: payment.currency }
        : {}),
      ...result(
        '000.100.110',
        "Request successfully processed in 'Merchant in Integrator Test Mode'",
      ),
    });
  });
  /**
   * RF against a debit or a captured pre-authorisation (its own id): the amount in major units and
   * the payment's currency; the refunds together within what was taken, else 700.300.300.
   */
  function refund(
    id: string,
    payment: FakeOppwaPayment,
    form: URLSearchParams,
    response: Parameters<Parameters<typeof startFakeServer>[0]>[1],
  ) {
    const taken =
      payment.status === 'DB' ? payment.amount : payment.status === 'CP' ? payment.captured : null;
    if (!taken)
      return sendJson(
        response,
        400,
        result(
          '700.300.100',
          'referenced tx can not be refunded, captured or reversed (invalid type)',
        ),
      );
    const amount = form.get('amount') ?? '';
    if (!/^\d+\.\d{2}$/.test(amount) || form.get('currency') !== payment.currency)
      return sendJson(response, 400, result('200.300.404', 'invalid or missing parameter'));
    const cents = (value: string) => Math.round(Number(value) * 100);
    if ((payment.refunded ?? 0) + cents(amount) > cents(taken))
      return sendJson(
        response,
        400,
        result(
          '700.300.300',
          'cannot refund (refund volume exceeded or tx reversed or invalid workflow?)',
        ),
      );
    payment.refunded = (payment.refunded ?? 0) + cents(amount);
    const refundId = `8ac7a4a2${randomBytes(12).toString('hex')}`;
    refunds.set(refundId, {
      referencedId: id,
      amount,
      merchantTransactionId: form.get('merchantTransactionId') ?? '',
    });
    return sendJson(response, 200, {
      id: refundId,
      referencedId: id,
      paymentType: 'RF',
      amount,
      currency: payment.currency,
      descriptor: '4588.1234.5678 Fake descriptor',
      merchantTransactionId: form.get('merchantTransactionId') ?? undefined,
      ...result(
        '000.100.110',
        "Request successfully processed in 'Merchant in Integrator Test Mode'",
      ),
    });
  }

  function encrypt(notification: unknown, secret = webhookSecret) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(secret, 'hex'), iv);
    const body = Buffer.concat([
      cipher.update(JSON.stringify(notification), 'utf8'),
      cipher.final(),
    ])
      .toString('hex')
      .toUpperCase();
    return {
      body,
      headers: {
        'x-initialization-vector': iv.toString('hex').toUpperCase(),
        'x-authentication-tag': cipher.getAuthTag().toString('hex').toUpperCase(),
      },
    };
  }

  function chargeback(paymentId: string, kind: 'CB' | 'CR', amount?: string) {
    const payment = payments.get(paymentId);
    if (!payment) throw new Error(`no OPPWA payment ${paymentId}`);
    return {
      id: `8ac7a4a3${randomBytes(12).toString('hex')}`,
      referencedId: paymentId,
      paymentType: kind,
      paymentBrand: 'VISA',
      amount: amount ?? payment.captured ?? payment.amount,
      currency: payment.currency,
      descriptor: '4588.1234.5678 Fake descriptor',
      ...result(
        kind === 'CB' ? '000.100.200' : '000.100.201',
        kind === 'CB' ? 'Chargeback: fraud, card absent environment' : 'Chargeback reversed',
      ),
    };
  }

  async function notify(url: string, notification: unknown) {
    const { body, headers } = encrypt(notification);
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...headers },
      body,
    });
  }

  return Object.assign(server, {
    entityId,
    accessToken,
    payments,
    refunds,
    checkouts,
    registrations,
    pay,
    webhookSecret,
    encrypt,
    chargeback,
    notify,
  });
}
