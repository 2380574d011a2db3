import { area, type AppContext, type Area } from '../../platform/area.js';
import type { PayLends } from '../pay/index.js';
import type { PaymentRequestsService } from '../payment-requests/index.js';
import { statementsRoutes } from './statements.routes.js';
import { createStatementsService } from './statements.service.js';

/** Account statements, paid through payment requests of their invoices. */
export function statementsArea(
  ctx: AppContext,
  needs: { pay: Pick<PayLends, 'repository'>; paymentRequests: PaymentRequestsService },
): Area {
  const { config } = ctx;
  return area({}, async (app) => {
    await app.register(statementsRoutes, {
      statements: createStatementsService({
        database: ctx.database,
        payRepository: needs.pay.repository,
        paymentRequests: needs.paymentRequests,
      }),
      publicUrl: config.publicUrl,
      perMinute: config.RATE_LIMIT_PAY_PER_MINUTE,
    });
  });
}
