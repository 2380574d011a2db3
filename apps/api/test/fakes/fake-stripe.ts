import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  escapeHtml,
  returnUrl,
  sendHtml,
  sendJson,
  startFakeServer,
  type FakeServer,
} from './fake-server.js';

export interface FakeStripeAccount {
  id: string;
  displayName: string;
  defaultCurrency?: string;
  cardPayments?: 'active' | 'inactive' | 'pending';
  /** A legacy account carries no `controller`. */
  legacy?: boolean;
}

export interface FakePaymentIntent {
  id: string;
  account: string;
  amount: number;
  currency: string;
  status: 'requires_capture' | 'succeeded' | 'canceled';
  amountReceived: number;
}

/** A Checkout Session made on a connected account (POST /v1/checkout/sessions). */
export interface FakeCheckoutSession {
  id: string;
  account: string;
  /** The form as posted, for tests to check what the adapter sent. */
  form: URLSearchParams;
  amount: number;
  currency: string;
  manualCapture: boolean;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid';
  paymentIntent: string | null;
  /** `customer_creation` as posted (`always` | `if_required`), or null when not sent. */
  customerCreation: string | null;
  /** `payment_intent_data[setup_future_usage]` as posted (`on_session` | `off_session`), or null. */
  setupFutureUsage: string | null;
  /** The Customer Checkout made when the session completed (customer_creation=always), or null. */
  customer: string | null;
}

/** A card Stripe saved on a Customer when a session with setup_future_usage completed. */
export interface FakeSavedCard {
  account: string;
  customer: string;
  paymentMethod: string;
  usage: string;
  session: string;
}

/** A refund made on a connected account (POST /v1/refunds). */
export interface FakeStripeRefund {
  id: string;
  account: string;
  paymentIntent: string;
  charge: string;
  amount: number;
  currency: string;
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  reason: string | null;
  failureReason: string | null;
  metadata: Record<string, string>;
}

export interface FakeStripeEvent {
  body: string;
  headers: Record<string, string>;
}

export interface FakeStripe extends FakeServer {
  /** The platform's Connect webhook endpoint secret (whsec_…). */
  webhookSecret: string;
  sessions: Map<string, FakeCheckoutSession>;
  /** Cards saved on Customers for later payments, in the order they were saved. */
  savedCards: FakeSavedCard[];
  /**
   * The payer finishes the session on Stripe's page: `paid` makes a payment intent that succeeded
   * (or requires_capture with manual capture); `declined` leaves the session open with a failed
   * intent (the payer may try again). Returns the checkout.session.completed event, signed.
   */
  completeSession(id: string, outcome?: 'paid' | 'declined'): FakeStripeEvent | null;
  /** The session lapses (24 h in Stripe): status expired; returns checkout.session.expired, signed. */
  expireSession(id: string): FakeStripeEvent;
  /** A Stripe event of `type` about `object` on `account`, signed with the webhook secret. */
  signedEvent(type: string, object: object, account: string, timestamp?: number): FakeStripeEvent;
  /** Where completing on the fake's hosted page posts its events (the platform's endpoint). */
  sendEventsTo(url: string | null): void;
  /** Drop the next PaymentIntent call's connection after acting on it (a lost answer). */
  loseNextAnswer(): void;
  /** PaymentIntents made with capture_method=manual, by id. */
  paymentIntents: Map<string, FakePaymentIntent>;
  secretKey: string;
  clientId: string;
  accounts: Map<string, FakeStripeAccount>;
  /** The account the next authorisation connects. */
  connectNext(account: FakeStripeAccount): void;
  /** Refunds made through `POST /v1/refunds`, by id. */
  refunds: Map<string, FakeStripeRefund>;
  /** The next refund is made with this status (Stripe's `pending` for slow methods); once. */
  nextRefundStatus(status: FakeStripeRefund['status']): void;
  /** A payment intent that succeeded for `amount` (minor units) on `account`, as a paid checkout leaves it. */
  succeededIntent(
    account: string,
    amount: number,
    currency?: string,
    metadata?: Record<string, string>,
  ): string;
  /** The Refund object as Stripe sends it (in answers and in refund.* events). */
  refundObject(id: string): object;
  /**
   * The refund moves to `status` (failed with `failureReason`), as Stripe reports a refund the
   * card network returned; returns the signed `refund.updated` (or `type`) event.
   */
  moveRefund(
    id: string,
    status: FakeStripeRefund['status'],
    options?: { failureReason?: string; type?: string },
  ): FakeStripeEvent;
  /** A refund made in Stripe's dashboard (no metadata of ours); returns the signed `charge.refunded`. */
  dashboardRefund(
    intentId: string,
    amount: number,
  ): { refund: FakeStripeRefund; event: FakeStripeEvent };
  /**
   * A dispute on the intent's charge, signed as `charge.dispute.created|updated|closed` (by the
   * status: needs_response → created, under_review → updated, won/lost → closed, unless `type`).
   */
  disputeEvent(
    intentId: string,
    status:
      | 'warning_needs_response'
      | 'needs_response'
      | 'under_review'
      | 'won'
      | 'lost'
      | 'warning_closed',
    options?: { id?: string; amount?: number; reason?: string; dueBy?: number; type?: string },
  ): FakeStripeEvent;
  /** Accounts that deauthorised the platform. */
  deauthorized: Set<string>;
}

