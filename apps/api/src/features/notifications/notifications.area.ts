import { area, type AppContext, type Area } from '../../platform/area.js';
import { createPaymentNotifications, type PaymentNotifications } from './notifications.mail.js';
import { createNotificationsRepository } from './notifications.repository.js';
import { notificationsRoutes } from './notifications.routes.js';
import { createNotificationsService } from './notifications.service.js';

/** Notifications: who is mailed about payments, and the mails themselves (lent to the payment areas). */
export function notificationsArea(ctx: AppContext): Area<{ payments: PaymentNotifications }> {
  const payments = createPaymentNotifications({
    database: ctx.database,
    jobs: ctx.jobs,
    mailer: ctx.mailer,
    publicUrl: ctx.config.publicUrl,
    log: ctx.log,
  });
  return area({ payments }, async (app) => {
    app.addHook('onReady', () => payments.register());
    await app.register(notificationsRoutes, {
      service: createNotificationsService({ repository: createNotificationsRepository() }),
    });
  });
}
