/**
 * The three Svix calls Ledgerline makes (reference/providers.md, Svix), over fetch: an
 * application per company (get or create), a message per event with the event id as Svix's
 * eventId, and the app portal's access URL. Our own client rather than the svix SDK: three calls,
 * one time limit and one error shape like the other provider clients (docs/decisions/066-outgoing-web-hooks-our-own-svix-client.md).
 */
export interface SvixClient {
  /** POST /api/v1/app/?get_if_exists=true */
  getOrCreateApplication(input: {
    uid: string;
    name: string;
  }): Promise<{ id: string; uid: string }>;
  /**
   * POST /api/v1/app/{app}/msg/. Svix refuses an eventId it already has with 409: that message
   * is already there, so it counts as sent.
   */
  createMessage(
    appUid: string,
    input: { eventType: string; eventId: string; payload: unknown },
  ): Promise<{ statusCode: number; duplicate: boolean }>;
  /** POST /api/v1/auth/app-portal-access/{app}/ → the portal URL and an app-scoped token. */
  appPortalAccess(appUid: string): Promise<{ url: string; token: string }>;
}

export class SvixError extends Error {
  constructor(
    readonly statusCode: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'SvixError';
  }
}

/** Svix's cloud picks the region from the token's suffix (e.g. `.eu`); self-hosted servers set SVIX_SERVER_URL. */
export function svixServerUrl(token: string, serverUrl?: string): string {
  if (serverUrl) return serverUrl.replace(/\/$/, '');
  const region = /\.([a-z]{2})$/.exec(token)?.[1];
  return region && ['us', 'eu', 'in', 'ca', 'au'].includes(region)
    ? `https://api.${region}.svix.com`
    : 'https://api.svix.com';
}

export function createSvixClient(options: {
  token: string;
  serverUrl?: string;
  timeoutMs: number;
}): SvixClient {
  const base = svixServerUrl(options.token, options.serverUrl);

  async function call(path: string, body: unknown, idempotencyKey?: string) {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new SvixError(null, `Svix did not answer: ${(error as Error).message}`);
    }
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // not JSON: the status says enough
    }
    return { status: response.status, json };
  }

  function fail(what: string, status: number, json: Record<string, unknown>): never {
    const detail =
      typeof json.detail === 'string' ? json.detail : JSON.stringify(json.detail ?? json);
    throw new SvixError(status, `Svix refused ${what} (${status}): ${detail}`);
  }

  return {
    async getOrCreateApplication(input) {
      const { status, json } = await call('/api/v1/app/?get_if_exists=true', input);
      if (status !== 200 && status !== 201) fail('the application', status, json);
      return { id: String(json.id), uid: String(json.uid ?? input.uid) };
    },
    async createMessage(appUid, input) {
      const { status, json } = await call(
        `/api/v1/app/${encodeURIComponent(appUid)}/msg/`,
        input,
        input.eventId,
      );
      if (status === 409) return { statusCode: status, duplicate: true };
      if (status < 200 || status >= 300) fail('the message', status, json);
      return { statusCode: status, duplicate: false };
    },
    async appPortalAccess(appUid) {
      const { status, json } = await call(
        `/api/v1/auth/app-portal-access/${encodeURIComponent(appUid)}/`,
        {},
      );
      if (status !== 200) fail('the portal access', status, json);
      return { url: String(json.url), token: String(json.token) };
    },
  };
}

/** One Svix application per company: its uid from the tenant and the dataset. */
export const svixAppUid = (scope: { tenantId: string; datasetId: number }) =>
  `ledgerline-${scope.tenantId}-${scope.datasetId}`;