interface FakeIntentState {
  id: string;
  account?: string;
  amount: number;
  currency: string;
  status: string;
  amountReceived: number;
}

/** `prefix[key]=value` form fields as an object (Stripe's metadata encoding). */
function metadataOf(form: URLSearchParams, prefix: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of form) {
    if (
      name.startsWith(`${prefix}[`) &&
      name.endsWith(']') &&
      !name.slice(prefix.length + 1, -1).includes('[')
    )
      metadata[name.slice(prefix.length + 1, -1)] = value;
  }
  return metadata;
}

/**
 * Stripe Connect (Standard, OAuth) and the accounts API, answering as Stripe does: the authorise
 * page, `POST /oauth/token` (invalid_grant for an unknown code), `POST /oauth/deauthorize`,
 * `GET /v1/accounts/{id}` (403 when the platform has no access), all with the platform secret key.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const clientId = `ca_${randomBytes(8).toString('hex')}`;
  const accounts = new Map<string, FakeStripeAccount>();
  const codes = new Map<string, string>();
  const deauthorized = new Set<string>();
  let next: FakeStripeAccount = { id: 'acct_1Fake00000000001', displayName: 'Fake Stripe Ltd' };
  const paymentIntents = new Map<string, FakePaymentIntent>();
  const sessions = new Map<string, FakeCheckoutSession>();
  const savedCards: FakeSavedCard[] = [];
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const intentMetadata = new Map<string, Record<string, string>>();
  const intentErrors = new Map<string, string>();
  let eventsUrl: string | null = null;
  let loseAnswer = false;
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const refunds = new Map<string, FakeStripeRefund>();
  let refundStatus: FakeStripeRefund['status'] | null = null;
  const chargeOf = (intentId: string) => `ch_${intentId.slice(3)}`;
  const refundObject = (id: string) => {
    const refund = refunds.get(id)!;
    return {
      id: refund.id,
      object: 'refund',
      amount: refund.amount,
      balance_transaction: `txn_${refund.id.slice(3)}`,
      charge: refund.charge,
      created: Math.floor(Date.now() / 1000),
      currency: refund.currency,
      destination_details: {
        card: { reference: null, reference_status: 'pending', type: 'refund' },
      },
      failure_reason: refund.failureReason,
      metadata: refund.metadata,
      payment_intent: refund.paymentIntent,
      reason: refund.reason,
      status: refund.status,
    };
  };
  /** What is left to refund of a succeeded intent (failed and canceled refunds gave nothing back). */
  const refundedOf = (intentId: string) =>
    [...refunds.values()]
      .filter(
        (r) => r.paymentIntent === intentId && r.status !== 'failed' && r.status !== 'canceled',
      )
      .reduce((sum, r) => sum + r.amount, 0);
  const money = (minor: number, currency: string) => {
    const symbol = ({ gbp: '£', usd: '$', eur: '€' } as Record<string, string>)[currency] ?? '';
    return `${symbol}${(minor / 100).toFixed(2)}${symbol ? '' : ` ${currency}`}`;
  };
  const intentBody = (intent: FakePaymentIntent | FakeIntentState) => ({
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    amount_capturable: intent.status === 'requires_capture' ? intent.amount : 0,
    amount_received: intent.amountReceived,
    capture_method: 'manual',
    currency: intent.currency,
    status: intent.status,
    metadata: intentMetadata.get(intent.id) ?? {},
    last_payment_error: intentErrors.has(intent.id)
      ? {
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: intentErrors.get(intent.id),
        }
      : null,
  });
  /** Intents that are not held for capture (automatic capture, or declined), by id. */
  const otherIntents = new Map<string, FakeIntentState>();
  const intentById = (id: string) => paymentIntents.get(id) ?? otherIntents.get(id);
  const sessionBody = (session: FakeCheckoutSession, expand: boolean) => {
    const intent = session.paymentIntent ? intentById(session.paymentIntent) : undefined;
    return {
      id: session.id,
      object: 'checkout.session',
      amount_total: session.amount,
      currency: session.currency,
      client_reference_id: session.form.get('client_reference_id'),
      customer_email: session.form.get('customer_email'),
      customer: session.customer,
      customer_creation: session.customerCreation,
      livemode: false,
      metadata: session.metadata,
      mode: 'payment',
      payment_intent: expand && intent ? intentBody(intent) : session.paymentIntent,
      payment_status: session.paymentStatus,
      status: session.status,
      success_url: session.successUrl,
      cancel_url: session.cancelUrl,
      url: session.status === 'open' ? `${server.url}/c/pay/${session.id}` : null,
    };
  };
  const signedEvent = (
    type: string,
    object: object,
    account: string,
    timestamp = Math.floor(Date.now() / 1000),
  ): FakeStripeEvent => {
    const body = JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      account,
      api_version: '2024-06-20',
      created: timestamp,
      livemode: false,
      type,
      data: { object },
    });
    const v1 = createHmac('sha256', webhookSecret).update(`${timestamp}.${body}`).digest('hex');
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${timestamp},v1=${v1}`,
      },
    };
  };
  function completeSession(id: string, outcome: 'paid' | 'declined' = 'paid') {
    const session = sessions.get(id);
    if (!session || session.status !== 'open') return null;
    const intentId = session.paymentIntent ?? `pi_${randomBytes(12).toString('hex')}`;
    session.paymentIntent = intentId;
    intentMetadata.set(intentId, metadataOf(session.form, 'payment_intent_data[metadata]'));
    if (outcome === 'declined') {
      intentErrors.set(intentId, 'Your card was declined.');
      otherIntents.set(intentId, {
        id: intentId,
        amount: session.amount,
        currency: session.currency,
        status: 'requires_payment_method',
        amountReceived: 0,
      });
      return null;
    }
    intentErrors.delete(intentId);
    otherIntents.delete(intentId);
    if (session.manualCapture) {
      paymentIntents.set(intentId, {
        id: intentId,
        account: session.account,
        amount: session.amount,
        currency: session.currency,
        status: 'requires_capture',
        amountReceived: 0,
      });
    } else {
      otherIntents.set(intentId, {
        id: intentId,
        account: session.account,
        amount: session.amount,
        currency: session.currency,
        status: 'succeeded',
        amountReceived: session.amount,
      });
    }
    // Checkout makes the Customer, and attaches the card to it for setup_future_usage; without a
    // Customer the card is attached to nothing (Stripe: "the payment method is not attached").
    if (session.customerCreation === 'always')
      session.customer = `cus_${randomBytes(7).toString('hex')}`;
    if (session.setupFutureUsage && session.customer)
      savedCards.push({
        account: session.account,
        customer: session.customer,
        paymentMethod: `pm_${randomBytes(12).toString('hex')}`,
        usage: session.setupFutureUsage,
        session: session.id,
      });
    session.status = 'complete';
    session.paymentStatus = session.manualCapture ? 'unpaid' : 'paid';
    return signedEvent('checkout.session.completed', sessionBody(session, false), session.account);
  }
  function expireSession(id: string) {
    const session = sessions.get(id)!;
    session.status = 'expired';
    return signedEvent('checkout.session.expired', sessionBody(session, false), session.account);
  }
  function deliver(event: FakeStripeEvent | null) {
    if (!event || !eventsUrl) return;
    void fetch(eventsUrl, { method: 'POST', headers: event.headers, body: event.body }).catch(
      () => undefined,
    );
  }
  function redirect(response: ServerResponse, location: string) {
    response.writeHead(303, { location });
    response.end();
  }

  const invalidKey = () => ({
    error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' },
  });
  const server = await startFakeServer((request, response) => {
    const authorised = request.headers.authorization === `Bearer ${secretKey}`;
    if (request.method === 'GET' && request.path === '/oauth/authorize') {
      const redirectUri = request.query.get('redirect_uri') ?? '';
      const state = request.query.get('state') ?? '';
      if (
        request.query.get('client_id') !== clientId ||
        request.query.get('response_type') !== 'code' ||
        request.query.get('scope') !== 'read_write'
      ) {
        return sendHtml(
          response,
          '<h1>Invalid request</h1><p>No application matches the supplied client identifier.</p>',
        );
      }
      const code = `ac_${randomBytes(12).toString('hex')}`;
      codes.set(code, next.id);
      accounts.set(next.id, next);
      const allow = returnUrl(redirectUri, { code, state, scope: 'read_write' });
      const deny = returnUrl(redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied your request',
        state,
      });
      return sendHtml(
        response,
        `<h1>Connect ${escapeHtml(next.displayName)} to the platform</h1><a href="${escapeHtml(allow)}">Connect my Stripe account</a> <a href="${escapeHtml(deny)}">Cancel</a>`,
      );
    }
    if (request.method === 'POST' && request.path === '/oauth/token') {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const accountId = codes.get(request.form.get('code') ?? '');
      if (request.form.get('grant_type') !== 'authorization_code' || !accountId) {
        return sendJson(response, 400, {
          error: 'invalid_grant',
          error_description: `Authorization code does not exist: ${request.form.get('code')}`,
        });
      }
      codes.delete(request.form.get('code')!);
      deauthorized.delete(accountId);
      return sendJson(response, 200, {
        access_token: `sk_test_connected_${randomBytes(8).toString('hex')}`,
        livemode: false,
        refresh_token: `rt_${randomBytes(8).toString('hex')}`,
        scope: 'read_write',
        stripe_publishable_key: `pk_test_${randomBytes(8).toString('hex')}`,
        stripe_user_id: accountId,
        token_type: 'bearer',
      });
    }
    if (request.method === 'POST' && request.path === '/oauth/deauthorize') {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const accountId = request.form.get('stripe_user_id') ?? '';
      if (
        request.form.get('client_id') !== clientId ||
        !accounts.has(accountId) ||
        deauthorized.has(accountId)
      ) {
        return sendJson(response, 400, {
          error: 'invalid_client',
          error_description: `Stripe account ${accountId} is not connected to your platform.`,
        });
      }
      deauthorized.add(accountId);
      return sendJson(response, 200, { stripe_user_id: accountId });
    }
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions') {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const key = request.headers['idempotency-key'];
      const replay = typeof key === 'string' ? idempotent.get(key) : undefined;
      if (replay) return sendJson(response, replay.status, replay.body);
      const account = String(request.headers['stripe-account'] ?? '');
      if (!accounts.has(account) || deauthorized.has(account))
        return sendJson(response, 403, {
          error: {
            type: 'invalid_request_error',
            code: 'account_invalid',
            message: `The provided key does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
          },
        });
      const form = request.form;
      const missing = ['mode', 'success_url', 'line_items[0][price_data][unit_amount]'].find(
        (name) => !form.get(name),
      );
      if (missing)
        return sendJson(response, 400, {
          error: {
            type: 'invalid_request_error',
            code: 'parameter_missing',
            param: missing,
            message: `Missing required param: ${missing}.`,
          },
        });
      const amount = Number(form.get('line_items[0][price_data][unit_amount]'));
      if (!Number.isInteger(amount) || amount < 30)
        return sendJson(response, 400, {
          error: {
            type: 'invalid_request_error',
            code: 'amount_too_small',
            param: 'line_items[0][price_data][unit_amount]',
            message: "The Checkout Session's total amount due must add up to at least £0.30 gbp",
          },
        });
      // Stripe's own checks of the card options (its invalid_request_error wording).
      const customerCreation = form.get('customer_creation');
      const setupFutureUsage = form.get('payment_intent_data[setup_future_usage]');
      const invalid = (param: string, value: string, allowed: string[]) =>
        sendJson(response, 400, {
          error: {
            type: 'invalid_request_error',
            param,
            message: `Invalid ${param}: must be one of ${allowed.join(', ')} (got ${value}).`,
          },
        });
      if (customerCreation !== null && !['always', 'if_required'].includes(customerCreation))
        return invalid('customer_creation', customerCreation, ['always', 'if_required']);
      if (setupFutureUsage !== null && !['on_session', 'off_session'].includes(setupFutureUsage))
        return invalid('payment_intent_data[setup_future_usage]', setupFutureUsage, [
          'on_session',
          'off_session',
        ]);
      const session: FakeCheckoutSession = {
        id: `cs_test_${randomBytes(24).toString('hex')}`,
        account,
        form,
        amount,
        currency: form.get('line_items[0][price_data][currency]') ?? '',
        manualCapture: form.get('payment_intent_data[capture_method]') === 'manual',
        successUrl: form.get('success_url')!,
        cancelUrl: form.get('cancel_url') ?? form.get('success_url')!,
        metadata: metadataOf(form, 'metadata'),
        status: 'open',
        paymentStatus: 'unpaid',
        paymentIntent: null,
        customerCreation,
        setupFutureUsage,
        customer: null,
      };
      sessions.set(session.id, session);
      const body = sessionBody(session, false);
      if (typeof key === 'string') idempotent.set(key, { status: 200, body });
      return sendJson(response, 200, body);
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && sessionPath) {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const session = sessions.get(decodeURIComponent(sessionPath[1]!));
      if (!session || session.account !== request.headers['stripe-account'])
        return sendJson(response, 404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such checkout.session: '${sessionPath[1]}'`,
          },
        });
      const expand = request.query.getAll('expand[]').includes('payment_intent');
      return sendJson(response, 200, sessionBody(session, expand));
    }
    const readIntent = /^\/v1\/payment_intents\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && readIntent) {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const id = decodeURIComponent(readIntent[1]!);
      const intent = intentById(id);
      const owner =
        paymentIntents.get(id)?.account ??
        otherIntents.get(id)?.account ??
        [...sessions.values()].find((s) => s.paymentIntent === id)?.account;
      if (!intent || owner !== request.headers['stripe-account'])
        return sendJson(response, 404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such payment_intent: '${id}'`,
          },
        });
      return sendJson(response, 200, intentBody(intent));
    }
    // The hosted Checkout page (checkout.stripe.com in Stripe): pay, decline, or go back.
    const hosted = /^\/c\/pay\/([^/]+)(?:\/(paid|declined|cancel))?$/.exec(request.path);
    if (request.method === 'GET' && hosted) {
      const session = sessions.get(decodeURIComponent(hosted[1]!));
      if (!session || session.status !== 'open')
        return sendHtml(response, '<h1>This checkout session is no longer available</h1>');
      if (hosted[2] === 'paid') {
        deliver(completeSession(session.id, 'paid'));
        return redirect(response, session.successUrl);
      }
      if (hosted[2] === 'declined') {
        completeSession(session.id, 'declined');
        return sendHtml(response, '<h1>Your card was declined.</h1>');
      }
      if (hosted[2] === 'cancel') return redirect(response, session.cancelUrl);
      const base = `/c/pay/${session.id}`;
      return sendHtml(
        response,
        `<h1>Pay ${escapeHtml(session.currency.toUpperCase())} ${(session.amount / 100).toFixed(2)}</h1><a href="${base}/paid">Pay</a> <a href="${base}/declined">Decline card</a> <a href="${base}/cancel">Back</a>`,
      );
    }
    const intentPath = /^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/.exec(request.path);
    if (request.method === 'POST' && intentPath) {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const key = request.headers['idempotency-key'];
      const replay = typeof key === 'string' ? idempotent.get(key) : undefined;
      if (replay) return sendJson(response, replay.status, replay.body);
      const answer = (status: number, body: unknown) => {
        if (typeof key === 'string') idempotent.set(key, { status, body });
        if (loseAnswer) {
          loseAnswer = false;
          response.socket?.destroy();
          return;
        }
        return sendJson(response, status, body);
      };
      const intent = paymentIntents.get(decodeURIComponent(intentPath[1]!));
      if (!intent || intent.account !== request.headers['stripe-account']) {
        return answer(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such payment_intent: '${intentPath[1]}'`,
          },
        });
      }
      if (intent.status !== 'requires_capture') {
        const verb = intentPath[2] === 'capture' ? 'captured' : 'canceled';
        return answer(400, {
          error: {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: `This PaymentIntent could not be ${verb} because it has a status of ${intent.status}.`,
          },
        });
      }
      if (intentPath[2] === 'capture') {
        const amount = Number(request.form.get('amount_to_capture') ?? intent.amount);
        if (amount > intent.amount) {
          return answer(400, {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_large',
              message: 'Amount to capture must be less than or equal to the capturable amount.',
            },
          });
        }
        intent.status = 'succeeded';
        intent.amountReceived = amount;
      } else {
        intent.status = 'canceled';
      }
      return answer(200, intentBody(intent));
    }
    if (request.method === 'POST' && request.path === '/v1/refunds') {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const key = request.headers['idempotency-key'];
      const replay = typeof key === 'string' ? idempotent.get(key) : undefined;
      if (replay) return sendJson(response, replay.status, replay.body);
      const answer = (status: number, body: unknown) => {
        if (typeof key === 'string') idempotent.set(key, { status, body });
        if (loseAnswer) {
          loseAnswer = false;
          response.socket?.destroy();
          return;
        }
        return sendJson(response, status, body);
      };
      const invalid = (code: string, message: string, param?: string) =>
        answer(400, {
          error: { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) },
        });
      const account = String(request.headers['stripe-account'] ?? '');
      const charge = request.form.get('charge');
      const intentId =
        request.form.get('payment_intent') ?? (charge ? `pi_${charge.slice(3)}` : null);
      if (!intentId)
        return invalid(
          'parameter_missing',
          'One of the following params should be provided for this request: payment_intent or charge.',
        );
      const intent = intentById(intentId);
      const owner = paymentIntents.get(intentId)?.account ?? otherIntents.get(intentId)?.account;
      if (!intent || owner !== account)
        return answer(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_intent',
            message: `No such payment_intent: '${intentId}'`,
          },
        });
      if (intent.status !== 'succeeded')
        return invalid(
          'charge_not_refundable',
          `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        );
      const refunded = refundedOf(intentId);
      const left = intent.amountReceived - refunded;
      if (left <= 0)
        return invalid(
          'charge_already_refunded',
          `Charge ${chargeOf(intentId)} has already been refunded.`,
        );
      const amount = request.form.has('amount') ? Number(request.form.get('amount')) : left;
      if (!Number.isInteger(amount) || amount < 1)
        return invalid('parameter_invalid_integer', 'Invalid positive integer', 'amount');
      if (amount > left)
        return invalid(
          'amount_too_large',
          refunded === 0
            ? `Refund amount (${money(amount, intent.currency)}) is greater than charge amount (${money(intent.amountReceived, intent.currency)})`
            : `Refund amount (${money(amount, intent.currency)}) is greater than unrefunded amount on charge (${money(left, intent.currency)})`,
          'amount',
        );
      const reason = request.form.get('reason');
      if (reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason))
        return invalid(
          'parameter_invalid_string',
          'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer',
          'reason',
        );
      const refund: FakeStripeRefund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        account,
        paymentIntent: intentId,
        charge: chargeOf(intentId),
        amount,
        currency: intent.currency,
        status: refundStatus ?? 'succeeded',
        reason: reason ?? null,
        failureReason: null,
        metadata: metadataOf(request.form, 'metadata'),
      };
      refundStatus = null;
      refunds.set(refund.id, refund);
      return answer(200, refundObject(refund.id));
    }
    const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && accountPath) {
      if (!authorised) return sendJson(response, 401, invalidKey());
      const account = accounts.get(decodeURIComponent(accountPath[1]!));
      if (!account || deauthorized.has(account.id)) {
        return sendJson(response, 403, {
          error: {
            type: 'invalid_request_error',
            code: 'account_invalid',
            message: `The provided key does not have access to account '${accountPath[1]}' (or that account does not exist). Application access may have been revoked.`,
          },
        });
      }
      return sendJson(response, 200, {
        id: account.id,
        object: 'account',
        type: 'standard',
        ...(account.legacy ? {} : { controller: { type: 'account', is_controller: false } }),
        default_currency: account.defaultCurrency ?? 'gbp',
        settings: { dashboard: { display_name: account.displayName, timezone: 'Europe/London' } },
        capabilities: { card_payments: account.cardPayments ?? 'active', transfers: 'active' },
      });
    }
    return sendJson(response, 404, {
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${request.method}: ${request.path}).`,
      },
    });
  });
  function succeededIntent(
    account: string,
    amount: number,
    currency = 'gbp',
    metadata: Record<string, string> = {},
  ) {
    const id = `pi_${randomBytes(12).toString('hex')}`;
    otherIntents.set(id, {
      id,
      account,
      amount,
      currency,
      status: 'succeeded',
      amountReceived: amount,
    });
    intentMetadata.set(id, metadata);
    return id;
  }
  function moveRefund(
    id: string,
    status: FakeStripeRefund['status'],
    options: { failureReason?: string; type?: string } = {},
  ) {
    const refund = refunds.get(id)!;
    refund.status = status;
    if (status === 'failed') refund.failureReason = options.failureReason ?? 'unknown';
    return signedEvent(options.type ?? 'refund.updated', refundObject(id), refund.account);
  }
  function chargeObject(intentId: string) {
    const intent = intentById(intentId)!;
    const listed = [...refunds.values()].filter((r) => r.paymentIntent === intentId).reverse();
    return {
      id: chargeOf(intentId),
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amountReceived,
      amount_refunded: refundedOf(intentId),
      currency: intent.currency,
      disputed: false,
      metadata: {},
      paid: true,
      payment_intent: intentId,
      refunded: refundedOf(intentId) >= intent.amountReceived,
      refunds: { object: 'list', data: listed.map((r) => refundObject(r.id)), has_more: false },
      status: 'succeeded',
    };
  }
  function dashboardRefund(intentId: string, amount: number) {
    const intent = intentById(intentId)!;
    const account =
      paymentIntents.get(intentId)?.account ?? otherIntents.get(intentId)?.account ?? '';
    const refund: FakeStripeRefund = {
      id: `re_${randomBytes(12).toString('hex')}`,
      account,
      paymentIntent: intentId,
      charge: chargeOf(intentId),
      amount,
      currency: intent.currency,
      status: 'succeeded',
      reason: 'requested_by_customer',
      failureReason: null,
      metadata: {},
    };
    refunds.set(refund.id, refund);
    return { refund, event: signedEvent('charge.refunded', chargeObject(intentId), account) };
  }
  function disputeEvent(
    intentId: string,
    status: string,
    options: { id?: string; amount?: number; reason?: string; dueBy?: number; type?: string } = {},
  ) {
    const intent = intentById(intentId)!;
    const account =
      paymentIntents.get(intentId)?.account ?? otherIntents.get(intentId)?.account ?? '';
    const type =
      options.type ??
      (status === 'won' || status === 'lost' || status === 'warning_closed'
        ? 'charge.dispute.closed'
        : status.endsWith('needs_response')
          ? 'charge.dispute.created'
          : 'charge.dispute.updated');
    return signedEvent(
      type,
      {
        id: options.id ?? `dp_${randomBytes(12).toString('hex')}`,
        object: 'dispute',
        amount: options.amount ?? intent.amountReceived,
        balance_transactions: [],
        charge: chargeOf(intentId),
        created: Math.floor(Date.now() / 1000),
        currency: intent.currency,
        evidence_details: {
          due_by: options.dueBy ?? Math.floor(Date.now() / 1000) + 7 * 86400,
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: intentId,
        payment_method_details: {
          card: { brand: 'visa', case_type: 'chargeback', network_reason_code: '10.4' },
          type: 'card',
        },
        reason: options.reason ?? 'fraudulent',
        status,
      },
      account,
    );
  }
  return {
    ...server,
    webhookSecret,
    sessions,
    savedCards,
    completeSession,
    expireSession,
    signedEvent,
    sendEventsTo: (url) => {
      eventsUrl = url;
    },
    secretKey,
    clientId,
    accounts,
    deauthorized,
    paymentIntents,
    refunds,
    nextRefundStatus: (status) => {
      refundStatus = status;
    },
    succeededIntent,
    refundObject,
    moveRefund,
    dashboardRefund,
    disputeEvent,
    loseNextAnswer: () => {
      loseAnswer = true;
    },
    connectNext: (account) => {
      next = account;
    },
  };
}
