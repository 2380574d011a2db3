import { formBody } from '../http.js';
import {
  maskedFields,
  maskedJson,
  recordedFetch,
  type ExchangeRecorder,
} from '../recorded-fetch.js';

export class GoCardlessError extends Error {}

export interface GoCardlessCreditor {
  id: string;
  name: string;
  verificationStatus: string;
}

/**
 * GoCardless as an OAuth partner: the authorisation and token exchange at connect(-sandbox),
 * the creditor at api(-sandbox) with the merchant's access token (GoCardless-Version 2015-07-06).
 * Plain HTTP: gocardless-nodejs takes no base URL (reference/providers.md).
 */
export function createGoCardlessConnect(options: {
  live: boolean;
  connectUrl?: string;
  apiUrl?: string;
  verifyUrl?: string;
  clientId?: string;
  clientSecret?: string;
  timeoutMs: number;
}) {
  const connect = (
    options.connectUrl ??
    (options.live ? 'https://connect.gocardless.com' : 'https://connect-sandbox.gocardless.com')
  ).replace(/\/$/, '');
  const api = (
    options.apiUrl ??
    (options.live ? 'https://api.gocardless.com' : 'https://api-sandbox.gocardless.com')
  ).replace(/\/$/, '');
  const verify = (
    options.verifyUrl ??
    (options.live ? 'https://verify.gocardless.com' : 'https://verify-sandbox.gocardless.com')
  ).replace(/\/$/, '');
  const configured = () => {
    if (!options.clientId || !options.clientSecret)
      throw new GoCardlessError(
        'GoCardless is not configured on this server (GOCARDLESS_CLIENT_ID, GOCARDLESS_CLIENT_SECRET).',
      );
    return { clientId: options.clientId, clientSecret: options.clientSecret };
  };
  return {
    isConfigured: () => Boolean(options.clientId && options.clientSecret),
    isLive: () => options.live,
    authoriseUrl(input: { state: string; redirectUri: string }) {
      const url = new URL(`${connect}/oauth/authorize`);
      url.search = formBody({
        response_type: 'code',
        client_id: configured().clientId,
        scope: 'read_write',
        redirect_uri: input.redirectUri,
        state: input.state,
      });
      return url.toString();
    },
    verifyUrl: () => verify,

    async exchangeCode(
      input: { code: string; redirectUri: string },
      recorder?: ExchangeRecorder,
    ): Promise<{ accessToken: string; organisationId: string }> {
      const { clientId, clientSecret } = configured();
      const fields = {
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        client_id: clientId,
        client_secret: clientSecret,
      };
      const url = `${connect}/oauth/access_token`;
      const answer = await recordedFetch(
        'GoCardless',
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: formBody(fields),
          timeoutMs: options.timeoutMs,
        },
        {
          recorder,
          eventType: 'oauth.token',
          recordType: 'organisation',
          request: { method: 'POST', url, body: maskedFields(fields, ['code', 'client_secret']) },
          status: (answer) => (answer.status === 200 ? 'connected' : `http_${answer.status}`),
          // The merchant's access token is kept sealed with the configuration only.
          maskAnswer: (text) => maskedJson(text, ['access_token', 'refresh_token']),
        },
      );
      const body = answer.json<{
        access_token?: string;
        organisation_id?: string;
        error?: string;
        error_description?: string;
      }>();
      if (answer.status !== 200 || !body?.access_token || !body.organisation_id) {
        throw new GoCardlessError(
          body?.error_description ?? body?.error ?? `GoCardless answered HTTP ${answer.status}.`,
        );
      }
      return { accessToken: body.access_token, organisationId: body.organisation_id };
    },

    async creditor(
      accessToken: string,
      recorder?: ExchangeRecorder,
    ): Promise<GoCardlessCreditor | null> {
      const url = `${api}/creditors`;
      const answer = await recordedFetch(
        'GoCardless',
        url,
        {
          method: 'GET',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'gocardless-version': '2015-07-06',
            accept: 'application/json',
          },
          timeoutMs: options.timeoutMs,
        },
        {
          recorder,
          eventType: 'creditors.read',
          recordType: 'creditor',
          request: { method: 'GET', url },
          status: (answer) => (answer.status === 200 ? 'read' : `http_${answer.status}`),
        },
      );
      const body = answer.json<{
        creditors?: { id: string; name: string; verification_status: string }[];
      }>();
      const first = body?.creditors?.[0];
      if (answer.status !== 200 || !first) return null;
      return { id: first.id, name: first.name, verificationStatus: first.verification_status };
    },
  };
}
export type GoCardlessConnect = ReturnType<typeof createGoCardlessConnect>;
