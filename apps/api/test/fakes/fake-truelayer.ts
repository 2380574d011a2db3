import { generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import {
  escapeHtml,
  returnUrl,
  sendHtml,
  sendJson,
  startFakeServer,
  type FakeServer,
} from './fake-server.js';

export interface FakeSingleImmediatePayment {
  simp_id: string;
  clientId: string;
  body: Record<string, unknown>;
  status: 'new' | 'authorised' | 'cancelled' | 'failed' | 'rejected' | 'submitted' | 'executed';
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
    options?: { key?: 'other'; jku?: string },
  ): { body: string; headers: Record<string, string> };
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
 * TrueLayer's auth server (`POST /connect/token`, client credentials), its payments API (v1
 * single immediate payments, Bearer token) and its webhook keys (`/.well-known/jwks`) in one
 * server, with the bank's authorisation page the payer is sent to (`auth_uri`), which comes back
 * to `redirect_uri?payment_id=…` as TrueLayer does.
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
    options: { key?: 'other'; jku?: string } = {},
  ) {
    const text = JSON.stringify(body);
    const timestamp = new Date().toISOString();
    const header = b64url(
      JSON.stringify({
        alg: 'ES512',
        kid: keyId,
        tl_version: '2',
        tl_headers: 'X-Tl-Webhook-Timestamp',
        jku: options.jku ?? jwksUrl,
      }),
    );
    const payload = `POST ${path}\nX-Tl-Webhook-Timestamp: ${timestamp}\n${text}`;
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
  return Object.assign(server, {
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
