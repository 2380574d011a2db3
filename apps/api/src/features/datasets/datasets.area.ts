import { area, type AppContext, type Area } from '../../platform/area.js';
import type { PaymentProvidersLends } from '../payment-providers/index.js';
import { configurationCopiers, type ConfigurationCopier } from './copy-configuration.repository.js';
import { createDatasetLifecycle } from './datasets.jobs.js';
import { createDatasetsRepository } from './datasets.repository.js';
import { datasetsRoutes } from './datasets.routes.js';
import { createDatasetsService } from './datasets.service.js';
import { refillDemoCompany } from './demo-data.js';

/** Companies (datasets): their lifecycle jobs, the copy of a company's configuration, demo data. */
export function datasetsArea(
  ctx: AppContext,
  needs: {
    providers: Pick<PaymentProvidersLends, 'ensureDemoSandbox'>;
    /** What other areas copy from the copy-from company (the transactions' custom host id). */
    copiers: ConfigurationCopier[];
  },
): Area {
  const repository = createDatasetsRepository();
  const lifecycle = createDatasetLifecycle({
    database: ctx.database,
    jobs: ctx.jobs,
    repository,
    log: ctx.log,
    // A demo company comes with the Sandbox, its default, which its payments name.
    demoData: [
      async (tx, scope) =>
        refillDemoCompany(tx, scope, await needs.providers.ensureDemoSandbox(tx, scope)),
    ],
  });
  return area({}, async (app) => {
    app.addHook('onReady', async () => {
      await lifecycle.register();
      await lifecycle.resume();
    });
    await app.register(datasetsRoutes, {
      repository,
      service: createDatasetsService({
        repository,
        copiers: [...configurationCopiers, ...needs.copiers],
      }),
      lifecycle,
    });
  });
}
