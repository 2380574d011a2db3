import middie from '@fastify/middie';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import Provider from 'oidc-provider';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createAccountService, type AccountService } from './accounts.js';
import { createInvitationLink, type InvitationLinkInput } from './invitation-links.js';
import { loadIdentityProviderSecrets, publicKeySet } from './keys.js';
import { loginRoutes } from './login-routes.js';
import { deleteExpiredModels } from './model-adapter.js';
import { createProviderConfiguration } from './provider-config.js';
import { tokenEndpointThrottle } from './token-throttle.js';
import { isDatabaseUnavailable, retryAfterSeconds } from '../db/unavailable.js';
import { databaseUnavailableMessage } from '../platform/problems.js';
import { createSignInThrottle, type SignInThrottle } from '../platform/sign-in-throttle.js';

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
  /** Sign-in attempts per address and per account, in the database (platform/sign-in-throttle.ts). */
  throttle: SignInThrottle;
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
  // Behind a TLS-terminating proxy, X-Forwarded-Proto decides whether cookies are Secure. Client
  // addresses come from Fastify (middie copies request.ip), which honours the hops or addresses.
  provider.proxy = config.trustProxy !== false;
  if (typeof config.trustProxy === 'number') provider.maxIpsCount = config.trustProxy;
  // COOKIE_SECURE=true says users reach the site over TLS: the provider's cookies are Secure
  // as the site's are, even when the TLS ends before this process (and SameSite=None needs it).
  if (config.cookieSecure)
    provider.use(async (ctx, next) => {
      // koa's ctx.secure (and so every Cookies instance oidc-provider makes) reads it.
      Object.defineProperty(ctx.request, 'secure', { value: true });
      await next();
    });

  provider.on('server_error', (ctx, error) => {
    // The database going away is retryable, as on the API (docs/decisions/030-the-database-going-away.md): 503 and
    // Retry-After instead of oidc-provider's 500; the page or JSON it rendered says so.
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error }, 'identity provider: the database is not reachable');
      ctx.status = 503;
      ctx.set('retry-after', String(retryAfterSeconds));
      if (!ctx.response.is('html')) {
        ctx.body = {
          error: 'temporarily_unavailable',
          error_description: databaseUnavailableMessage,
        };
      }
      return;
    }
    logger.error({ err: error }, 'identity provider error');
  });
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
    throttle: createSignInThrottle(database, {
      perAddressPerMinute: config.RATE_LIMIT_LOGIN_PER_MINUTE,
    }),
    publicJwks: async () => jwks,
    invitationLink: (input) => createInvitationLink(accounts, config, input),
    async close() {
      clearInterval(sweep);
      await sweeping;
    },
  };
}

/**
 * Mounts the provider in Fastify: oidc-provider under /idp through middie, its token endpoint
 * behind the sign-in throttles, and the sign-in pages under /idp-login as ordinary Fastify routes.
 */
export async function registerIdentityProvider(
  app: FastifyInstance,
  idp: IdentityProvider,
  config: Config,
): Promise<void> {
  if (!app.hasDecorator('use')) await app.register(middie);
  app.use(`${identityProviderMountPath}/token`, tokenEndpointThrottle(idp));
  app.use(identityProviderMountPath, idp.provider.callback());
  await app.register(loginRoutes, {
    provider: idp.provider,
    accounts: idp.accounts,
    config,
    throttle: idp.throttle,
  });
}
