import { area, type AppContext, type Area } from '../../platform/area.js';
import { createCheckoutRegistry } from '../../providers/checkout.js';
import { createCheckoutAdapters } from '../../providers/registry.js';
import type { PaymentNotifications } from '../notifications/index.js';
import type { PaymentProvidersLends } from '../payment-providers/index.js';
import type { PaymentRequestsService } from '../payment-requests/index.js';
import { createPaymentTransactionsRepository } from '../payment-transactions/index.js';
import { createPaymentMoveEvents } from '../web-hooks/index.js';
import { createMoneyBack } from './money-back.js';
import { createPayReceipts } from './pay.receipt.js';
import { createPayRepository, type PayRepository } from './pay.repository.js';
import { payRoutes } from './pay.routes.js';
import { createPayService, type PayService } from './pay.service.js';
import { createProviderNotices } from './provider-notices.js';
import { createPaymentFinish } from './finish.js';
import { webhooksRoutes } from './webhooks.routes.js';

export interface PayLends {
  repository: PayRepository;
  /** A payer-page payment's own provider secret (Opayo Server's SecurityKey), in clear for a call. */
  providerSecret: (
    tx: Parameters<PayRepository['sealedSecret']>[0],
    scope: { tenantId: string; datasetId: number },
    id: string,
  ) => Promise<string | null>;
  /** An open request's page as the payer API answers it: the payer page's first HTML reads it. */
  page: PayService['page'];
}

/** What the pay area takes from the other areas. */
export interface PayNeeds {
  providers: Pick<PaymentProvidersLends, 'service' | 'gates'>;
  notifications: PaymentNotifications;
  paymentRequests: PaymentRequestsService;
}

/** The payer page's calls and the providers' notices that finish its payments. */
export function payArea(ctx: AppContext, needs: PayNeeds): Area<PayLends> {
  const { config, database, jobs, secrets, log } = ctx;
  const { notifications, providers } = needs;
  const repository = createPayRepository({ offered: providers.gates.offeredCondition() });
  const payments = createPaymentTransactionsRepository();
  const checkouts = createCheckoutRegistry(ctx.checkouts ?? createCheckoutAdapters(config));
  const receipts = createPayReceipts({
    database,
    jobs,
    mailer: ctx.mailer,
    publicUrl: config.publicUrl,
    log,
  });
  const finish = createPaymentFinish({
    database,
    log,
    notify: (scope, changes) => notifications.paymentStatusesChanged(scope, changes),
    receipt: (scope, paymentTransactionId) => receipts.paymentPaid(scope, paymentTransactionId),
    // The merchant's systems hear of a move once its transaction commits.
    recordEvents: createPaymentMoveEvents({
      payments: (tx, scope, ids) => payments.findManyWithDetails(tx, scope, ids),
      requests: (tx, scope, ids) => needs.paymentRequests.getMany(tx, scope, ids, false),
    }),
  });
  const providerNotices = createProviderNotices({
    database,
    jobs,
    repository,
    checkouts,
    withCredentials: providers.service.withCredentials,
    finish,
    moneyBack: createMoneyBack({
      database,
      log,
      notify: (scope, changes) => notifications.paymentStatusesChanged(scope, changes),
    }),
    secrets,
    publicUrl: config.publicUrl,
    log,
  });
  const providerSecret: PayLends['providerSecret'] = async (tx, scope, id) => {
    const sealed = await repository.sealedSecret(tx, scope, id);
    return sealed ? secrets.open(sealed) : null;
  };
  const payService = createPayService({
    database,
    repository,
    checkouts,
    configurations: providers.service.credentialsFor,
    finish,
    secrets,
    publicUrl: config.publicUrl,
    holdMinutes: config.PAY_ATTEMPT_HOLD_MINUTES,
    log,
  });
  const page: PayLends['page'] = (requestId) => payService.page(requestId);
  return area({ repository, providerSecret, page }, async (app) => {
    app.addHook('onReady', async () => {
      await receipts.register();
      await providerNotices.register();
    });
    // Drains under way in this process end before the database closes (the rest: their job).
    app.addHook('onClose', () => providerNotices.stop());
    await app.register(payRoutes, {
      pay: payService,
      perMinute: config.RATE_LIMIT_PAY_PER_MINUTE,
    });
    await app.register(webhooksRoutes, {
      notices: providerNotices,
      publicUrl: config.publicUrl,
      perMinute: config.RATE_LIMIT_PAY_PER_MINUTE * 100,
    });
  });
}
