import { area, type Area } from '../../platform/area.js';
import { reportsRoutes } from './reports.routes.js';

/** Reports: aged receivables. */
export function reportsArea(): Area {
  return area({}, async (app) => {
    await app.register(reportsRoutes);
  });
}
