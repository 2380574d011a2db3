import {
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  escapeHtml,
  returnUrl,
  sendHtml,
  sendJson,
  startFakeServer,
  type FakeRequest,
  type FakeServer,
} from './fake-server.js';

export interface FakeSingleImmediatePayment {
  simp_id: string;
  clientId: string;
  body: Record<string, unknown>;
  status: 'new' | 'authorised' | 'cancelled' | 'failed' | 'rejected' | 'submitted' | 'executed';
}

/** A v3 payment into the merchant's TrueLayer account (closed loop): the only kind refundable. */
export interface FakeV3Payment {
  id: string;
  amountInMinor: number;
  currency: string;
  status:
    'authorization_required' | 'authorizing' | 'authorized' | 'executed' | 'settled' | 'failed';
  /** What `POST /v3/payments` was sent (absent for one made by settledPayment()). */
  body?: Record<string, unknown>;
  /** The token the hosted payment page needs to authorise this payment. */
  resourceToken?: string;
  userId?: string;
  metadata?: Record<string, string>;
  failureReason?: string;
  failureStage?: string;
}

/** What the payer does on the fake hosted payment page. */
export type HostedPageChoice = 'Pay' | 'Cancel' | 'Fail';

export interface FakeTrueLayerRefund {
  id: string;
  paymentId: string;
  amountInMinor: number;
  reference: string;
  metadata: Record<string, string>;
  status: 'pending' | 'authorized' | 'executed' | 'failed';
}

export interface FakeTrueLayer extends FakeServer {
  clientId: string;
  clientSecret: string;
  /** Where the fake serves its webhook signing keys (a Tl-Signature's jku). */
  jwksUrl: string;
  payments: Map<string, FakeSingleImmediatePayment>;
  /** Tokens issued so far (the adapter should reuse one until it lapses). */
  tokensIssued(): number;
  /**
   * A webhook as TrueLayer posts it to `path`: body, X-TL-Webhook-Timestamp and a Tl-Signature
   * (detached ES512 JWS, tl_version 2) over the method, path, timestamp header and body.
   * `key: 'other'` signs with a key that is not in the JWKS; `jku` overrides the header's jku.
   */
  signedWebhook(
    path: string,
    body: object,
    options?: { key?: 'other'; jku?: string; timestamp?: string; unsignedTimestamp?: boolean },
  ): { body: string; headers: Record<string, string> };
  /** v3 payments into the merchant account, by id; refunds made on them, by id. */
  v3Payments: Map<string, FakeV3Payment>;
  refunds: Map<string, FakeTrueLayerRefund>;
  /** A v3 payment that settled into the merchant account (what a v3 checkout leaves). */
  settledPayment(amountInMinor: number): FakeV3Payment;
  /** The merchant account v3 payments may be paid into (its id in TrueLayer's console). */
  merchantAccountId: string;
  /**
   * The payer on the hosted payment page (`{hpp}/payments#payment_id=…&resource_token=…&
   * return_uri=…`): loads it, then does what its script does for the link chosen; returns where
   * TrueLayer sends the payer back (`return_uri` with `payment_id`), without following it.
   */
  payOnHostedPage(pageUrl: string, choice: HostedPageChoice): Promise<string>;
  /** The payment settles into the merchant account; returns the v3 `payment_settled` body. */
  settle(paymentId: string): object;
  /** A v3 `payment_executed` / `payment_failed` / `payment_settled` body for a payment. */
  paymentWebhook(
    paymentId: string,
    type: 'payment_executed' | 'payment_failed' | 'payment_settled',
  ): object;
  /**
   * The merchant's request signing public key as registered in TrueLayer's console: refunds must
   * carry a Tl-Signature by it (kid = `keyId`).
   */
  registerSigningKey(keyId: string, publicKeyPem: string): void;
  /** The refund executes or fails; returns the v3 `refund_executed` / `refund_failed` body. */
  refundWebhook(refundId: string, outcome: 'executed' | 'failed', failureReason?: string): object;
  /** The v3 `payment_disputed` body (Direct Debit mandates). */
  disputedWebhook(paymentId: string, reason: string): object;
  /** A v1 status-changed webhook body for a payment. */
  statusChanged(simpId: string, status: string): object;
  /**
   * Where the mock bank's approve / cancel posts the signed status-changed webhook (the merchant
   * client's webhook URI in TrueLayer's console); the signature covers that URL's path.
   */
  sendEventsTo(url: string | null): void;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * TrueLayer's auth server (`POST /connect/token`, client credentials), its payments APIs (v1
 * single immediate payments, Bearer token; v3 payments into the merchant account and their
 * refunds, signed with the merchant's registered key) and its webhook keys (`/.well-known/jwks`)
 * in one server, with the bank's authorisation page a v1 payer is sent to (`auth_uri`, back to
 * `redirect_uri?payment_id=…`) and the hosted payment page a v3 payer is sent to (`/payments#…`,
 * back to `return_uri?payment_id=…`).
 */
