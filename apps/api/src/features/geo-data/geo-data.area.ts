import { area, type Area } from '../../platform/area.js';
import { geoDataRoutes } from './geo-data.routes.js';

/** Geo data: countries, currencies and the to-do counts. */
export function geoDataArea(): Area {
  return area({}, async (app) => {
    await app.register(geoDataRoutes);
  });
}
