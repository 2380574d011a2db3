import { formBody } from '../http.js';
import {
  maskedFields,
  maskedJson,
  recordedFetch,
  type ExchangeRecorder,
} from '../recorded-fetch.js';

export interface StripeAccount {
  id: string;
  displayName: string | null;
  defaultCurrency: string | null;
  isLegacyAccount: boolean;
  capabilities: { cardPayments: string | null };
}

interface StripeAccountBody {
  id: string;
  type?: string;
  default_currency?: string;
  business_profile?: { name?: string | null };
  settings?: { dashboard?: { display_name?: string | null } };
  capabilities?: { card_payments?: string };
  controller?: { type?: string };
  error?: { message?: string };
}

export class StripeError extends Error {}

/**
 * Stripe Connect (Standard, OAuth) as the platform: the token exchange and deauthorisation at
 * connect.stripe.com, the connected account at api.stripe.com, all with the platform secret key.
 */
export function createStripeConnect(options: {
  connectUrl: string;
  apiUrl: string;
  secretKey: string | undefined;
  clientId: string | undefined;
  timeoutMs: number;
}) {
  const connect = options.connectUrl.replace(/\/$/, '');
  const api = options.apiUrl.replace(/\/$/, '');
  const auth = () => {
    if (!options.secretKey)
      throw new StripeError('Stripe Connect is not configured on this server (STRIPE_SECRET_KEY).');
    return { authorization: `Bearer ${options.secretKey}` };
  };
  return {
    isTestMode: () => !options.secretKey || options.secretKey.startsWith('sk_test_'),
    clientId: () => options.clientId ?? null,
    authoriseUrl: () => `${connect}/oauth/authorize`,

    /** The authorisation code for the connected account's id (`stripe_user_id`). */
    async exchangeCode(
      code: string,
      recorder?: ExchangeRecorder,
    ): Promise<{ accountId: string; livemode: boolean }> {
      const fields = { grant_type: 'authorization_code', code };
      const url = `${connect}/oauth/token`;
      const answer = await recordedFetch(
        'Stripe',
        url,
        {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        },
        {
          recorder,
          eventType: 'oauth.token',
          recordType: 'account',
          request: { method: 'POST', url, body: maskedFields(fields, ['code']) },
          status: (answer) => (answer.status === 200 ? 'connected' : `http_${answer.status}`),
          // The answer carries the connected account's tokens: never recorded.
          maskAnswer: (text) => maskedJson(text, ['access_token', 'refresh_token']),
        },
      );
      const body = answer.json<{
        stripe_user_id?: string;
        livemode?: boolean;
        error?: string;
        error_description?: string;
      }>();
      if (answer.status !== 200 || !body?.stripe_user_id) {
        throw new StripeError(
          body?.error_description ?? body?.error ?? `Stripe answered HTTP ${answer.status}.`,
        );
      }
      return { accountId: body.stripe_user_id, livemode: body.livemode === true };
    },

    async account(accountId: string, recorder?: ExchangeRecorder): Promise<StripeAccount | null> {
      const url = `${api}/v1/accounts/${encodeURIComponent(accountId)}`;
      const answer = await recordedFetch(
        'Stripe',
        url,
        { method: 'GET', headers: auth(), timeoutMs: options.timeoutMs },
        {
          recorder,
          eventType: 'account.read',
          recordType: 'account',
          recordId: accountId,
          request: { method: 'GET', url },
          status: (answer) => (answer.status === 200 ? 'read' : `http_${answer.status}`),
        },
      );
      const body = answer.json<StripeAccountBody>();
      if (answer.status !== 200 || !body?.id) return null;
      return {
        id: body.id,
        displayName: body.settings?.dashboard?.display_name ?? body.business_profile?.name ?? null,
        defaultCurrency: body.default_currency?.toUpperCase() ?? null,
        // Accounts from before Stripe's controller model carry no `controller` (docs/decisions/047-provider-connection-flows.md).
        isLegacyAccount: body.controller === undefined,
        capabilities: { cardPayments: body.capabilities?.card_payments ?? null },
      };
    },

    async deauthorize(accountId: string, recorder?: ExchangeRecorder): Promise<void> {
      const fields = { client_id: options.clientId ?? '', stripe_user_id: accountId };
      const url = `${connect}/oauth/deauthorize`;
      const answer = await recordedFetch(
        'Stripe',
        url,
        {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        },
        {
          recorder,
          eventType: 'oauth.deauthorize',
          recordType: 'account',
          recordId: accountId,
          request: { method: 'POST', url, body: fields },
          status: (answer) => (answer.status === 200 ? 'disconnected' : `http_${answer.status}`),
        },
      );
      // An account that already revoked the platform is disconnected too.
      if (answer.status !== 200 && !/invalid_client|not connected/i.test(answer.text)) {
        const body = answer.json<{ error_description?: string }>();
        throw new StripeError(body?.error_description ?? `Stripe answered HTTP ${answer.status}.`);
      }
    },
  };
}
export type StripeConnect = ReturnType<typeof createStripeConnect>;