export async function startFakeTrueLayer(): Promise<FakeTrueLayer> {
  const clientId = `sandbox-ledgerline-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomUUID();
  const tokens = new Set<string>();
  let issued = 0;
  const payments = new Map<string, FakeSingleImmediatePayment>();
  const keyId = randomUUID();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-521' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-521' });
  let eventsUrl: string | null = null;
  const v3Payments = new Map<string, FakeV3Payment>();
  const refunds = new Map<string, FakeTrueLayerRefund>();
  const signingKeys = new Map<string, KeyObject>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const merchantAccountId = randomUUID();
  const problem = (
    response: ServerResponse,
    status: number,
    title: string,
    detail: string,
    errors?: Record<string, string[]>,
  ) => {
    response.writeHead(status, { 'content-type': 'application/problem+json' });
    response.end(
      JSON.stringify({
        type: `https://docs.truelayer.com/docs/error-types#${title.toLowerCase().replace(/\s+/g, '-')}`,
        title,
        status,
        trace_id: randomBytes(16).toString('hex'),
        detail,
        ...(errors ? { errors } : {}),
      }),
    );
  };
  /** truelayer-signing v2, checked on the fake's own: the JWS over method, path, headers, body. */
  function signedByMerchant(
    signature: string,
    method: string,
    path: string,
    headers: Record<string, string | string[] | undefined>,
    body: string,
  ): boolean {
    const [headerB64, empty, signatureB64] = signature.split('.');
    if (!headerB64 || empty !== '' || !signatureB64) return false;
    let header: { alg?: string; kid?: string; tl_version?: string; tl_headers?: string };
    try {
      header = JSON.parse(Buffer.from(headerB64, 'base64url').toString('utf8')) as typeof header;
    } catch {
      return false;
    }
    const key = signingKeys.get(header.kid ?? '');
    if (!key || header.alg !== 'ES512' || header.tl_version !== '2') return false;
    const names = (header.tl_headers ?? '').split(',').filter(Boolean);
    // TrueLayer requires the Idempotency-Key to be signed.
    if (!names.some((n) => n.toLowerCase() === 'idempotency-key')) return false;
    const lines = names.map((name) => {
      const value = headers[name.toLowerCase()];
      return `${name}: ${Array.isArray(value) ? value[0] : (value ?? '')}\n`;
    });
    const payload = `${method} ${path}\n${lines.join('')}${body}`;
    return verify(
      'sha512',
      Buffer.from(`${headerB64}.${b64url(payload)}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signatureB64, 'base64url'),
    );
  }
  /**
   * A v3 POST's Idempotency-Key and Tl-Signature checked, and a replay answered as the first
   * was: the key to record the answer under, or null when the answer is already sent.
   */
  function keyedAndSigned(request: FakeRequest, response: ServerResponse): string | null {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !key) {
      problem(response, 400, 'Invalid Parameters', 'The Idempotency-Key header is required.', {
        'Idempotency-Key': ['The header is required.'],
      });
      return null;
    }
    const signature = request.headers['tl-signature'];
    if (
      typeof signature !== 'string' ||
      !signedByMerchant(signature, 'POST', request.path, request.headers, request.body)
    ) {
      problem(
        response,
        401,
        'Invalid Request Signature',
        'The request signature is missing or invalid.',
      );
      return null;
    }
    const earlier = idempotent.get(key);
    if (earlier) {
      if (earlier.body !== request.body)
        problem(
          response,
          422,
          'Idempotency-Key Reuse',
          'The Idempotency-Key was used with a different request.',
        );
      else sendJson(response, earlier.status, earlier.answer);
      return null;
    }
    return key;
  }

  /** `POST /v3/payments`: a bank transfer into the merchant account, as TrueLayer checks one. */
  function createPayment(request: FakeRequest, response: ServerResponse) {
    const key = keyedAndSigned(request, response);
    if (!key) return;
    let body: {
      amount_in_minor?: unknown;
      currency?: unknown;
      payment_method?: {
        type?: unknown;
        provider_selection?: { type?: unknown };
        beneficiary?: { type?: unknown; merchant_account_id?: unknown; reference?: unknown };
      };
      user?: { name?: unknown; email?: unknown; phone?: unknown };
      metadata?: Record<string, string>;
    };
    try {
      body = JSON.parse(request.body) as typeof body;
    } catch {
      return problem(response, 400, 'Invalid Parameters', 'The request body is not JSON.');
    }
    const method = body.payment_method ?? {};
    const beneficiary = method.beneficiary ?? {};
    const errors: Record<string, string[]> = {};
    if (!Number.isInteger(body.amount_in_minor) || (body.amount_in_minor as number) < 1)
      errors.amount_in_minor = ['Must be a positive integer.'];
    if (body.currency !== 'GBP') errors.currency = ["Unknown value. Valid values are 'GBP'."];
    if (method.type !== 'bank_transfer')
      errors['payment_method.type'] = ["Unknown value. Valid values are 'bank_transfer'."];
    if (method.provider_selection?.type !== 'user_selected')
      errors['payment_method.provider_selection.type'] = [
        "Unknown value. Valid values are 'user_selected', 'preselected'.",
      ];
    if (beneficiary.type !== 'merchant_account')
      errors['payment_method.beneficiary.type'] = [
        "Unknown value. Valid values are 'merchant_account', 'external_account'.",
      ];
    else if (beneficiary.merchant_account_id !== merchantAccountId)
      errors['payment_method.beneficiary.merchant_account_id'] = [
        'The merchant account was not found.',
      ];
    if (
      typeof beneficiary.reference !== 'string' ||
      !beneficiary.reference ||
      beneficiary.reference.length > 18
    )
      errors['payment_method.beneficiary.reference'] = ['Must be 1 to 18 characters.'];
    if (typeof body.user?.name !== 'string' || !body.user.name) errors['user.name'] = ['Required.'];
    if (!body.user?.email && !body.user?.phone)
      errors['user'] = ['Either email or phone must be provided.'];
    if (Object.keys(errors).length > 0)
      return problem(response, 400, 'Invalid Parameters', 'The request body was invalid.', errors);
    const payment: FakeV3Payment = {
      id: randomUUID(),
      amountInMinor: body.amount_in_minor as number,
      currency: 'GBP',
      status: 'authorization_required',
      body: body as Record<string, unknown>,
      resourceToken: randomBytes(24).toString('base64url'),
      userId: randomUUID(),
      metadata: body.metadata ?? {},
    };
    v3Payments.set(payment.id, payment);
    const answer = {
      id: payment.id,
      user: { id: payment.userId },
      resource_token: payment.resourceToken,
      status: payment.status,
    };
    idempotent.set(key, { body: request.body, status: 201, answer });
    return sendJson(response, 201, answer);
  }

  /** A v3 payment as `GET /v3/payments/{id}` shows it. */
  function paymentDetail(payment: FakeV3Payment) {
    const at = new Date().toISOString();
    return {
      id: payment.id,
      amount_in_minor: payment.amountInMinor,
      currency: payment.currency,
      user: { id: payment.userId ?? randomUUID() },
      payment_method: payment.body?.payment_method ?? {
        type: 'bank_transfer',
        provider_selection: { type: 'user_selected' },
        beneficiary: { type: 'merchant_account', merchant_account_id: merchantAccountId },
      },
      created_at: at,
      status: payment.status,
      ...(payment.status === 'executed' || payment.status === 'settled' ? { executed_at: at } : {}),
      ...(payment.status === 'settled' ? { settled_at: at } : {}),
      ...(payment.status === 'failed'
        ? {
            failed_at: at,
            failure_stage: payment.failureStage,
            failure_reason: payment.failureReason,
          }
        : {}),
      metadata: payment.metadata ?? {},
    };
  }

  function v3(request: FakeRequest, response: ServerResponse) {
    if (request.method === 'POST' && request.path === '/v3/payments')
      return createPayment(request, response);
    const read = /^\/v3\/payments\/([^/]+)$/.exec(request.path);
    if (read && request.method === 'GET') {
      const payment = v3Payments.get(decodeURIComponent(read[1]!));
      if (!payment)
        return problem(response, 404, 'Payment Not Found', 'The payment was not found.');
      return sendJson(response, 200, paymentDetail(payment));
    }
    const refundsPath = /^\/v3\/payments\/([^/]+)\/refunds$/.exec(request.path);
    if (!refundsPath || request.method !== 'POST')
      return problem(response, 404, 'Not Found', 'The requested resource was not found.');
    const key = keyedAndSigned(request, response);
    if (!key) return;
    const payment = v3Payments.get(decodeURIComponent(refundsPath[1]!));
    if (!payment) return problem(response, 404, 'Payment Not Found', 'The payment was not found.');
    let body: { amount_in_minor?: unknown; reference?: unknown; metadata?: Record<string, string> };
    try {
      body = JSON.parse(request.body) as typeof body;
    } catch {
      return problem(response, 400, 'Invalid Parameters', 'The request body is not JSON.');
    }
    const amount = body.amount_in_minor;
    if (!Number.isInteger(amount) || (amount as number) < 1)
      return problem(response, 400, 'Invalid Parameters', 'Some parameters are invalid.', {
        amount_in_minor: ['Must be a positive integer.'],
      });
    if (typeof body.reference !== 'string' || !body.reference)
      return problem(response, 400, 'Invalid Parameters', 'Some parameters are invalid.', {
        reference: ['The reference is required.'],
      });
    if (
      payment.status !== 'settled' &&
      payment.status !== 'executed' &&
      payment.status !== 'authorized'
    )
      return problem(
        response,
        400,
        'Payment Not Refundable',
        `The payment is ${payment.status} and cannot be refunded.`,
      );
    const refunded = [...refunds.values()]
      .filter((r) => r.paymentId === payment.id && r.status !== 'failed')
      .reduce((sum, r) => sum + r.amountInMinor, 0);
    if (refunded + (amount as number) > payment.amountInMinor)
      return problem(
        response,
        400,
        'Invalid Parameters',
        'The refund amount exceeds the amount that can still be refunded on this payment.',
        { amount_in_minor: [`Must be at most ${payment.amountInMinor - refunded}.`] },
      );
    const refund: FakeTrueLayerRefund = {
      id: randomUUID(),
      paymentId: payment.id,
      amountInMinor: amount as number,
      reference: body.reference,
      metadata: body.metadata ?? {},
      status: 'pending',
    };
    refunds.set(refund.id, refund);
    const answer = { id: refund.id };
    idempotent.set(key, { body: request.body, status: 201, answer });
    return sendJson(response, 201, answer);
  }

  /** The payer's choice on the hosted page: the payment moves, the webhook goes, back they go. */
  function hostedChoice(request: FakeRequest, response: ServerResponse, match: RegExpExecArray) {
    const payment = v3Payments.get(decodeURIComponent(match[1]!));
    const returnUri = request.query.get('return_uri') ?? '';
    if (!payment || request.query.get('resource_token') !== payment.resourceToken)
      return sendHtml(response, '<h1>This payment link is not valid</h1>');
    if (!/^https?:\/\//.test(returnUri))
      return sendHtml(response, '<h1>The return address is not allowed</h1>');
    if (payment.status === 'authorization_required') {
      if (match[2] === 'pay') payment.status = 'executed';
      else {
        payment.status = 'failed';
        payment.failureStage = 'authorizing';
        payment.failureReason = match[2] === 'cancel' ? 'canceled' : 'authorization_failed';
      }
      if (eventsUrl) {
        const type = payment.status === 'executed' ? 'payment_executed' : 'payment_failed';
        const hook = signedWebhook(new URL(eventsUrl).pathname, paymentWebhook(payment.id, type));
        void fetch(eventsUrl, { method: 'POST', headers: hook.headers, body: hook.body }).catch(
          () => undefined,
        );
      }
    }
    response.writeHead(303, { location: returnUrl(returnUri, { payment_id: payment.id }) });
    return response.end();
  }

  const server = await startFakeServer((request, response) => {
    if (request.method === 'GET' && request.path === '/.well-known/jwks') {
      return sendJson(response, 200, {
        keys: [{ ...publicKey.export({ format: 'jwk' }), kid: keyId, alg: 'ES512', use: 'sig' }],
      });
    }
    if (request.method === 'POST' && request.path === '/connect/token') {
      if (
        request.form.get('client_id') !== clientId ||
        request.form.get('client_secret') !== clientSecret
      )
        return sendJson(response, 400, { error: 'invalid_client' });
      if (request.form.get('grant_type') !== 'client_credentials')
        return sendJson(response, 400, { error: 'unsupported_grant_type' });
      const token = randomBytes(24).toString('base64url');
      tokens.add(token);
      issued += 1;
      return sendJson(response, 200, {
        access_token: token,
        expires_in: 3600,
        token_type: 'Bearer',
        scope: request.form.get('scope') ?? 'payments',
      });
    }
    // TrueLayer's hosted payment page: its script reads the fragment (payment_id, resource_token,
    // return_uri), which never reaches the server, and points the links at the payment.
    if (request.method === 'GET' && request.path === '/payments')
      return sendHtml(response, hostedPage);
    const choice = /^\/payments\/([^/]+)\/(pay|cancel|fail)$/.exec(request.path);
    if (request.method === 'GET' && choice) return hostedChoice(request, response, choice);
    const hosted = /^\/bank\/([^/]+)\/(approve|cancel)?$/.exec(request.path);
    if (request.method === 'GET' && hosted) {
      const payment = payments.get(hosted[1]!);
      if (!payment) return sendHtml(response, '<h1>Payment not found</h1>');
      if (hosted[2]) {
        payment.status = hosted[2] === 'approve' ? 'executed' : 'cancelled';
        if (eventsUrl) {
          const hook = signedWebhook(
            new URL(eventsUrl).pathname,
            statusChanged(payment.simp_id, payment.status),
          );
          void fetch(eventsUrl, { method: 'POST', headers: hook.headers, body: hook.body }).catch(
            () => undefined,
          );
        }
        response.writeHead(303, {
          location: returnUrl(String(payment.body.redirect_uri), { payment_id: payment.simp_id }),
        });
        return response.end();
      }
      return sendHtml(
        response,
        `<h1>Mock bank: pay ${escapeHtml(String(payment.body.beneficiary_name))}</h1><a href="/bank/${payment.simp_id}/approve">Approve</a> <a href="/bank/${payment.simp_id}/cancel">Cancel</a>`,
      );
    }
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (request.path.startsWith('/v3/')) {
      if (!tokens.has(token))
        return problem(
          response,
          401,
          'Unauthenticated',
          'The access token is invalid or has expired.',
        );
      return v3(request, response);
    }
    if (request.path.startsWith('/single-immediate-payments') && !tokens.has(token))
      return sendJson(response, 401, {
        error: 'invalid_token',
        error_description: 'The access token is invalid or has expired.',
      });
    if (request.method === 'POST' && request.path === '/single-immediate-payments') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(request.body) as Record<string, unknown>;
      } catch {
        return sendJson(response, 400, {
          error: 'invalid_request',
          error_description: 'Malformed JSON.',
        });
      }
      const invalid = [
        !Number.isInteger(body.amount) || (body.amount as number) < 1 ? 'amount' : null,
        body.currency !== 'GBP' ? 'currency' : null,
        !/^\d{6}$/.test(String(body.beneficiary_sort_code)) ? 'beneficiary_sort_code' : null,
        !/^\d{8}$/.test(String(body.beneficiary_account_number))
          ? 'beneficiary_account_number'
          : null,
        !body.beneficiary_name ? 'beneficiary_name' : null,
        !body.beneficiary_reference || String(body.beneficiary_reference).length > 18
          ? 'beneficiary_reference'
          : null,
        !body.remitter_reference || String(body.remitter_reference).length > 18
          ? 'remitter_reference'
          : null,
        !/^https?:\/\//.test(String(body.redirect_uri)) ? 'redirect_uri' : null,
      ].filter(Boolean);
      if (invalid.length > 0)
        return sendJson(response, 400, {
          error: 'invalid_parameters',
          error_description: `Invalid parameters: ${invalid.join(', ')}.`,
        });
      const payment: FakeSingleImmediatePayment = {
        simp_id: randomUUID(),
        clientId,
        body,
        status: 'new',
      };
      payments.set(payment.simp_id, payment);
      return sendJson(response, 200, {
        results: [
          {
            simp_id: payment.simp_id,
            auth_uri: `${server.url}/bank/${payment.simp_id}/`,
            created_at: new Date().toISOString(),
            ...body,
            status: payment.status,
          },
        ],
      });
    }
    const read = /^\/single-immediate-payments\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && read) {
      const payment = payments.get(read[1]!);
      if (!payment)
        return sendJson(response, 404, {
          error: 'not_found',
          error_description: 'Payment not found.',
        });
      return sendJson(response, 200, {
        results: [
          {
            simp_id: payment.simp_id,
            created_at: new Date().toISOString(),
            ...payment.body,
            status: payment.status,
          },
        ],
      });
    }
    return sendJson(response, 404, { error: 'not_found' });
  });

  const jwksUrl = `${server.url}/.well-known/jwks`;
  const hostedPage = [
    '<h1>TrueLayer: choose your bank</h1>',
    '<a href="/payments/{payment_id}/pay?resource_token={resource_token}&amp;return_uri={return_uri}">Pay</a>',
    '<a href="/payments/{payment_id}/cancel?resource_token={resource_token}&amp;return_uri={return_uri}">Cancel</a>',
    '<a href="/payments/{payment_id}/fail?resource_token={resource_token}&amp;return_uri={return_uri}">Fail</a>',
    '<script>',
    'const given = new URLSearchParams(location.hash.slice(1));',
    'for (const link of document.querySelectorAll("a"))',
    '  link.href = link.getAttribute("href").replace(/\\{(\\w+)\\}/g, (_, name) => encodeURIComponent(given.get(name) ?? ""));',
    '</script>',
  ].join('');
  /** What the hosted page's script does: the fragment's values into the chosen link. */
  async function payOnHostedPage(pageUrl: string, choice: HostedPageChoice): Promise<string> {
    const url = new URL(pageUrl);
    const page = await (await fetch(url)).text();
    const link = new RegExp(`<a href="([^"]+)">${choice}</a>`).exec(page);
    if (!link) throw new Error(`no '${choice}' link on ${page}`);
    const given = new URLSearchParams(url.hash.slice(1));
    const href = link[1]!
      .replace(/&amp;/g, '&')
      .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(given.get(name) ?? ''));
    const answer = await fetch(new URL(href, url), { redirect: 'manual' });
    return answer.headers.get('location') ?? '';
  }
  function paymentWebhook(
    paymentId: string,
    type: 'payment_executed' | 'payment_failed' | 'payment_settled',
  ) {
    const payment = v3Payments.get(paymentId)!;
    const at = new Date().toISOString();
    const paymentMethod = { type: 'bank_transfer' };
    return {
      type,
      event_id: randomUUID(),
      event_version: 1,
      payment_id: paymentId,
      payment_method: paymentMethod,
      ...(type === 'payment_executed' ? { executed_at: at } : {}),
      ...(type === 'payment_settled'
        ? {
            settled_at: at,
            payment_source: { account_holder_name: 'Pat Payer' },
            user_id: payment.userId,
          }
        : {}),
      ...(type === 'payment_failed'
        ? {
            failed_at: at,
            failure_stage: payment.failureStage ?? 'authorizing',
            failure_reason: payment.failureReason ?? 'authorization_failed',
          }
        : {}),
      metadata: payment.metadata ?? {},
    };
  }
  function settle(paymentId: string) {
    const payment = v3Payments.get(paymentId)!;
    payment.status = 'settled';
    return paymentWebhook(paymentId, 'payment_settled');
  }
  function statusChanged(simpId: string, status: string) {
    return {
      event_id: randomUUID(),
      event_type: 'single_immediate_payment_status_changed',
      event_schema_version: 1,
      event_body: { single_immediate_payment_id: simpId, status },
    };
  }
  function signedWebhook(
    path: string,
    body: object,
    options: { key?: 'other'; jku?: string; timestamp?: string; unsignedTimestamp?: boolean } = {},
  ) {
    const text = JSON.stringify(body);
    const timestamp = options.timestamp ?? new Date().toISOString();
    const header = b64url(
      JSON.stringify({
        alg: 'ES512',
        kid: keyId,
        tl_version: '2',
        tl_headers: options.unsignedTimestamp ? '' : 'X-Tl-Webhook-Timestamp',
        jku: options.jku ?? jwksUrl,
      }),
    );
    const payload = options.unsignedTimestamp
      ? `POST ${path}\n${text}`
      : `POST ${path}\nX-Tl-Webhook-Timestamp: ${timestamp}\n${text}`;
    const key: KeyObject = options.key === 'other' ? other.privateKey : privateKey;
    const signature = sign('sha512', Buffer.from(`${header}.${b64url(payload)}`), {
      key,
      dsaEncoding: 'ieee-p1363',
    });
    return {
      body: text,
      headers: {
        'content-type': 'application/json',
        'x-tl-webhook-timestamp': timestamp,
        'tl-signature': `${header}..${b64url(signature)}`,
      },
    };
  }
  function settledPayment(amountInMinor: number): FakeV3Payment {
    const payment: FakeV3Payment = {
      id: randomUUID(),
      amountInMinor,
      currency: 'GBP',
      status: 'settled',
    };
    v3Payments.set(payment.id, payment);
    return payment;
  }
  function refundWebhook(refundId: string, outcome: 'executed' | 'failed', failureReason?: string) {
    const refund = refunds.get(refundId)!;
    refund.status = outcome;
    const at = new Date().toISOString();
    return {
      type: outcome === 'executed' ? 'refund_executed' : 'refund_failed',
      event_id: randomUUID(),
      event_version: 1,
      payment_id: refund.paymentId,
      refund_id: refund.id,
      ...(outcome === 'executed'
        ? { executed_at: at, scheme_id: 'faster_payments_service' }
        : { failed_at: at, failure_reason: failureReason ?? 'unknown' }),
      metadata: refund.metadata,
    };
  }
  function disputedWebhook(paymentId: string, reason: string) {
    return {
      type: 'payment_disputed',
      event_id: randomUUID(),
      event_version: 1,
      payment_id: paymentId,
      disputed_at: new Date().toISOString(),
      disputed_reason: reason,
      metadata: {},
    };
  }
  return Object.assign(server, {
    merchantAccountId,
    payOnHostedPage,
    paymentWebhook,
    settle,
    v3Payments,
    refunds,
    settledPayment,
    registerSigningKey: (id: string, publicKeyPem: string) => {
      signingKeys.set(id, createPublicKey(publicKeyPem));
    },
    refundWebhook,
    disputedWebhook,
    clientId,
    clientSecret,
    jwksUrl,
    payments,
    tokensIssued: () => issued,
    sendEventsTo: (url: string | null) => {
      eventsUrl = url;
    },
    signedWebhook,
    statusChanged,
  });
}
