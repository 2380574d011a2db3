import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors, type InteractionResults } from 'oidc-provider';
import { z } from 'zod';
import type { Config } from '../config.js';
import { PasswordPolicyError, type AccountService } from './accounts.js';
import { loginCss, logoutScript } from './login-assets.js';
import {
  invalidCredentialsMessage,
  loginBasePath,
  loginCssPath,
  loginPage,
  logoutScriptPath,
  messagePage,
  setPasswordPage,
  setPasswordPath,
} from './login-pages.js';
import { safeRedirect } from './site-origins.js';
import { accountWaitMessage, type SignInThrottle } from '../platform/sign-in-throttle.js';

export interface LoginRoutesOptions {
  provider: Provider;
  accounts: AccountService;
  config: Config;
  /** Password submissions (sign-in and set-password) per address; sign-ins per account too. */
  throttle: SignInThrottle;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** oidc-provider's interaction ids are nanoids. */
const uidPattern = /^[A-Za-z0-9_-]{1,64}$/;

const loginForm = z.object({
  email: z.string().trim().max(500).catch(''),
  password: z.string().catch(''),
});

const setPasswordQuery = z.object({
  token: z.string().max(200).catch(''),
  redirect: z.string().max(2000).optional().catch(undefined),
});

const setPasswordForm = setPasswordQuery.extend({
  password: z.string().catch(''),
  confirm: z.string().catch(''),
});

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(page);
}

/**
 * The interaction pages of the embedded provider (sign-in and first-party consent) and the
 * set-password page of invitations, at /idp-login. A Fastify route, not Koa middleware: middie
 * hands every path under /idp to oidc-provider, so these live beside it.
 */
