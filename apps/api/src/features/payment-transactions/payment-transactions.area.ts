import { area, type AppContext, type Area } from '../../platform/area.js';
import { createProviderRegistry } from '../../providers/adapter.js';
import { createPaymentAdapters } from '../../providers/registry.js';
import type { PaymentNotifications } from '../notifications/index.js';
import type { PayLends } from '../pay/index.js';
import type { PaymentProvidersLends } from '../payment-providers/index.js';
import type { PaymentRequestsService } from '../payment-requests/index.js';
import type { WebHooksLends } from '../web-hooks/index.js';
import { createPendingPayments } from './payment-transactions.pending.js';
import { createRefunds } from './payment-transactions.refunds.js';
import { createPaymentTransactionsRepository } from './payment-transactions.repository.js';
import { createReservations } from './payment-transactions.reservations.js';
import { paymentTransactionsRoutes } from './payment-transactions.routes.js';

/**
 * Payment transactions: their calls, imports and exports; refunds and pending payments through
 * their provider; the reservations queue and the job that cancels those past their authorisation
 * window.
 */
export function paymentTransactionsArea(
  ctx: AppContext,
  needs: {
    notifications: PaymentNotifications;
    webHooks: Pick<WebHooksLends, 'nudge'>;
    paymentRequests: PaymentRequestsService;
    providers: Pick<PaymentProvidersLends, 'service'>;
    pay: Pick<PayLends, 'providerSecret'>;
  },
): Area {
  const { config, database } = ctx;
  const { notifications, paymentRequests, pay } = needs;
  const repository = createPaymentTransactionsRepository();
  const adapters = createProviderRegistry(createPaymentAdapters(config));
  const configurations = needs.providers.service.configurationFor;
  const requestPayload = (
    tx: Parameters<PaymentRequestsService['get']>[0],
    scope: Parameters<PaymentRequestsService['get']>[1],
    id: string,
  ) => paymentRequests.get(tx, scope, id, false);
  const reservations = createReservations({
    database,
    repository,
    log: ctx.log,
    jobs: ctx.jobs,
    requestPayload,
    onExpired: (scope, paymentTransactionId) =>
      notifications.paymentStatusChanged(scope, {
        paymentTransactionId,
        status: 'Cancelled',
        from: 'Pending',
      }),
    afterExpired: needs.webHooks.nudge,
  });
  return area({}, async (app) => {
    app.addHook('onReady', () => reservations.register());
    await app.register(paymentTransactionsRoutes, {
      reservations,
      repository,
      refunds: createRefunds({
        repository,
        providers: adapters,
        configurations,
        providerSecret: pay.providerSecret,
      }),
      withTenant: (tenantId, fn) => database.withTenant(tenantId, fn),
      pending: createPendingPayments({
        repository,
        providers: adapters,
        configurations,
        providerSecret: pay.providerSecret,
        requestPayload,
        onStatusChanged: (scope, change) =>
          notifications.paymentStatusChanged(scope, { ...change, from: 'Pending' }),
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
  });
}
