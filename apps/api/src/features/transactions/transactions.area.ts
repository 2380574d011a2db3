import { area, type AppContext, type Area } from '../../platform/area.js';
import type { ConfigurationCopier } from '../datasets/index.js';
import { createCustomHostIdRebuild } from './custom-host-id.jobs.js';
import { createCustomHostIdRepository } from './custom-host-id.repository.js';
import { transactionsRoutes } from './transactions.routes.js';

/** Transactions: invoices and credits, their documents, and the custom host id rebuild. */
export function transactionsArea(ctx: AppContext): Area<{ copyCustomHostId: ConfigurationCopier }> {
  const repository = createCustomHostIdRepository();
  const customHostIdRebuild = createCustomHostIdRebuild({
    database: ctx.database,
    jobs: ctx.jobs,
    repository,
    log: ctx.log,
  });
  const copyCustomHostId: ConfigurationCopier = (tx, scope) => repository.copy(tx, scope);
  return area({ copyCustomHostId }, async (app) => {
    app.addHook('onReady', async () => {
      await customHostIdRebuild.register();
      await customHostIdRebuild.resume();
    });
    await app.register(transactionsRoutes, { customHostIdRebuild });
  });
}
