import middie from '@fastify/middie';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createAccountService, type AccountService } from './accounts.js';
import { createInvitationLink, type InvitationLinkInput } from './invitation-links.js';
import { loadIdentityProviderSecrets, publicKeySet } from './keys.js';
import { loginRoutes } from './login-routes.js';
import { deleteExpiredModels } from './model-adapter.js';
import { createProviderConfiguration } from './provider-config.js';
import { createRateLimiter } from './rate-limiter.js';

/** Where the provider is mounted; the issuer is `<PUBLIC_URL>/idp` (config.ts). */
export const identityProviderMountPath = '/idp';

const sweepIntervalMs = 10 * 60_000;

export type IdentityProviderLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface IdentityProvider {
  provider: Provider;
  accounts: AccountService;
  /** The public signing keys: the API verifies the provider's access tokens with them. */
  publicJwks(): Promise<JSONWebKeySet>;
  /** An invited user's single-use set-password link; makes the account when it is new. */
  invitationLink(input: InvitationLinkInput): Promise<string>;
  /** Stops the expired-row sweep; the database is the caller's to close. */
  close(): Promise<void>;
}

/**
 * The embedded OpenID provider (design §1 sign-in, §6): oidc-provider with our database adapter,
 * signing and cookie keys kept in idp_secrets, and accounts in idp_accounts.
 */
export async function createIdentityProvider(options: {
  config: Config;
  database: Database;
  logger: IdentityProviderLogger;
}): Promise<IdentityProvider> {
  const { config, database, logger } = options;
  const issuerPath = new URL(config.oidcIssuer).pathname;
  if (issuerPath !== identityProviderMountPath) {
    throw new Error(
      `The embedded identity provider needs PUBLIC_URL to be an origin without a path (issuer ${config.oidcIssuer}).`,
    );
  }
  const secrets = await loadIdentityProviderSecrets(database);
  const accounts = createAccountService(database);
  const provider = new Provider(
    config.oidcIssuer,
    createProviderConfiguration({ config, database, accounts, secrets }),
  );
  // Behind a TLS-terminating proxy, X-Forwarded-Proto decides whether cookies are Secure.
  provider.proxy = config.TRUST_PROXY;

  provider.on('server_error', (_ctx, error) =>
    logger.error({ err: error }, 'identity provider error'),
  );
  // Refused requests (bad redirect, reused code, wrong verifier) are worth a line, not an alarm.
  const refused = (event: string) => (_ctx: unknown, error: Error) =>
    logger.info(
      { event: `idp.${event}`, reason: error.message },
      'identity provider request refused',
    );
  provider.on('authorization.error', refused('authorization.error'));
  provider.on('grant.error', refused('grant.error'));
  provider.on('end_session.error', refused('end_session.error'));

  // Reads already ignore expired rows; the sweep only keeps idp_models small.
  let sweeping: Promise<unknown> = deleteExpiredModels(database);
  await sweeping;
  const sweep = setInterval(() => {
    sweeping = deleteExpiredModels(database).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not delete expired identity provider rows'),
    );
  }, sweepIntervalMs);
  sweep.unref();

  const jwks = publicKeySet(secrets.signingKeys);
  return {
    provider,
    accounts,
    publicJwks: async () => jwks,
    invitationLink: (input) => createInvitationLink(accounts, config, input),
    async close() {
      clearInterval(sweep);
      await sweeping;
    },
  };
}

function clientIp(request: IncomingMessage): string {
  // middie copies Fastify's request.ip (which honours trustProxy) onto the raw request.
  return (
    (request as IncomingMessage & { ip?: string }).ip ?? request.socket.remoteAddress ?? 'unknown'
  );
}

/**
 * Mounts the provider in Fastify: oidc-provider under /idp through middie, its token endpoint
 * behind a per-IP limit, and the sign-in pages under /idp-login as ordinary Fastify routes.
 */
export async function registerIdentityProvider(
  app: FastifyInstance,
  idp: IdentityProvider,
  config: Config,
): Promise<void> {
  if (!app.hasDecorator('use')) await app.register(middie);
  const windowMs = 60_000;
  const tokenLimiter = createRateLimiter({ max: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowMs });
  const loginLimiter = createRateLimiter({ max: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowMs });

  app.use(
    `${identityProviderMountPath}/token`,
    (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
      if (request.method !== 'POST') return next();
      const limit = tokenLimiter.hit(clientIp(request));
      if (limit.allowed) return next();
      response.statusCode = 429;
      response.setHeader('content-type', 'application/json; charset=utf-8');
      response.setHeader('cache-control', 'no-store');
      response.setHeader('retry-after', String(limit.retryAfterSeconds));
      response.end(
        JSON.stringify({
          error: 'too_many_requests',
          error_description: `Too many token requests. Try again in ${limit.retryAfterSeconds} seconds.`,
        }),
      );
    },
  );
  app.use(identityProviderMountPath, idp.provider.callback());
  await app.register(loginRoutes, {
    provider: idp.provider,
    accounts: idp.accounts,
    config,
    limiter: loginLimiter,
  });
}
