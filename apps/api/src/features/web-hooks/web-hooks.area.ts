import { area, type AppContext, type Area } from '../../platform/area.js';
import { ownAddressesOf } from './safe-http.js';
import { createSvixClient } from './svix-client.js';
import { createWebHookDelivery } from './web-hooks.delivery.js';
import { createWebHooksRepository } from './web-hooks.repository.js';
import { webHooksRoutes } from './web-hooks.routes.js';
import { createWebHooksService } from './web-hooks.service.js';

export interface WebHooksLends {
  /** Asks the delivery to look for new events now (after a commit that wrote some). */
  nudge: () => Promise<void>;
}

/** Outgoing web hooks: through Svix when SVIX_TOKEN is set, else delivered here. */
export function webHooksArea(ctx: AppContext): Area<WebHooksLends> {
  const { config, secrets } = ctx;
  const svix = config.SVIX_TOKEN
    ? createSvixClient({
        token: config.SVIX_TOKEN,
        serverUrl: config.SVIX_SERVER_URL,
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
      })
    : null;
  const delivery = createWebHookDelivery({
    database: ctx.database,
    jobs: ctx.jobs,
    secrets,
    mailer: ctx.mailer,
    svix,
    publicUrl: config.publicUrl,
    log: ctx.log,
    options: {
      retrySeconds: config.WEBHOOK_RETRY_SECONDS.split(',').map(Number),
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      allowedPorts: config.webhookAllowedPorts ?? undefined,
      ownAddresses: ownAddressesOf(config.publicUrl),
      disableAfterHours: config.WEBHOOK_DISABLE_AFTER_HOURS,
    },
  });
  const nudge = () => delivery.nudge();
  return area({ nudge }, async (app) => {
    app.addHook('onReady', () => delivery.register());
    app.addHook('onClose', async () => delivery.stop());
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
      nudge,
    });
  });
}
