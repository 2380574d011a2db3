import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type Provider from 'oidc-provider';
import { accountWaitMessage, type SignInThrottle } from '../platform/sign-in-throttle.js';
import type { AccountService } from './accounts.js';
import { isDatabaseUnavailable, retryAfterSeconds } from '../db/unavailable.js';
import { databaseUnavailableMessage } from '../platform/problems.js';

/** oidc-provider reads at most this much of a token request; so do we. */
const largestBody = 56 * 1024;

function clientIp(request: IncomingMessage): string {
  // middie copies Fastify's request.ip (which honours trustProxy) onto the raw request.
  return (
    (request as IncomingMessage & { ip?: string }).ip ?? request.socket.remoteAddress ?? 'unknown'
  );
}

function refuse(response: ServerResponse, retryAfterSeconds: number, description: string): void {
  response.statusCode = 429;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('cache-control', 'no-store');
  response.setHeader('retry-after', String(retryAfterSeconds));
  response.end(JSON.stringify({ error: 'too_many_requests', error_description: description }));
}

/**
 * The form of a token request, read here so the account can be known before oidc-provider runs;
 * left on `request.body`, where oidc-provider takes an already read body from.
 */
async function readForm(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  const type = request.headers['content-type'] ?? '';
  const length = Number(request.headers['content-length'] ?? NaN);
  if (!type.startsWith('application/x-www-form-urlencoded') || !(length <= largestBody))
    return null;
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of request.iterator({ destroyOnReturn: false })) {
    received += (chunk as Buffer).length;
    if (received > largestBody) return null;
    chunks.push(chunk as Buffer);
  }
  const form = parseQuery(Buffer.concat(chunks).toString('utf8'));
  (request as IncomingMessage & { body?: unknown }).body = form;
  return form;
}

/**
 * The token endpoint behind the sign-in throttles (platform/sign-in-throttle.ts): the address's
 * limit first, then, for an authorization code that names an account, that account's delay —
 * the same account the sign-in form and POST /login count. oidc-provider answers inside middie,
 * before any Fastify route, so this is middleware too.
 */
export function tokenEndpointThrottle(idp: {
  provider: Provider;
  accounts: AccountService;
  throttle: SignInThrottle;
}) {
  async function emailOfCode(request: IncomingMessage): Promise<string | null> {
    const form = await readForm(request);
    if (form?.grant_type !== 'authorization_code' || typeof form.code !== 'string') return null;
    const code = await idp.provider.AuthorizationCode.find(form.code).catch(() => undefined);
    const account = code?.accountId ? await idp.accounts.findById(code.accountId) : null;
    return account?.email ?? null;
  }

  async function guard(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const limit = await idp.throttle.address('idp-token', clientIp(request));
    if (!limit.allowed) {
      refuse(
        response,
        limit.retryAfterSeconds,
        `Too many token requests. Try again in ${limit.retryAfterSeconds} seconds.`,
      );
      return false;
    }
    const email = await emailOfCode(request);
    if (email === null) return true;
    const turn = await idp.throttle.account(email);
    if (!turn.allowed) {
      refuse(response, turn.retryAfterSeconds, accountWaitMessage(turn.retryAfterSeconds));
      return false;
    }
    response.once('finish', () => {
      const outcome =
        response.statusCode === 200 ? idp.throttle.succeeded(email) : idp.throttle.failed(email);
      outcome.catch(() => undefined);
    });
    return true;
  }

  return (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
    if (request.method !== 'POST') return next();
    guard(request, response).then(
      (pass) => pass && next(),
      (error: unknown) => {
        if (!isDatabaseUnavailable(error)) return next(error);
        // As oidc-provider answers it (idp/index.ts): retryable.
        response.statusCode = 503;
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.setHeader('cache-control', 'no-store');
        response.setHeader('retry-after', String(retryAfterSeconds));
        response.end(
          JSON.stringify({
            error: 'temporarily_unavailable',
            error_description: databaseUnavailableMessage,
          }),
        );
      },
    );
  };
}
