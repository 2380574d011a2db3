import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { CheckoutAdapter } from '../providers/checkout.js';
import type { AppContext } from './area.js';
import { registerAudit } from './audit.js';
import { registerAuth } from './auth.js';
import { siteSecurityHeaders } from './content-security.js';
import { createFeatureFlags } from './feature-flags.js';
import { idempotencyPurgeJob, purgeExpiredIdempotencyKeys } from './idempotency.js';
import { createJobs } from './jobs.js';
import { createMailer, type Mailer } from './mail.js';
import { registerMetrics } from './metrics.js';
import { registerOpenApi } from './openapi-document.js';
import { problem, registerProblemHandlers } from './problems.js';
import { registerReadRouting } from './read-routing.js';
import { registerRequestLog } from './request-log.js';
import { createSecretBox, describeSecretsKey, loadSecretsKey, type SecretBox } from './secrets.js';
import { registerSecurityHeaders } from './security-headers.js';
import { responseSerializerCompiler } from './serializer.js';
import { createSessionStore } from './sessions.js';

/** SECRETS_KEY or the embedded key file, announced at start (design §5). */
function openSecretBox(config: Config, app: FastifyInstance): SecretBox {
  const source = loadSecretsKey(config);
  const line = describeSecretsKey(source);
  if (source.created) app.log.warn(line);
  else app.log.info(line);
  return createSecretBox(source.key);
}

/**
 * What every request passes through before an area's route (validation, problems, headers,
 * cookies, rate limits, the OpenAPI document, metrics, read routing, sign-in, audit, request logs) and the shared
 * services the areas are made with. The job queues start before any area registers its own
 * (on ready, the app's hooks run before its plugins') and stop after every area's (on close, last).
 */
export async function registerPlatform(
  app: FastifyInstance,
  options: {
    config: Config;
    database: Database;
    siteRoot: string | null;
    mailer?: Mailer;
    secrets?: SecretBox;
    checkouts?: CheckoutAdapter[];
    /** What the OpenAPI document says beside the routes (the web hook events Ledgerline sends). */
    openApi: Parameters<typeof registerOpenApi>[1];
  },
): Promise<AppContext> {
  const { config, database } = options;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerProblemHandlers(app);
  registerSecurityHeaders(app, siteSecurityHeaders(config, options.siteRoot));
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      ...problem(429, `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`),
      statusCode: 429,
    }),
  });
  await registerOpenApi(app, options.openApi);
  const metrics = registerMetrics(app, {
    token: config.METRICS_TOKEN,
    listener: config.METRICS_PORT
      ? { host: config.METRICS_HOST, port: config.METRICS_PORT }
      : undefined,
  });
  // Before authentication's hook: every request's reads run in a read route.
  registerReadRouting(app, database, { cookieSecure: config.cookieSecure, registry: metrics });
  const sessions = createSessionStore(database, {
    idleMinutes: config.SESSION_IDLE_MINUTES,
    absoluteHours: config.SESSION_ABSOLUTE_HOURS,
  });
  const framed = config.frameAncestors.length > 0;
  const flags = createFeatureFlags(database, config.featureFlagDefaults);
  registerAuth(app, { database, sessions, cookieSecure: config.cookieSecure, framed, flags });
  registerAudit(app, database);
  registerRequestLog(app);

  const jobs = createJobs(database, app.log);
  app.addHook('onReady', async () => {
    await jobs.start();
    await jobs.work(idempotencyPurgeJob, async () => {
      const purged = await purgeExpiredIdempotencyKeys(database);
      app.log.info({ purged }, 'expired idempotency keys purged');
    });
    await jobs.schedule(idempotencyPurgeJob, '17 * * * *');
  });
  app.addHook('onClose', () => jobs.stop());
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      dataDir: config.DATA_DIR,
      log: app.log,
    });
  const secrets = options.secrets ?? openSecretBox(config, app);
  return {
    config,
    database,
    log: app.log,
    jobs,
    mailer,
    secrets,
    flags,
    sessions,
    metrics,
    checkouts: options.checkouts,
  };
}