export async function loginRoutes(
  app: FastifyInstance,
  options: LoginRoutesOptions,
): Promise<void> {
  const { provider, accounts, config, throttle } = options;
  const siteUrl = `${config.publicUrl}/`;
  // Scoped to this plugin: the rest of the API takes JSON only.
  await app.register(formbody);

  const expiredPage = (reply: FastifyReply) =>
    sendPage(
      reply,
      400,
      messagePage({
        title: 'Sign-in expired',
        message: 'This sign-in page has expired. Go back to Ledgerline to sign in again.',
        link: { href: siteUrl, label: 'Back to Ledgerline' },
      }),
    );

  const tooManyAttempts = (
    reply: FastifyReply,
    retryAfterSeconds: number,
    message = `Too many attempts from this address. Try again in ${retryAfterSeconds} seconds.`,
  ) =>
    sendPage(
      reply.header('retry-after', String(retryAfterSeconds)),
      429,
      messagePage({ title: 'Too many attempts', message }),
    );

  /** The interaction of this page's uid, or null when its cookie or record is gone. */
  async function interactionOf(
    request: FastifyRequest<{ Params: { uid: string } }>,
    reply: FastifyReply,
  ) {
    if (!uidPattern.test(request.params.uid)) return null;
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(request.raw, reply.raw);
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return null;
      throw error;
    }
    // Only our own client is first party; there is no other, but never consent for one silently.
    if (
      interaction.uid !== request.params.uid ||
      interaction.params.client_id !== config.OIDC_CLIENT_ID
    ) {
      return null;
    }
    return interaction;
  }

  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    result: InteractionResults,
    mergeWithLastSubmission: boolean,
  ) {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission,
    });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  /**
   * Ledgerline's site is our own client: consent is granted without asking, creating the Grant
   * the way oidc-provider's docs show for first-party applications.
   */
  async function grantConsent(
    request: FastifyRequest,
    reply: FastifyReply,
    interaction: Interaction,
  ) {
    const { details } = interaction.prompt;
    const accountId = interaction.session?.accountId;
    if (!accountId) return finish(request, reply, { error: 'login_required' }, false);
    const grant =
      (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId: config.OIDC_CLIENT_ID });
    const missingScope = details.missingOIDCScope as string[] | undefined;
    const missingClaims = details.missingOIDCClaims as string[] | undefined;
    const missingResourceScopes = details.missingResourceScopes as
      Record<string, string[]> | undefined;
    if (missingScope) grant.addOIDCScope(missingScope.join(' '));
    if (missingClaims) grant.addOIDCClaims(missingClaims);
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    const consent = interaction.grantId ? {} : { grantId };
    return finish(request, reply, { consent }, true);
  }

  app.get(loginCssPath, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(loginCss),
  );
  app.get(logoutScriptPath, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(logoutScript),
  );

  app.get<{ Params: { uid: string } }>(
    `${loginBasePath}/:uid`,
    { schema: { hide: true } },
    async (request, reply) => {
      const interaction = await interactionOf(request, reply);
      if (!interaction) return expiredPage(reply);
      switch (interaction.prompt.name) {
        case 'login': {
          const hint = interaction.params.login_hint;
          return sendPage(
            reply,
            200,
            loginPage({
              action: `${loginBasePath}/${interaction.uid}`,
              email: typeof hint === 'string' ? hint : '',
            }),
          );
        }
        case 'consent':
          return grantConsent(request, reply, interaction);
        default:
          return finish(
            request,
            reply,
            {
              error: 'access_denied',
              error_description: `Unsupported prompt ${interaction.prompt.name}.`,
            },
            false,
          );
      }
    },
  );

  app.post<{ Params: { uid: string } }>(
    `${loginBasePath}/:uid`,
    { schema: { hide: true } },
    async (request, reply) => {
      const limit = await throttle.address('idp-login', request.ip);
      if (!limit.allowed) return tooManyAttempts(reply, limit.retryAfterSeconds);
      const interaction = await interactionOf(request, reply);
      if (!interaction) return expiredPage(reply);
      // A resubmitted form after the login step: the page itself knows what comes next.
      if (interaction.prompt.name !== 'login')
        return reply.redirect(`${loginBasePath}/${interaction.uid}`, 303);

      const form = loginForm.parse(request.body ?? {});
      // A growing delay per account, whatever address the attempts come from.
      const turn = await throttle.account(form.email);
      if (!turn.allowed) {
        request.log.warn({ event: 'idp.sign_in_delayed' }, 'identity provider sign-in delayed');
        return tooManyAttempts(
          reply,
          turn.retryAfterSeconds,
          accountWaitMessage(turn.retryAfterSeconds),
        );
      }
      const account = await accounts.verifyPassword(form.email, form.password);
      if (!account) {
        await throttle.failed(form.email);
        request.log.warn({ event: 'idp.sign_in_failed' }, 'identity provider sign-in failed');
        return sendPage(
          reply,
          401,
          loginPage({
            action: `${loginBasePath}/${interaction.uid}`,
            email: form.email,
            error: invalidCredentialsMessage,
          }),
        );
      }
      await throttle.succeeded(form.email);
      request.log.info(
        { event: 'idp.sign_in', accountId: account.id },
        'identity provider sign-in',
      );
      return finish(request, reply, { login: { accountId: account.id } }, false);
    },
  );

  app.get(setPasswordPath, { schema: { hide: true } }, async (request, reply) => {
    const query = setPasswordQuery.parse(request.query ?? {});
    const account = query.token ? await accounts.peekSetPasswordToken(query.token) : null;
    if (!account) return linkExpiredPage(reply, siteUrl);
    return sendPage(
      reply,
      200,
      setPasswordPage({
        action: setPasswordPath,
        email: account.email,
        token: query.token,
        redirect: safeRedirect(query.redirect, config),
      }),
    );
  });

  app.post(setPasswordPath, { schema: { hide: true } }, async (request, reply) => {
    const limit = await throttle.address('idp-login', request.ip);
    if (!limit.allowed) return tooManyAttempts(reply, limit.retryAfterSeconds);
    const form = setPasswordForm.parse(request.body ?? {});
    const redirect = safeRedirect(form.redirect, config);
    const account = form.token ? await accounts.peekSetPasswordToken(form.token) : null;
    if (!account) return linkExpiredPage(reply, siteUrl);

    const again = (error: string) =>
      sendPage(
        reply,
        400,
        setPasswordPage({
          action: setPasswordPath,
          email: account.email,
          token: form.token,
          redirect,
          error,
        }),
      );
    if (form.password !== form.confirm) return again('The passwords do not match.');
    try {
      const updated = await accounts.consumeSetPasswordToken(form.token, form.password);
      if (!updated) return linkExpiredPage(reply, siteUrl);
    } catch (error) {
      if (error instanceof PasswordPolicyError) return again(error.message);
      throw error;
    }
    request.log.info(
      { event: 'idp.password_set', accountId: account.id },
      'identity provider password set',
    );
    return reply.header('cache-control', 'no-store').redirect(redirect, 303);
  });
}

function linkExpiredPage(reply: FastifyReply, siteUrl: string): FastifyReply {
  return sendPage(
    reply,
    410,
    messagePage({
      title: 'Link expired',
      message:
        'This link has expired or has already been used. Ask your administrator for a new one.',
      link: { href: siteUrl, label: 'Go to Ledgerline' },
    }),
  );
}
