import { area, type AppContext, type Area } from '../../platform/area.js';
import { dashboardRoutes } from './dashboard.routes.js';

/** The dashboard's figures. */
export function dashboardArea(ctx: AppContext): Area {
  return area({}, async (app) => {
    await app.register(dashboardRoutes, { flags: ctx.flags });
  });
}
