import { randomBytes } from 'node:crypto';
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

export interface FakeStripe extends FakeServer {
  /** Drop the next PaymentIntent call's connection after acting on it (a lost answer). */
  loseNextAnswer(): void;
  /** PaymentIntents made with capture_method=manual, by id. */
  paymentIntents: Map<string, FakePaymentIntent>;
  secretKey: string;
  clientId: string;
  accounts: Map<string, FakeStripeAccount>;
  /** The account the next authorisation connects. */
  connectNext(account: FakeStripeAccount): void;
  /** Accounts that deauthorised the platform. */
  deauthorized: Set<string>;
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
  let loseAnswer = false;
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const intentBody = (intent: FakePaymentIntent) => ({
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    amount_capturable: intent.status === 'requires_capture' ? intent.amount : 0,
    amount_received: intent.amountReceived,
    capture_method: 'manual',
    currency: intent.currency,
    status: intent.status,
  });

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
  return {
    ...server,
    secretKey,
    clientId,
    accounts,
    deauthorized,
    paymentIntents,
    loseNextAnswer: () => {
      loseAnswer = true;
    },
    connectNext: (account) => {
      next = account;
    },
  };
}
