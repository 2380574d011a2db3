import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { JSONWebKeySet } from 'jose';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { fastifyTrustProxy, type Config } from './config.js';
import type { Database } from './db/client.js';
import { webDistFolder } from './paths.js';
import { inlineScriptSources } from './platform/inline-scripts.js';
import { payPageHosts, registerPayPage } from './platform/pay-page.js';
import { registerAudit } from './platform/audit.js';
import { registerAuth } from './platform/auth.js';
import { createFeatureFlags } from './platform/feature-flags.js';
import { createLogger } from './platform/logger.js';
import { registerMetrics } from './platform/metrics.js';
import { registerReadRouting } from './platform/read-routing.js';
import { clientReportsRoutes } from './features/client-reports/client-reports.routes.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import {
  problem,
  registerProblemHandlers,
  sendProblem,
  sendProblemWithRetry,
} from './platform/problems.js';
import { responseSerializerCompiler } from './platform/serializer.js';
import { createSessionStore } from './platform/sessions.js';
import { accessKeysRoutes } from './features/access-keys/access-keys.routes.js';
import { createAccessKeysRepository } from './features/access-keys/access-keys.repository.js';
import { createAccessKeysService } from './features/access-keys/access-keys.service.js';
import { activitiesRoutes } from './features/activities/activities.routes.js';
import { createActivitiesRepository } from './features/activities/activities.repository.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { createAuthService } from './features/auth/auth.service.js';
import { createInvitationProofs } from './features/auth/invitation-proof.js';
import { createTokenVerifier } from './features/auth/token-verifier.js';
import { datasetsRoutes } from './features/datasets/datasets.routes.js';
import { createDatasetsRepository } from './features/datasets/datasets.repository.js';
import { createDatasetLifecycle } from './features/datasets/datasets.jobs.js';
import { createDatasetsService } from './features/datasets/datasets.service.js';
import { configurationCopiers } from './features/datasets/copy-configuration.js';
import { refillDemoCompany } from './features/datasets/demo-data.js';
import { createDemoSandbox } from './features/payment-providers/demo-sandbox.js';
import { createJobs } from './platform/jobs.js';
import { createSignInThrottle } from './platform/sign-in-throttle.js';
import { infoRoutes } from './features/info/info.routes.js';
import { tenantSettingsRoutes } from './features/tenant-settings/tenant-settings.routes.js';
import { createUsersRepository } from './features/users/users.repository.js';
import { usersRoutes } from './features/users/users.routes.js';
import { usersAdminRoutes } from './features/users/users-admin.routes.js';
import { createUsersAdminService } from './features/users/users-admin.service.js';
import { createInvitations } from './features/users/users-invitations.js';
import { createMailer, type Mailer } from './platform/mail.js';
import { idempotencyPurgeJob, purgeExpiredIdempotencyKeys } from './platform/idempotency.js';
import { withConnectorExamples } from './platform/openapi-examples.js';
import { createPaymentTransactionsRepository } from './features/payment-transactions/payment-transactions.repository.js';
import { paymentTransactionsRoutes } from './features/payment-transactions/payment-transactions.routes.js';
import { createPendingPayments } from './features/payment-transactions/payment-transactions.pending.js';
import { createRefunds } from './features/payment-transactions/payment-transactions.refunds.js';
import { createReservations } from './features/payment-transactions/payment-transactions.reservations.js';
import { createProviderRegistry } from './providers/adapter.js';
import { createUsersService } from './features/users/users.service.js';
import { createCustomHostIdRebuild } from './features/transactions/custom-host-id.jobs.js';
import { createCustomHostIdRepository } from './features/transactions/custom-host-id.repository.js';
import { paymentProvidersRoutes } from './features/payment-providers/payment-providers.routes.js';
import { createPaymentProvidersRepository } from './features/payment-providers/payment-providers.repository.js';
import { createPaymentProvidersService } from './features/payment-providers/payment-providers.service.js';
import { providerConnectionsRoutes } from './features/payment-providers/provider-connections.routes.js';
import { createProviderConnections } from './features/payment-providers/provider-connections.service.js';
import { createPaymentProviderEventsRepository } from './features/payment-providers/payment-provider-events.repository.js';
import { paymentProviderEventsRoutes } from './features/payment-providers/payment-provider-events.routes.js';
import { createPaymentProviderEventsService } from './features/payment-providers/payment-provider-events.service.js';
import { createPaymentAdapters, createProviderClients } from './providers/clients.js';
import { createOutgoingIp } from './providers/opayo/outgoing-ip.js';
import {
  createSecretBox,
  describeSecretsKey,
  loadSecretsKey,
  type SecretBox,
} from './platform/secrets.js';
import { companySettingsRoutes } from './features/company-settings/company-settings.routes.js';
import { createCompanySettingsRepository } from './features/company-settings/company-settings.repository.js';
import { createCompanySettingsService } from './features/company-settings/company-settings.service.js';
import { notificationsRoutes } from './features/notifications/notifications.routes.js';
import { createNotificationsRepository } from './features/notifications/notifications.repository.js';
import { createNotificationsService } from './features/notifications/notifications.service.js';
import { createPaymentNotifications } from './features/notifications/notifications.mail.js';
import { geoDataRoutes } from './features/geo-data/geo-data.routes.js';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.js';
import { createPaymentRequestsRepository } from './features/payment-requests/payment-requests.repository.js';
import { createPaymentRequestsService } from './features/payment-requests/payment-requests.service.js';
import { createPaymentRequestMails } from './features/payment-requests/payment-requests.mail.js';
import { createPaymentRequestExpiry } from './features/payment-requests/payment-requests.expiry.js';
import { createSvixClient } from './features/web-hooks/svix-client.js';
import { ownAddressesOf } from './features/web-hooks/safe-http.js';
import { createWebHookDelivery } from './features/web-hooks/web-hooks.delivery.js';
import { withWebHooks } from './features/web-hooks/web-hooks.openapi.js';
import { createWebHooksRepository } from './features/web-hooks/web-hooks.repository.js';
import { webHooksRoutes } from './features/web-hooks/web-hooks.routes.js';
import { remindersRoutes } from './features/reminders/reminders.routes.js';
import { createReminders } from './features/reminders/reminders.service.js';
import { issueStatementLink } from './features/statements/statement-links.js';
import { createWebHooksService } from './features/web-hooks/web-hooks.service.js';
import { fundingRoutes } from './features/funding/funding.routes.js';
import { createCheckoutRegistry, type CheckoutAdapter } from './providers/checkout.js';
import { createCheckoutAdapters } from './providers/checkouts.js';
import { createPayRepository } from './features/pay/pay.repository.js';
import { createProviderGates } from './features/payment-providers/provider-gates.js';
import { createPayService } from './features/pay/pay.service.js';
import { payRoutes } from './features/pay/pay.routes.js';
import { statementsRoutes } from './features/statements/statements.routes.js';
import { createStatementsService } from './features/statements/statements.service.js';
import { createPayReceipts } from './features/pay/pay.receipt.js';
import { createProviderNotifications } from './features/pay/provider-notifications.js';
import { createSettlement } from './features/pay/settle.js';
import { createMoneyBack } from './features/pay/money-back.js';
import { webhooksRoutes } from './features/pay/webhooks.routes.js';
import { recordWebhookEvents } from './features/web-hooks/web-hook-events.js';

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

