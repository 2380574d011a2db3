import { formBody, providerFetch } from '../http.js';

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
    async exchangeCode(code: string): Promise<{ accountId: string; livemode: boolean }> {
      const answer = await providerFetch('Stripe', `${connect}/oauth/token`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
        body: formBody({ grant_type: 'authorization_code', code }),
        timeoutMs: options.timeoutMs,
      });
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

    async account(accountId: string): Promise<StripeAccount | null> {
      const answer = await providerFetch(
        'Stripe',
        `${api}/v1/accounts/${encodeURIComponent(accountId)}`,
        {
          method: 'GET',
          headers: auth(),
          timeoutMs: options.timeoutMs,
        },
      );
      const body = answer.json<StripeAccountBody>();
      if (answer.status !== 200 || !body?.id) return null;
      return {
        id: body.id,
        displayName: body.settings?.dashboard?.display_name ?? body.business_profile?.name ?? null,
        defaultCurrency: body.default_currency?.toUpperCase() ?? null,
        // Accounts from before Stripe's controller model carry no `controller` (docs/decisions.md).
        isLegacyAccount: body.controller === undefined,
        capabilities: { cardPayments: body.capabilities?.card_payments ?? null },
      };
    },

    async deauthorize(accountId: string): Promise<void> {
      const answer = await providerFetch('Stripe', `${connect}/oauth/deauthorize`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
        body: formBody({ client_id: options.clientId ?? '', stripe_user_id: accountId }),
        timeoutMs: options.timeoutMs,
      });
      // An account that already revoked the platform is disconnected too.
      if (answer.status !== 200 && !/invalid_client|not connected/i.test(answer.text)) {
        const body = answer.json<{ error_description?: string }>();
        throw new StripeError(body?.error_description ?? `Stripe answered HTTP ${answer.status}.`);
      }
    },
  };
}
export type StripeConnect = ReturnType<typeof createStripeConnect>;
