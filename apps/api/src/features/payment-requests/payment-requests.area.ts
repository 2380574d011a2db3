import { area, type AppContext, type Area } from '../../platform/area.js';
import type { WebHooksLends } from '../web-hooks/index.js';
import { createPaymentRequestExpiry } from './payment-requests.expiry.js';
import { createPaymentRequestMails } from './payment-requests.mail.js';
import { createPaymentRequestsRepository } from './payment-requests.repository.js';
import { paymentRequestsRoutes } from './payment-requests.routes.js';
import {
  createPaymentRequestsService,
  type PaymentRequestsService,
} from './payment-requests.service.js';

/** Payment requests: their calls, the mails of their links, and their expiry. */
export function paymentRequestsArea(
  ctx: AppContext,
  needs: { webHooks: Pick<WebHooksLends, 'nudge'> },
): Area<{ service: PaymentRequestsService }> {
  const { config, database, jobs } = ctx;
  const service = createPaymentRequestsService({
    repository: createPaymentRequestsRepository(),
    publicUrl: config.publicUrl,
    holdMinutes: config.PAY_ATTEMPT_HOLD_MINUTES,
  });
  const expiry = createPaymentRequestExpiry({
    database,
    jobs,
    service,
    log: ctx.log,
    afterExpired: needs.webHooks.nudge,
  });
  const requestMails = createPaymentRequestMails({
    database,
    jobs,
    mailer: ctx.mailer,
    log: ctx.log,
  });
  return area({ service }, async (app) => {
    app.addHook('onReady', async () => {
      await expiry.register();
      await requestMails.register();
    });
    await app.register(paymentRequestsRoutes, {
      publicUrl: config.publicUrl,
      paymentRequests: service,
      requestMails,
    });
  });
}