const defaultWebRoot = webDistFolder;

/** SECRETS_KEY or the embedded key file, announced at start (design §5). */
function openSecretBox(config: Config, app: FastifyInstance): SecretBox {
  const source = loadSecretsKey(config);
  const line = describeSecretsKey(source);
  if (source.created) app.log.warn(line);
  else app.log.info(line);
  return createSecretBox(source.key);
}

/**
 * Files under /assets/ carry a content hash in their names, so a browser keeps them for a year
 * without asking again; everything else (index.html, which names the current hashes, and the
 * favicon) is revalidated on every use.
 */
export function siteCacheControl(url: string): string {
  return url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    // Request lines without query values or secret path segments (platform/logger.ts).
    loggerInstance: options.loggerInstance ?? createLogger(config.LOG_LEVEL),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerProblemHandlers(app);

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  const siteRoot = options.webRoot === undefined ? defaultWebRoot : options.webRoot;
  const issuerOrigin = new URL(config.oidcIssuer).origin;
  const extraOrigins = config.OIDC_EXTRA_ORIGINS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The site's own files, and the boot script written into index.html by the build.
        scriptSrc: ["'self'", ...(siteRoot ? inlineScriptSources(`${siteRoot}/index.html`) : [])],
        // Mantine sets CSS variables through style attributes and <style> elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", issuerOrigin],
        formAction: ["'self'", issuerOrigin, ...extraOrigins],
        // spec 3 §2 embedded view: only the parent sites an operator lists (FRAME_ANCESTORS).
        frameAncestors: ["'self'", ...config.frameAncestors],
        // The document viewer frames a PDF the site fetched as a blob: URL (issue 10 item 3); the
        // web hooks page frames Svix's app portal when Svix's cloud delivers (issue 15); the
        // Funding page frames Capitalise's funding search, that host alone.
        frameSrc: [
          "'self'",
          'blob:',
          ...(config.SVIX_TOKEN && !config.SVIX_SERVER_URL ? ['https://app.svix.com'] : []),
          ...(config.CAPITALISE_INTRODUCER_KEY ? [new URL(config.CAPITALISE_URL).origin] : []),
        ],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    // X-Frame-Options can name no other origin: with FRAME_ANCESTORS it is left out and the
    // CSP's frame-ancestors (which browsers prefer anyway) decides alone.
    frameguard: config.frameAncestors.length > 0 ? false : { action: 'sameorigin' },
    strictTransportSecurity: config.cookieSecure,
  });
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      ...problem(429, `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`),
      statusCode: 429,
    }),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ledgerline API',
        version: 'v0',
        description:
          'The API behind the Ledgerline site and for ERP connectors. Browser clients use the session ' +
          'cookie and the X-XSRF-TOKEN header; machine clients send `Authorization: Bearer <access key>`. ' +
          'Company-scoped calls take the `Dataset-Id` header. Errors are RFC 9457 problem documents.',
      },
      components: {
        securitySchemes: {
          accessKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An access key from Settings › Access Keys',
          },
          session: { type: 'apiKey', in: 'cookie', name: 'ledgerline_session' },
        },
      },
      security: [{ accessKey: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
    // The components the paths' $refs name (every schema with a meta id), with the connector examples.
    // and the webhooks section: the events Ledgerline sends (issue 15).
    transformObject: (document) =>
      withWebHooks(withConnectorExamples(jsonSchemaTransformObject(document))),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get(
    '/api/v0/openapi.json',
    { config: { access: 'none' }, schema: { hide: true } },
    async () => app.swagger(),
  );

  const metricsRegistry = registerMetrics(app, {
    token: config.METRICS_TOKEN,
    listener: config.METRICS_PORT
      ? { host: config.METRICS_HOST, port: config.METRICS_PORT }
      : undefined,
  });
  // Before authentication's hook: every request's reads run in a read route (issue 25).
  registerReadRouting(app, database, {
    cookieSecure: config.cookieSecure,
    registry: metricsRegistry,
  });

  const sessions = createSessionStore(database, {
    idleMinutes: config.SESSION_IDLE_MINUTES,
    absoluteHours: config.SESSION_ABSOLUTE_HOURS,
  });
  const framed = config.frameAncestors.length > 0;
  const flags = createFeatureFlags(database, config.featureFlagDefaults);
  registerAuth(app, { database, sessions, cookieSecure: config.cookieSecure, framed, flags });
  registerAudit(app, database);

  app.addHook('preHandler', async (request) => {
    if (request.principal) {
      request.log = request.log.child({
        tenantId: request.principal.tenantId,
        datasetId: request.datasetId ?? undefined,
        userId: request.principal.userId ?? undefined,
        accessKeyId: request.principal.accessKeyId ?? undefined,
      });
    }
  });

  app.get(
    '/api/health',
    {
      config: { access: 'none' },
      schema: { tags: ['info'], summary: 'Liveness and database check' },
    },
    async (_request, reply) => {
      try {
        // A connection lost without a word (a network drop) would leave the check waiting.
        await withinSeconds(healthCheckSeconds, database.db.execute(sql`select 1`));
        return { status: 'Healthy', database: 'ok' };
      } catch (error) {
        app.log.error({ err: error }, 'health check failed');
        return sendProblemWithRetry(reply, problem(503, 'The database is not reachable.'));
      }
    },
  );

  const verifyToken = createTokenVerifier({
    issuer: config.oidcIssuer,
    audience: config.oidcAudience,
    localJwks: options.identityProvider ? () => options.identityProvider!.publicJwks() : undefined,
  });

  await app.register(infoRoutes, {
    flags,
    site: {
      termsOfServiceUrl: config.TERMS_OF_SERVICE_URL ?? null,
      privacyPolicyUrl: config.PRIVACY_POLICY_URL ?? null,
      clientReports: config.CLIENT_REPORTS,
    },
    signIn: {
      issuer: config.oidcIssuer,
      clientId: config.OIDC_CLIENT_ID,
      scope: config.OIDC_SCOPE,
      resource: config.embeddedIdp ? config.oidcAudience : null,
    },
  });
  if (config.CLIENT_REPORTS) {
    await app.register(clientReportsRoutes, {
      registry: metricsRegistry,
      perMinute: config.CLIENT_REPORTS_PER_MINUTE,
      forward: config.CLIENT_REPORTS_FORWARD_URL
        ? { url: config.CLIENT_REPORTS_FORWARD_URL, key: config.CLIENT_REPORTS_FORWARD_KEY }
        : undefined,
    });
  }
  await app.register(authRoutes, {
    auth: createAuthService({ database, verifyToken, sessions }),
    sessions,
    database,
    cookieSecure: config.cookieSecure,
    framed,
    sessionHours: config.SESSION_ABSOLUTE_HOURS,
    publicUrl: config.publicUrl,
    throttle: createSignInThrottle(database, {
      perAddressPerMinute: config.RATE_LIMIT_LOGIN_PER_MINUTE,
    }),
  });
  const jobs = createJobs(database, app.log);
  const usersRepository = createUsersRepository();
  await app.register(usersRoutes, { users: createUsersService({ repository: usersRepository }) });
  const usersAdmin = createUsersAdminService({ repository: usersRepository, database });
  const identityProvider = options.identityProvider;
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      dataDir: config.DATA_DIR,
      log: app.log,
    });
  const paymentNotifications = createPaymentNotifications({
    database,
    jobs,
    mailer,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  // Issue 23: reminder runs and their mail outbox; each mail carries a new statement link of its
  // account (the statements feature), issued in the run's transaction.
  const reminders = createReminders({
    database,
    jobs,
    mailer,
    statementLink: (tx, scope, accountId) =>
      issueStatementLink(
        tx,
        { tenantId: scope.tenantId, datasetId: String(scope.datasetId) },
        accountId,
        config.publicUrl,
      ),
    log: app.log,
  });
  const invitationProofs = createInvitationProofs({ database, publicUrl: config.publicUrl });
  const invitations = createInvitations({
    jobs,
    users: usersAdmin,
    mailer,
    // With an external provider the link carries the single-use proof the invited user's first
    // sign-in must bring (issue 20 item 6); the embedded one mails its set-password link.
    links: {
      link: async (input) =>
        identityProvider ? identityProvider.invitationLink(input) : invitationProofs.link(input),
    },
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const secrets = options.secrets ?? openSecretBox(config, app);
  // Issue 15: outgoing web hooks, through Svix when SVIX_TOKEN is set, else delivered here.
  const svix = config.SVIX_TOKEN
    ? createSvixClient({
        token: config.SVIX_TOKEN,
        serverUrl: config.SVIX_SERVER_URL,
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
      })
    : null;
  const webHookDelivery = createWebHookDelivery({
    database,
    jobs,
    secrets,
    mailer,
    svix,
    publicUrl: config.publicUrl,
    log: app.log,
    options: {
      retrySeconds: config.WEBHOOK_RETRY_SECONDS.split(',').map(Number),
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      allowedPorts: config.webhookAllowedPorts ?? undefined,
      ownAddresses: ownAddressesOf(config.publicUrl),
      disableAfterHours: config.WEBHOOK_DISABLE_AFTER_HOURS,
    },
  });
  const paymentRequests = createPaymentRequestsService({
    repository: createPaymentRequestsRepository(),
    publicUrl: config.publicUrl,
    holdMinutes: config.PAY_ATTEMPT_HOLD_MINUTES,
  });
  const paymentRequestExpiry = createPaymentRequestExpiry({
    database,
    jobs,
    service: paymentRequests,
    log: app.log,
    afterExpired: () => webHookDelivery.nudge(),
  });
  const datasetsRepository = createDatasetsRepository();
  const paymentProvidersRepository = createPaymentProvidersRepository();
  // Issue 21: a demo company comes with the Sandbox, its default, which its payments name.
  const ensureDemoSandbox = createDemoSandbox({ repository: paymentProvidersRepository, secrets });
  const customHostIdRepository = createCustomHostIdRepository();
  const customHostIdRebuild = createCustomHostIdRebuild({
    database,
    jobs,
    repository: customHostIdRepository,
    log: app.log,
  });
  const datasetLifecycle = createDatasetLifecycle({
    database,
    jobs,
    repository: datasetsRepository,
    log: app.log,
    demoData: [
      async (tx, scope) => refillDemoCompany(tx, scope, await ensureDemoSandbox(tx, scope)),
    ],
  });
  app.addHook('onReady', async () => {
    await jobs.start();
    await datasetLifecycle.register();
    await invitations.register();
    await paymentNotifications.register();
    await datasetLifecycle.resume();
    await customHostIdRebuild.register();
    await customHostIdRebuild.resume();
    await jobs.work(idempotencyPurgeJob, async () => {
      const purged = await purgeExpiredIdempotencyKeys(database);
      app.log.info({ purged }, 'expired idempotency keys purged');
    });
    await jobs.schedule(idempotencyPurgeJob, '17 * * * *');
    await webHookDelivery.register();
    await paymentRequestExpiry.register();
    await reminders.register();
  });
  app.addHook('onClose', async () => {
    webHookDelivery.stop();
    await jobs.stop();
  });
  await app.register(datasetsRoutes, {
    repository: datasetsRepository,
    service: createDatasetsService({
      repository: datasetsRepository,
      copiers: [...configurationCopiers, (tx, scope) => customHostIdRepository.copy(tx, scope)],
    }),
    lifecycle: datasetLifecycle,
  });
  await app.register(usersAdminRoutes, { users: usersAdmin, invitations, sessions });
  await app.register(tenantSettingsRoutes);
  const providerGates = createProviderGates(config.featureFlagDefaults);
  const paymentProviders = createPaymentProvidersService({
    repository: paymentProvidersRepository,
    secrets,
    gates: providerGates,
  });
  const paymentTransactionsRepository = createPaymentTransactionsRepository();
  const payRepository = createPayRepository({ offered: providerGates.offeredCondition() });
  const paymentAdapters = createProviderRegistry(createPaymentAdapters(config));
  const providerSecretOf = async (
    tx: Parameters<typeof payRepository.sealedSecret>[0],
    scope: { tenantId: string; datasetId: number },
    id: string,
  ) => {
    const sealed = await payRepository.sealedSecret(tx, scope, id);
    return sealed ? secrets.open(sealed) : null;
  };
  // Issue 19: the reservations queue and the job that cancels those past their authorisation window.
  const reservations = createReservations({
    database,
    repository: paymentTransactionsRepository,
    log: app.log,
    jobs,
    requestPayload: (tx, scope, id) => paymentRequests.get(tx, scope, id, false),
    onExpired: (scope, paymentTransactionId) =>
      paymentNotifications.paymentStatusChanged(scope, {
        paymentTransactionId,
        status: 'Cancelled',
        from: 'Pending',
      }),
    afterExpired: () => webHookDelivery.nudge(),
  });
  app.addHook('onReady', () => reservations.register());
  await app.register(paymentTransactionsRoutes, {
    reservations,
    repository: paymentTransactionsRepository,
    // Issue 19: refunds through the payment's provider.
    refunds: createRefunds({
      repository: paymentTransactionsRepository,
      providers: paymentAdapters,
      configurations: (tx, scope, id) => paymentProviders.configurationFor(tx, scope, id),
      providerSecret: providerSecretOf,
    }),
    withTenant: (tenantId, fn) => database.withTenant(tenantId, fn),
    pending: createPendingPayments({
      repository: paymentTransactionsRepository,
      providers: paymentAdapters,
      configurations: (tx, scope, id) => paymentProviders.configurationFor(tx, scope, id),
      // A payer-page payment's own provider secret (Opayo Server's SecurityKey), in clear for the call.
      providerSecret: async (tx, scope, id) => {
        const sealed = await payRepository.sealedSecret(tx, scope, id);
        return sealed ? secrets.open(sealed) : null;
      },
      requestPayload: (tx, scope, id) => paymentRequests.get(tx, scope, id, false),
      onStatusChanged: (scope, change) =>
        paymentNotifications.paymentStatusChanged(scope, { ...change, from: 'Pending' }),
    }),
    exports: {
      copyOut: database.copyOutAsTenant,
      limits: {
        deadlineSeconds: config.EXPORT_DEADLINE_SECONDS,
        minBytesPerSecond: config.EXPORT_MIN_BYTES_PER_SECOND,
        windowSeconds: config.EXPORT_THROUGHPUT_WINDOW_SECONDS,
        perTenant: config.EXPORTS_PER_TENANT,
        spoolDir: config.EXPORT_SPOOL_DIR,
      },
    },
  });
  await app.register(activitiesRoutes, { repository: createActivitiesRepository(), database });
  await app.register(import('./features/disputes/disputes.routes.js'));
  await app.register(import('./features/banks/banks.routes.js'));
  await app.register(import('./features/accounts/accounts.routes.js'));
  await app.register(import('./features/transactions/transactions.routes.js'), {
    customHostIdRebuild,
  });
  const requestMails = createPaymentRequestMails({ database, jobs, mailer, log: app.log });
  await app.register(import('./features/payment-requests/payment-requests.routes.js'), {
    publicUrl: config.publicUrl,
    paymentRequests,
    requestMails,
  });
  // Issue 11 money rules: settlement groups, late payments, their defaults and the quotes.
  await app.register(import('./features/settlements/settlements.routes.js'));
  await app.register(remindersRoutes, { reminders });
  await app.register(import('./features/late-payments/late-payments.routes.js'));
  await app.register(import('./features/company-settings/company-preferences.routes.js'));
  await app.register(import('./features/money-rules/money-rules.routes.js'));
  // Issue 12: the configurations' own provider exchanges, kept as their provider events.
  const paymentProviderEvents = createPaymentProviderEventsRepository();
  const providerConnections = createProviderConnections({
    providers: paymentProviders,
    repository: paymentProvidersRepository,
    events: paymentProviderEvents,
    ...createProviderClients(config),
    publicUrl: config.publicUrl,
    opayoServerIp: createOutgoingIp({
      configured: config.OPAYO_SERVER_IP,
      lookupUrl: config.OPAYO_IP_LOOKUP_URL,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  });
  await app.register(paymentProvidersRoutes, {
    providers: paymentProviders,
    connections: providerConnections,
    database,
  });
  // Issue 14, the payer page's calls and the providers' notifications (features/pay).
  const checkouts = createCheckoutRegistry(options.checkouts ?? createCheckoutAdapters(config));
  const payReceipts = createPayReceipts({
    database,
    jobs,
    mailer,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const settlement = createSettlement({
    database,
    log: app.log,
    notify: (scope, changes) => paymentNotifications.paymentStatusesChanged(scope, changes),
    receipt: (scope, paymentTransactionId) => payReceipts.paymentPaid(scope, paymentTransactionId),
    // Issue 15: the merchant's systems hear of the move once its transaction commits.
    // The payloads of every move (a batch's round: docs/decisions/086-provider-notifications-are-settled-inline.md "Provider notifications are
    // settled inline") are read together, and the events written in one statement, each move's
    // payment event before its request's.
    recordEvents: async (tx, scope, moves) => {
      const [payments, requests] = await Promise.all([
        paymentTransactionsRepository.findManyWithDetails(
          tx,
          scope,
          moves.flatMap((move) => (move.eventType ? [move.paymentTransactionId] : [])),
        ),
        paymentRequests.getMany(
          tx,
          scope,
          moves.flatMap((move) => (move.completedRequestId ? [move.completedRequestId] : [])),
          false,
        ),
      ]);
      await recordWebhookEvents(
        tx,
        scope,
        moves.flatMap((move) => [
          ...(move.eventType
            ? [
                {
                  type: move.eventType,
                  recordType: 'PaymentTransaction',
                  recordId: move.paymentTransactionId,
                  payload: payments.get(move.paymentTransactionId)!,
                },
              ]
            : []),
          ...(move.completedRequestId
            ? [
                {
                  type: 'payment-request.completed' as const,
                  recordType: 'PaymentRequest',
                  recordId: move.completedRequestId,
                  payload: requests.get(move.completedRequestId)!,
                },
              ]
            : []),
        ]),
      );
    },
  });
  const payConfigurations = paymentProviders.credentialsFor;
  const providerNotifications = createProviderNotifications({
    database,
    jobs,
    repository: payRepository,
    checkouts,
    withCredentials: paymentProviders.withCredentials,
    settlement,
    moneyBack: createMoneyBack({
      database,
      log: app.log,
      notify: (scope, changes) => paymentNotifications.paymentStatusesChanged(scope, changes),
    }),
    secrets,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const payService = createPayService({
    database,
    repository: payRepository,
    checkouts,
    configurations: payConfigurations,
    settlement,
    secrets,
    publicUrl: config.publicUrl,
    holdMinutes: config.PAY_ATTEMPT_HOLD_MINUTES,
    log: app.log,
  });
  await app.register(payRoutes, { pay: payService, perMinute: config.RATE_LIMIT_PAY_PER_MINUTE });
  await app.register(webhooksRoutes, {
    notifications: providerNotifications,
    publicUrl: config.publicUrl,
    perMinute: config.RATE_LIMIT_PAY_PER_MINUTE * 100,
  });
  app.addHook('onReady', async () => {
    await payReceipts.register();
    await requestMails.register();
    await providerNotifications.register();
  });
  // Settles under way in this process end before the database closes (the rest: their job).
  app.addHook('onClose', () => providerNotifications.stop());

  await app.register(providerConnectionsRoutes, { connections: providerConnections, database });
  await app.register(paymentProviderEventsRoutes, {
    events: createPaymentProviderEventsService({
      providers: paymentProvidersRepository,
      events: paymentProviderEvents,
    }),
  });
  await app.register(accessKeysRoutes, {
    keys: createAccessKeysService({
      repository: createAccessKeysRepository(),
      maximum: config.ACCESS_KEY_MAXIMUM,
    }),
  });

  await app.register(companySettingsRoutes, {
    service: createCompanySettingsService({ repository: createCompanySettingsRepository() }),
  });
  await app.register(notificationsRoutes, {
    service: createNotificationsService({ repository: createNotificationsRepository() }),
  });
  await app.register(webHooksRoutes, {
    service: createWebHooksService({
      repository: createWebHooksRepository(),
      secrets,
      svix: svix ? { client: svix, selfHosted: !!config.SVIX_SERVER_URL } : null,
      allowLoopbackHttp: config.NODE_ENV !== 'production',
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      allowedPorts: config.webhookAllowedPorts,
      publicUrl: config.publicUrl,
    }),
    nudge: () => webHookDelivery.nudge(),
  });
  await app.register(geoDataRoutes);
  await app.register(dashboardRoutes, { flags });
  // Issue 23: the aged receivables report.
  await app.register(import('./features/reports/reports.routes.js'));
  // Issue 23: account statements, paid through payment requests of their invoices.
  await app.register(statementsRoutes, {
    statements: createStatementsService({ database, payRepository, paymentRequests }),
    publicUrl: config.publicUrl,
    perMinute: config.RATE_LIMIT_PAY_PER_MINUTE,
  });
  await app.register(fundingRoutes, {
    flags,
    capitalise: { url: config.CAPITALISE_URL, introducerKey: config.CAPITALISE_INTRODUCER_KEY },
  });

  if (options.identityProvider) await options.identityProvider.register(app);

  const webRoot = siteRoot;
  const serveSite = webRoot !== null && existsSync(`${webRoot}/index.html`);
  if (serveSite) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (apps/web/vite.config.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply) => reply.header('cache-control', siteCacheControl(reply.request.url)),
    });
    // The payer page's own entry of the build (apps/web/pay.html), with its own headers.
    if (existsSync(`${webRoot}/pay.html`))
      registerPayPage(app, payPageHosts(config), inlineScriptSources(`${webRoot}/pay.html`), {
        document: `${webRoot}/pay.html`,
        page: (requestId) => payService.page(requestId),
        perMinute: config.RATE_LIMIT_PAY_PER_MINUTE,
      });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = /^\/(api|idp|metrics)(\/|$)/.test(path);
    if (serveSite && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      // The site's own router owns every other path, including its /error/404 page.
      return reply.header('cache-control', siteCacheControl('/index.html')).sendFile('index.html');
    }
    return sendProblem(reply, {
      ...problem(404, `No route ${request.method} ${path}.`),
      instance: path,
    });
  });

  return app;
}

const healthCheckSeconds = 3;

function withinSeconds<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${seconds} s.`)), seconds * 1000);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
