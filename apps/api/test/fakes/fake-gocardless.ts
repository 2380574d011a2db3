import { createHmac, randomBytes } from 'node:crypto';
import {
  escapeHtml,
  returnUrl,
  sendHtml,
  sendJson,
  startFakeServer,
  type FakeRequest,
  type FakeServer,
} from './fake-server.js';
import type { ServerResponse } from 'node:http';

export interface FakeBillingRequest {
  id: string;
  token: string;
  body: {
    payment_request?: {
      amount?: number;
      currency?: string;
      description?: string;
      metadata?: Record<string, string>;
    };
    mandate_request?: { scheme?: string };
    metadata?: Record<string, string>;
    fallback_enabled?: boolean;
  };
  status: 'pending' | 'ready_to_fulfil' | 'fulfilling' | 'fulfilled' | 'cancelled';
  payment: string | null;
  flow: { id: string; redirectUri: string; exitUri: string } | null;
}

export interface FakeGoCardlessPayment {
  id: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
}

export interface FakeGoCardless extends FakeServer {
  /** The partner app's webhook endpoint secret. */
  webhookSecret: string;
  billingRequests: Map<string, FakeBillingRequest>;
  payments: Map<string, FakeGoCardlessPayment>;
  /** A merchant access token for the organisation, as the OAuth exchange would give one. */
  issueToken(): string;
  /** The payer completes the flow: the billing request is fulfilled with a pending_submission payment. */
  fulfil(billingRequestId: string): FakeGoCardlessPayment;
  /** A webhook batch of events, signed with the webhook secret (Webhook-Signature). */
  signedEvents(events: object[]): { body: string; headers: Record<string, string> };
  /** A payments event as GoCardless sends one (links.payment, resource_metadata). */
  paymentEvent(paymentId: string, action: string, description?: string): object;
  /**
   * The payment's status becomes `action` (submitted, confirmed, failed, …) and the signed event
   * is posted to the endpoint set by sendEventsTo, if any; returns the batch.
   */
  movePayment(
    paymentId: string,
    action: string,
    description?: string,
  ): { body: string; headers: Record<string, string> };
  /** Where movePayment posts its events (the partner app's webhook endpoint). */
  sendEventsTo(url: string | null): void;
  clientId: string;
  clientSecret: string;
  /** The organisation the next authorisation connects and its creditor. */
  organisation: {
    id: string;
    creditorName: string;
    verificationStatus: 'successful' | 'in_review' | 'action_required';
  };
}

/**
 * GoCardless's OAuth (connect) and API in one server, answering as GoCardless does: the authorise
 * page, `POST /oauth/access_token` (form; invalid_grant / invalid_client), `GET /creditors` with
 * the merchant's Bearer token and `GoCardless-Version`.
 */
