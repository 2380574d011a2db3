import { errors, type Configuration, type JWKS, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { AccountService } from './accounts.js';
import type { IdentityProviderSecrets } from './keys.js';
import { loginBasePath, logoutPage, messagePage } from './login-pages.js';
import { DatabaseModelAdapter } from './model-adapter.js';
import { siteOrigins } from './site-origins.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { databaseUnavailableMessage } from '../platform/problems.js';

/** The scopes the site asks for (config OIDC_SCOPE) and the only ones this provider knows. */
const supportedScope = 'openid profile email';

const hour = 3600;

function sendHtml(ctx: KoaContextWithOIDC, body: string): void {
  ctx.type = 'html';
  ctx.set('cache-control', 'no-store');
  ctx.body = body;
}

export interface ProviderConfigurationInput {
  config: Config;
  database: Database;
  accounts: AccountService;
  secrets: IdentityProviderSecrets;
}

/** oidc-provider's configuration for Ledgerline's one first-party, public client (spec 1 §4). */
export function createProviderConfiguration(input: ProviderConfigurationInput): Configuration {
  const { config, database, accounts, secrets } = input;
  const origins = siteOrigins(config);
  const siteUrl = `${config.publicUrl}/`;
  const clientId = config.OIDC_CLIENT_ID;
  // A sign-in inside a parent site's frame (FRAME_ANCESTORS) needs the provider's cookies too:
  // SameSite=None and Partitioned, like the site's (docs/decisions/069-a-framed-site-s-session.md, "A framed site's session").
  const sameSite =
    config.frameAncestors.length > 0
      ? { sameSite: 'none' as const, partitioned: true }
      : { sameSite: 'lax' as const };

  return {
    adapter: (model: string) => new DatabaseModelAdapter(database, model),
    jwks: secrets.signingKeys as JWKS,
    cookies: {
      keys: secrets.cookieKeys,
      // Our own names, so they cannot be mistaken for the site's cookies.
      names: { session: 'idp_session', interaction: 'idp_interaction', resume: 'idp_resume' },
      // The provider session is only ever read under the issuer's path; the API never sees it.
      long: { httpOnly: true, ...sameSite, path: new URL(config.oidcIssuer).pathname },
      short: { httpOnly: true, ...sameSite },
    },
    clients: [
      {
        client_id: clientId,
        client_name: 'Ledgerline',
        application_type: 'web',
        // A browser app keeps no secret: it proves possession with PKCE instead.
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: origins.map((origin) => `${origin}/signin-callback`),
        post_logout_redirect_uris: origins.map((origin) => `${origin}/`),
      },
    ],
    // v9 knows only S256; requiring it for every client refuses both plain and no PKCE.
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: supportedScope.split(' '),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    clientBasedCORS: (_ctx, origin) => origins.includes(origin),
    async findAccount(_ctx, sub) {
      const account = await accounts.findById(sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          // Accounts are made by an administrator's invitation to that address (docs/decisions/106-invited-users-bind-through-their-invitation.md).
          email_verified: true,
          name: account.name,
        }),
      };
    },
    // The API reads who is signing in from the access token alone (POST /login, design §6).
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await accounts.findById(token.accountId);
      // The address is the one the invitation was mailed to, proven by its set-password link.
      return account
        ? { email: account.email, email_verified: true, name: account.name }
        : undefined;
    },
    interactions: {
      // Under /idp middie gives every request to oidc-provider, so the pages live beside it,
      // served by Fastify routes (login-routes.ts).
      url: (_ctx, interaction) => `${loginBasePath}/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      // The access token is for the API, not for userinfo; the site never calls userinfo.
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => config.oidcAudience,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resourceIndicator, client) {
          if (resourceIndicator !== config.oidcAudience || client.clientId !== clientId) {
            throw new errors.InvalidTarget();
          }
          // A JWT the API verifies with this issuer's keys, like any external provider's (design §6).
          return {
            scope: supportedScope,
            audience: config.oidcAudience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: hour,
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          // No second click when the site proves it is signing out this very user: it sent the
          // ID token it received for the account signed in here (spec 1 §4 sign out). Anything
          // else (a link from elsewhere) gets the one-click confirmation.
          const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: string } } | undefined;
          const autoSubmit =
            hint?.payload?.sub !== undefined && hint.payload.sub === ctx.oidc.session?.accountId;
          sendHtml(ctx, logoutPage({ form, autoSubmit, siteUrl }));
        },
        postLogoutSuccessSource(ctx) {
          sendHtml(
            ctx,
            messagePage({
              title: 'Signed out',
              message: 'You have signed out of Ledgerline.',
              link: { href: siteUrl, label: 'Sign in again' },
            }),
          );
        },
      },
    },
    renderError(ctx, out, error) {
      sendHtml(
        ctx,
        messagePage({
          title: 'Sign-in problem',
          message: isDatabaseUnavailable(error)
            ? databaseUnavailableMessage
            : (out.error_description ?? out.error),
          link: { href: siteUrl, label: 'Back to Ledgerline' },
        }),
      );
    },
    ttl: {
      Interaction: hour,
      Session: 12 * hour,
      Grant: 12 * hour,
      AccessToken: hour,
      IdToken: hour,
      AuthorizationCode: 60,
    },
  };
}
