import { area, type AppContext, type Area } from '../../platform/area.js';
import { clientReportsRoutes } from './client-reports.routes.js';

/** Client reports: the site's own error and timing reports, when CLIENT_REPORTS is on. */
export function clientReportsArea(ctx: AppContext): Area {
  const { config } = ctx;
  return area({}, async (app) => {
    if (!config.CLIENT_REPORTS) return;
    await app.register(clientReportsRoutes, {
      registry: ctx.metrics,
      perMinute: config.CLIENT_REPORTS_PER_MINUTE,
      forward: config.CLIENT_REPORTS_FORWARD_URL
        ? { url: config.CLIENT_REPORTS_FORWARD_URL, key: config.CLIENT_REPORTS_FORWARD_KEY }
        : undefined,
    });
  });
}
