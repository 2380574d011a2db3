import { area, type AppContext, type Area } from '../../platform/area.js';
import { createActivitiesRepository } from './activities.repository.js';
import { activitiesRoutes } from './activities.routes.js';

/** Activities: the audit trail of who changed what. */
export function activitiesArea(ctx: AppContext): Area {
  return area({}, async (app) => {
    await app.register(activitiesRoutes, {
      repository: createActivitiesRepository(),
      database: ctx.database,
    });
  });
}
