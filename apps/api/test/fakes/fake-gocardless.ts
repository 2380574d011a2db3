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

/** A refund made through `POST /refunds`. */
export interface FakeGoCardlessRefund {
  id: string;
  payment: string;
  amount: number;
  currency: string;
  status:
    | 'created'
    | 'pending_submission'
    | 'submitted'
    | 'paid'
    | 'cancelled'
    | 'bounced'
    | 'funds_returned';
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
  refunds: Map<string, FakeGoCardlessRefund>;
  /** A payment of the merchant with `token`, already `status` (confirmed), as the flow leaves one. */
  collectedPayment(
    token: string,
    amount: number,
    options?: { status?: string; metadata?: Record<string, string>; currency?: string },
  ): FakeGoCardlessPayment;
  /**
   * A payments event with GoCardless's own details for `action` after success: `charged_back`
   * (origin bank, cause authorisation_disputed, scheme bacs, reason code), `chargeback_cancelled`,
   * `failed` (a late failure: insufficient_funds), `late_failure_settled`; the payment moves too.
   */
  afterSuccessEvent(
    paymentId: string,
    action:
      | 'charged_back'
      | 'chargeback_cancelled'
      | 'chargeback_settled'
      | 'failed'
      | 'late_failure_settled',
  ): { body: string; headers: Record<string, string> };
  /** A refunds event for `action` (created, paid, refund_settled, failed, funds_returned), signed. */
  refundEvent(refundId: string, action: string): { body: string; headers: Record<string, string> };
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
  const refunds = new Map<string, FakeGoCardlessRefund>();
  /** Who may see a payment made outside a billing request (collectedPayment). */
  const paymentTokens = new Map<string, string>();
  const refundedOf = (paymentId: string) =>
    [...refunds.values()]
      .filter(
        (r) =>
          r.payment === paymentId && !['cancelled', 'bounced', 'funds_returned'].includes(r.status),
      )
      .reduce((sum, r) => sum + r.amount, 0);
  const refundBody = (refund: FakeGoCardlessRefund) => ({
    id: refund.id,
    created_at: new Date().toISOString(),
    amount: refund.amount,
    currency: refund.currency,
    reference: null,
    status: refund.status,
    metadata: refund.metadata,
    fx: {
      fx_currency: refund.currency,
      fx_amount: null,
      exchange_rate: null,
      estimated_exchange_rate: null,
    },
    links: { payment: refund.payment, mandate: 'MD000FAKE0001' },
  });
  const validationFailed = (response: ServerResponse, field: string, message: string) =>
    sendJson(response, 422, {
      error: {
        message: 'Validation failed',
        documentation_url: 'https://developer.gocardless.com/api-reference#validation_failed',
        type: 'validation_failed',
        request_id: randomBytes(8).toString('hex'),
        code: 422,
        errors: [{ field, message, request_pointer: `/refunds/${field}` }],
      },
    });
  const invalidState = (response: ServerResponse, reason: string, message: string) =>
    sendJson(response, 422, {
      error: {
        message,
        documentation_url: `https://developer.gocardless.com/api-reference#${reason}`,
        type: 'invalid_state',
        request_id: randomBytes(8).toString('hex'),
        code: 422,
        errors: [{ reason, message }],
      },
    });
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
    amount_refunded: refundedOf(payment.id),
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
      /^\/(billing_requests|billing_request_flows|payments|refunds)(\/|$)/.test(request.path)
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
    if (request.method === 'POST' && request.path === '/refunds') {
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
      const given = (body.refunds ?? {}) as {
        amount?: number | string;
        total_amount_confirmation?: number | string;
        metadata?: Record<string, string>;
        links?: { payment?: string };
      };
      const payment = payments.get(given.links?.payment ?? '');
      const owner =
        [...billingRequests.values()].find((b) => b.payment === payment?.id)?.token ??
        paymentTokens.get(payment?.id ?? '');
      if (!payment || owner !== token) return notFound(response);
      const amount = Number(given.amount);
      if (!Number.isInteger(amount) || amount < 1)
        return validationFailed(response, 'amount', 'must be greater than or equal to 1');
      if (Object.keys(given.metadata ?? {}).length > 3)
        return validationFailed(response, 'metadata', 'must have at most 3 keys');
      if (payment.status !== 'confirmed' && payment.status !== 'paid_out')
        return invalidState(
          response,
          'refund_payment_invalid_state',
          'The linked payment must be confirmed or paid out to be refunded',
        );
      const refunded = refundedOf(payment.id);
      if (Number(given.total_amount_confirmation) !== refunded + amount)
        return invalidState(
          response,
          'total_amount_confirmation_invalid',
          'The total_amount_confirmation does not match the total amount refunded for the payment',
        );
      if (refunded + amount > payment.amount)
        return validationFailed(response, 'amount', 'exceeds the amount available to refund');
      if ([...refunds.values()].filter((r) => r.payment === payment.id).length >= 5)
        return invalidState(
          response,
          'number_of_refunds_exceeded',
          'Five or more refunds have already been created against this payment',
        );
      const refund: FakeGoCardlessRefund = {
        id: gcId('RF'),
        payment: payment.id,
        amount,
        currency: payment.currency,
        status: 'created',
        metadata: given.metadata ?? {},
      };
      refunds.set(refund.id, refund);
      if (typeof key === 'string') idempotent.set(key, refund.id);
      return sendJson(response, 201, { refunds: refundBody(refund) });
    }
    const refundPath = /^\/refunds\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && refundPath) {
      const refund = refunds.get(refundPath[1]!);
      const owner =
        [...billingRequests.values()].find((b) => b.payment === refund?.payment)?.token ??
        paymentTokens.get(refund?.payment ?? '');
      if (!refund || owner !== token) return notFound(response);
      return sendJson(response, 200, { refunds: refundBody(refund) });
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
      const owner =
        [...billingRequests.values()].find((b) => b.payment === paymentPath[1])?.token ??
        paymentTokens.get(paymentPath[1]!);
      if (!payment || owner !== token) return notFound(response);
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
  /** GoCardless's details for each action after success (reference/providers.md). */
  const afterSuccess: Record<
    string,
    {
      origin: string;
      cause: string;
      description: string;
      scheme?: string;
      reason_code?: string;
      will_attempt_retry?: boolean;
    }
  > = {
    charged_back: {
      origin: 'bank',
      cause: 'authorisation_disputed',
      description: 'The customer has disputed having authorised you to take this payment.',
      scheme: 'bacs',
      reason_code: 'ADDACS-1',
    },
    chargeback_cancelled: {
      origin: 'bank',
      cause: 'payment_confirmed',
      description: "The customer's bank has cancelled the chargeback request.",
    },
    chargeback_settled: {
      origin: 'gocardless',
      cause: 'chargeback_settled',
      description: 'This payment has been charged back and the amount debited from a payout.',
    },
    failed: {
      origin: 'bank',
      cause: 'insufficient_funds',
      description: "The customer's account had insufficient funds to make this payment.",
      scheme: 'bacs',
      reason_code: 'ARUDD-0',
      will_attempt_retry: false,
    },
    late_failure_settled: {
      origin: 'gocardless',
      cause: 'late_failure_settled',
      description:
        'This payment was a late failure which had already been paid out, and has been debited from a payout.',
    },
  };
  function afterSuccessEvent(paymentId: string, action: string) {
    const payment = payments.get(paymentId)!;
    if (action !== 'chargeback_settled' && action !== 'late_failure_settled')
      payment.status = action === 'chargeback_cancelled' ? 'confirmed' : action;
    return signedEvents([{ ...paymentEvent(paymentId, action), details: afterSuccess[action] }]);
  }
  /** Refund event details (karoo-ca/gocardless-events, reference/providers.md). */
  const refundDetails: Record<string, { origin: string; cause: string; description: string }> = {
    created: {
      origin: 'api',
      cause: 'payment_refunded',
      description: 'The refund has been created and will be submitted in the next batch.',
    },
    paid: {
      origin: 'gocardless',
      cause: 'refund_paid',
      description: 'The refund has been paid to your customer.',
    },
    refund_settled: {
      origin: 'gocardless',
      cause: 'refund_settled',
      description: 'The refund has been deducted from a payout.',
    },
    failed: {
      origin: 'gocardless',
      cause: 'refund_failed',
      description:
        "The refund could not be paid to your customer's bank account; the funds will be returned to you.",
    },
    funds_returned: {
      origin: 'gocardless',
      cause: 'refund_funds_returned',
      description: 'The refund funds have been returned to you.',
    },
  };
  function refundEvent(refundId: string, action: string) {
    const refund = refunds.get(refundId)!;
    const moved: Record<string, FakeGoCardlessRefund['status']> = {
      paid: 'paid',
      failed: 'bounced',
      funds_returned: 'funds_returned',
    };
    refund.status = moved[action] ?? refund.status;
    return signedEvents([
      {
        id: gcId('EV'),
        created_at: new Date().toISOString(),
        resource_type: 'refunds',
        action,
        details: refundDetails[action] ?? {
          origin: 'gocardless',
          cause: `refund_${action}`,
          description: `Refund ${action}.`,
        },
        metadata: {},
        resource_metadata: refund.metadata,
        links: { refund: refund.id, payment: refund.payment, organisation: fake.organisation.id },
      },
    ]);
  }
  function collectedPayment(
    token: string,
    amount: number,
    options: { status?: string; metadata?: Record<string, string>; currency?: string } = {},
  ) {
    const payment: FakeGoCardlessPayment = {
      id: gcId('PM'),
      amount,
      currency: options.currency ?? 'GBP',
      status: options.status ?? 'confirmed',
      metadata: options.metadata ?? {},
    };
    payments.set(payment.id, payment);
    paymentTokens.set(payment.id, token);
    return payment;
  }
  return Object.assign(server, fake, {
    webhookSecret,
    billingRequests,
    payments,
    fulfil,
    signedEvents,
    paymentEvent,
    movePayment,
    refunds,
    collectedPayment,
    afterSuccessEvent,
    refundEvent,
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
