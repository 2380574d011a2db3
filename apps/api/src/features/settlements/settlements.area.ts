import { area, type Area } from '../../platform/area.js';
import { settlementsRoutes } from './settlements.routes.js';

/** Settlement groups: the discount rules for paying early. */
export function settlementsArea(): Area {
  return area({}, async (app) => {
    await app.register(settlementsRoutes);
  });
}
