import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import { randomUUID } from 'node:crypto';
import { fastifyTrustProxy, type Config } from './config.js';
import type { Database } from './db/client.js';
import { webDistFolder } from './paths.js';
import type { Area } from './platform/area.js';
import { registerPlatform } from './platform/foundation.js';
import { registerHealth } from './platform/health.js';
import { createLogger } from './platform/logger.js';
import type { Mailer } from './platform/mail.js';
import type { SecretBox } from './platform/secrets.js';
import { registerSite } from './platform/site.js';
import type { CheckoutAdapter } from './providers/checkout.js';
import * as areas from './areas.js';

/** The embedded identity provider as the app sees it (src/idp). */
export interface MountableIdentityProvider {
  publicJwks(): Promise<JSONWebKeySet>;
  register(app: FastifyInstance): Promise<void>;
  /** A one-time set-password link for an invited user, landing on redirectUri afterwards. */
  invitationLink(input: { email: string; name: string; redirectUri: string }): Promise<string>;
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  identityProvider?: MountableIdentityProvider;
  /** The process's pino logger (platform/logger.ts createLogger); by default the app makes one at LOG_LEVEL. */
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** Defaults to SMTP_URL, else the .eml mail drop under DATA_DIR/mail. */
  mailer?: Mailer;
  /** The built site; defaults to apps/web/dist when it exists. */
  webRoot?: string | null;
  /** Seals provider credentials; defaults to SECRETS_KEY, else the data folder's key file. */
  secrets?: SecretBox;
  /** The payer page's checkout adapters; defaults to createCheckoutAdapters(config). */
  checkouts?: CheckoutAdapter[];
}

/** The platform (src/platform), then every area's plugin (decision 167), then the site. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database, identityProvider } = options;
  const app = Fastify({
    // Request lines without query values or secret path segments (platform/logger.ts).
    loggerInstance: options.loggerInstance ?? createLogger(config.LOG_LEVEL),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
  });
  const siteRoot = options.webRoot === undefined ? webDistFolder : options.webRoot;
  const ctx = await registerPlatform(app, { ...options, siteRoot, openApi: areas.openApiExtras });

  // Areas that lend services come first; each takes only what it needs of the ones before it.
  const notifications = areas.notificationsArea(ctx);
  const webHooks = areas.webHooksArea(ctx);
  const requests = areas.paymentRequestsArea(ctx, { webHooks });
  const providers = areas.paymentProvidersArea(ctx);
  const transactions = areas.transactionsArea(ctx);
  const paymentRequests = requests.service;
  const pay = areas.payArea(ctx, {
    providers,
    notifications: notifications.payments,
    paymentRequests,
  });
  const needs = {
    notifications: notifications.payments,
    webHooks,
    paymentRequests,
    providers,
    pay,
  };

  registerHealth(app, database);
  // The order the OpenAPI document lists their calls in.
  const inOrder: Area[] = [
    areas.infoArea(ctx),
    areas.clientReportsArea(ctx),
    areas.authArea(ctx, { localJwks: identityProvider && (() => identityProvider.publicJwks()) }),
    areas.usersArea(ctx, {
      invitationLink: identityProvider && ((input) => identityProvider.invitationLink(input)),
    }),
    areas.datasetsArea(ctx, { providers, copiers: [transactions.copyCustomHostId] }),
    areas.tenantSettingsArea(),
    areas.paymentTransactionsArea(ctx, needs),
    areas.activitiesArea(ctx),
    areas.disputesArea(),
    areas.banksArea(),
    areas.accountsArea(),
    transactions,
    requests,
    areas.settlementsArea(),
    areas.remindersArea(ctx),
    areas.latePaymentsArea(),
    areas.moneyRulesArea(),
    providers,
    pay,
    areas.accessKeysArea(ctx),
    areas.companySettingsArea(),
    notifications,
    webHooks,
    areas.geoDataArea(),
    areas.dashboardArea(ctx),
    areas.reportsArea(),
    areas.statementsArea(ctx, needs),
    areas.fundingArea(ctx),
  ];
  for (const area of inOrder) await app.register(area.plugin);

  if (identityProvider) await identityProvider.register(app);
  await registerSite(app, config, siteRoot, pay.page);
  return app;
}