export async function startFakeGoCardless(): Promise<FakeGoCardless> {
  const clientId = `gc_client_${randomBytes(6).toString('hex')}`;
  const clientSecret = `gc_secret_${randomBytes(12).toString('hex')}`;
  const codes = new Set<string>();
  const tokens = new Map<string, string>();
  const webhookSecret = randomBytes(20).toString('hex');
  const billingRequests = new Map<string, FakeBillingRequest>();
  const payments = new Map<string, FakeGoCardlessPayment>();
  const idempotent = new Map<string, string>();
  let eventsUrl: string | null = null;
  const gcId = (prefix: string) => `${prefix}${randomBytes(7).toString('hex').toUpperCase()}`;
  const billingBody = (billing: FakeBillingRequest) => ({
    id: billing.id,
    status: billing.status,
    created_at: '2026-11-24T00:00:00.000Z',
    fallback_enabled: billing.body.fallback_enabled ?? false,
    metadata: billing.body.metadata ?? {},
    payment_request: {
      ...billing.body.payment_request,
      amount: String(billing.body.payment_request?.amount ?? ''),
      links: billing.payment ? { payment: billing.payment } : {},
    },
    mandate_request: billing.body.mandate_request ?? null,
    links: {
      organisation: fake.organisation.id,
      ...(billing.payment ? { payment_request_payment: billing.payment } : {}),
    },
  });
  const paymentBody = (payment: FakeGoCardlessPayment) => ({
    id: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    metadata: payment.metadata,
    charge_date: '2026-11-27',
    links: { creditor: 'CR000FAKE0001' },
  });
  function fulfil(id: string): FakeGoCardlessPayment {
    const billing = billingRequests.get(id)!;
    if (billing.payment) return payments.get(billing.payment)!;
    const payment: FakeGoCardlessPayment = {
      id: gcId('PM'),
      amount: billing.body.payment_request?.amount ?? 0,
      currency: billing.body.payment_request?.currency ?? 'GBP',
      status: 'pending_submission',
      metadata: billing.body.payment_request?.metadata ?? {},
    };
    payments.set(payment.id, payment);
    billing.payment = payment.id;
    billing.status = 'fulfilled';
    return payment;
  }
  const notFound = (response: ServerResponse) =>
    sendJson(response, 404, {
      error: {
        message: 'Resource not found',
        type: 'invalid_api_usage',
        code: 404,
        errors: [{ reason: 'resource_not_found', message: 'Resource not found' }],
      },
    });
  const fake = {
    clientId,
    clientSecret,
    organisation: {
      id: 'OR000FAKE0001',
      creditorName: 'Fake Direct Debit Ltd',
      verificationStatus: 'in_review' as const,
    } as FakeGoCardless['organisation'],
  };
  const server = await startFakeServer((request, response) => {
    if (request.method === 'GET' && request.path === '/oauth/authorize') {
      if (
        request.query.get('client_id') !== clientId ||
        request.query.get('response_type') !== 'code'
      ) {
        return sendHtml(response, '<h1>Invalid client</h1>');
      }
      const code = randomBytes(16).toString('hex');
      codes.add(code);
      const allow = returnUrl(request.query.get('redirect_uri') ?? '', {
        code,
        state: request.query.get('state') ?? '',
      });
      return sendHtml(
        response,
        `<h1>Connect your GoCardless account</h1><a href="${escapeHtml(allow)}">Authorise</a>`,
      );
    }
    if (request.method === 'POST' && request.path === '/oauth/access_token') {
      if (
        request.form.get('client_id') !== clientId ||
        request.form.get('client_secret') !== clientSecret
      ) {
        return sendJson(response, 401, { error: 'invalid_client' });
      }
      const code = request.form.get('code') ?? '';
      if (request.form.get('grant_type') !== 'authorization_code' || !codes.has(code)) {
        return sendJson(response, 400, {
          error: 'invalid_grant',
          error_description: 'The authorization code is invalid or has expired.',
        });
      }
      codes.delete(code);
      const token = `live_${randomBytes(16).toString('hex')}`;
      tokens.set(token, fake.organisation.id);
      return sendJson(response, 200, {
        access_token: token,
        token_type: 'bearer',
        scope: 'read_write',
        organisation_id: fake.organisation.id,
        email: 'owner@example.com',
      });
    }
    // The hosted billing request flow (pay.gocardless.com): the payer pays or leaves.
    const hosted = /^\/flow\/([^/]+)(?:\/(pay|exit))?$/.exec(request.path);
    if (request.method === 'GET' && hosted) {
      const billing = [...billingRequests.values()].find((b) => b.flow?.id === hosted[1]);
      if (!billing?.flow) return sendHtml(response, '<h1>This link has expired</h1>');
      if (hosted[2] === 'pay') {
        fulfil(billing.id);
        response.writeHead(303, {
          location: returnUrl(billing.flow.redirectUri, {
            outcome: 'success',
            id: billing.flow.id,
          }),
        });
        return response.end();
      }
      if (hosted[2] === 'exit') {
        response.writeHead(303, { location: billing.flow.exitUri });
        return response.end();
      }
      return sendHtml(
        response,
        `<h1>Pay ${escapeHtml(fake.organisation.creditorName)}</h1><a href="/flow/${billing.flow.id}/pay">Confirm payment</a> <a href="/flow/${billing.flow.id}/exit">Exit</a>`,
      );
    }
    if (
      request.path === '/creditors' ||
      /^\/(billing_requests|billing_request_flows|payments)(\/|$)/.test(request.path)
    ) {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(token)) {
        return sendJson(response, 401, {
          error: {
            message: 'Invalid token',
            documentation_url: 'https://developer.gocardless.com/api-reference#invalid_api_usage',
            type: 'invalid_api_usage',
            request_id: randomBytes(8).toString('hex'),
            code: 401,
            errors: [{ reason: 'invalid_token', message: 'Invalid token' }],
          },
        });
      }
      if (request.headers['gocardless-version'] !== '2015-07-06') {
        return sendJson(response, 400, {
          error: {
            message: 'GoCardless-Version header missing',
            type: 'invalid_api_usage',
            code: 400,
            errors: [
              { reason: 'missing_version_header', message: 'GoCardless-Version header missing' },
            ],
          },
        });
      }
      if (request.path !== '/creditors') return api(request, response, token);
      return sendJson(response, 200, {
        creditors: [
          {
            id: 'CR000FAKE0001',
            name: fake.organisation.creditorName,
            verification_status: fake.organisation.verificationStatus,
            created_at: '2026-01-01T00:00:00.000Z',
          },
        ],
        meta: { cursors: { before: null, after: null }, limit: 50 },
      });
    }
    return sendJson(response, 404, {
      error: { message: 'Resource not found', type: 'invalid_api_usage', code: 404, errors: [] },
    });
  });
  function api(request: FakeRequest, response: ServerResponse, token: string) {
    let body: Record<string, Record<string, unknown>> = {};
    if (request.method === 'POST') {
      try {
        body = JSON.parse(request.body) as typeof body;
      } catch {
        return sendJson(response, 400, {
          error: {
            message: 'Invalid JSON',
            type: 'invalid_api_usage',
            code: 400,
            errors: [{ reason: 'invalid_json', message: 'Invalid JSON' }],
          },
        });
      }
    }
    if (request.method === 'POST' && request.path === '/billing_requests') {
      const key = request.headers['idempotency-key'];
      const earlier = typeof key === 'string' ? idempotent.get(key) : undefined;
      if (earlier)
        return sendJson(response, 409, {
          error: {
            message: 'A resource has already been created with this idempotency key',
            type: 'invalid_state',
            code: 409,
            errors: [
              {
                reason: 'idempotent_creation_conflict',
                message: 'A resource has already been created with this idempotency key',
                links: { conflicting_resource_id: earlier },
              },
            ],
          },
        });
      const given = (body.billing_requests ?? {}) as FakeBillingRequest['body'];
      const amount = given.payment_request?.amount;
      const currency = given.payment_request?.currency;
      const invalid: { field: string; message: string }[] = [];
      if (!Number.isInteger(amount) || (amount ?? 0) < 1)
        invalid.push({ field: 'amount', message: 'must be greater than or equal to 1' });
      if (currency !== 'GBP' && currency !== 'EUR')
        invalid.push({ field: 'currency', message: 'is not a supported currency' });
      if (invalid.length > 0)
        return sendJson(response, 422, {
          error: {
            message: 'Validation failed',
            type: 'validation_failed',
            code: 422,
            errors: invalid.map((e) => ({
              ...e,
              request_pointer: `/billing_requests/payment_request/${e.field}`,
            })),
          },
        });
      const billing: FakeBillingRequest = {
        id: gcId('BRQ'),
        token,
        body: given,
        status: 'pending',
        payment: null,
        flow: null,
      };
      billingRequests.set(billing.id, billing);
      if (typeof key === 'string') idempotent.set(key, billing.id);
      return sendJson(response, 201, { billing_requests: billingBody(billing) });
    }
    if (request.method === 'POST' && request.path === '/billing_request_flows') {
      const given = (body.billing_request_flows ?? {}) as {
        redirect_uri?: string;
        exit_uri?: string;
        links?: { billing_request?: string };
      };
      const billing = billingRequests.get(given.links?.billing_request ?? '');
      if (!billing || billing.token !== token) return notFound(response);
      billing.flow = {
        id: gcId('BRF'),
        redirectUri: given.redirect_uri ?? '',
        exitUri: given.exit_uri ?? '',
      };
      return sendJson(response, 201, {
        billing_request_flows: {
          id: billing.flow.id,
          authorisation_url: `${server.url}/flow/${billing.flow.id}`,
          redirect_uri: given.redirect_uri ?? null,
          exit_uri: given.exit_uri ?? null,
          links: { billing_request: billing.id },
        },
      });
    }
    const billingPath = /^\/billing_requests\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && billingPath) {
      const billing = billingRequests.get(billingPath[1]!);
      if (!billing || billing.token !== token) return notFound(response);
      return sendJson(response, 200, { billing_requests: billingBody(billing) });
    }
    const paymentPath = /^\/payments\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && paymentPath) {
      const payment = payments.get(paymentPath[1]!);
      const owner = [...billingRequests.values()].find((b) => b.payment === paymentPath[1]);
      if (!payment || owner?.token !== token) return notFound(response);
      return sendJson(response, 200, { payments: paymentBody(payment) });
    }
    return notFound(response);
  }
  function signedEvents(events: object[]) {
    const body = JSON.stringify({ events, meta: { webhook_id: gcId('WB') } });
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-signature': createHmac('sha256', webhookSecret).update(body).digest('hex'),
      },
    };
  }
  function paymentEvent(paymentId: string, action: string, description?: string) {
    return {
      id: gcId('EV'),
      created_at: new Date().toISOString(),
      resource_type: 'payments',
      action,
      details: {
        origin: 'gocardless',
        cause: `payment_${action}`,
        description: description ?? `Payment ${action}.`,
      },
      metadata: {},
      resource_metadata: payments.get(paymentId)?.metadata ?? {},
      links: { payment: paymentId, organisation: fake.organisation.id },
    };
  }
  /** Moves a payment on and, when an endpoint is set, posts the signed event to it. */
  function movePayment(paymentId: string, action: string, description?: string) {
    const payment = payments.get(paymentId)!;
    payment.status = action;
    const batch = signedEvents([paymentEvent(paymentId, action, description)]);
    if (eventsUrl)
      void fetch(eventsUrl, { method: 'POST', headers: batch.headers, body: batch.body }).catch(
        () => undefined,
      );
    return batch;
  }
  return Object.assign(server, fake, {
    webhookSecret,
    billingRequests,
    payments,
    fulfil,
    signedEvents,
    paymentEvent,
    movePayment,
    sendEventsTo(url: string | null) {
      eventsUrl = url;
    },
    issueToken() {
      const token = `sandbox_${randomBytes(16).toString('hex')}`;
      tokens.set(token, fake.organisation.id);
      return token;
    },
  });
}
