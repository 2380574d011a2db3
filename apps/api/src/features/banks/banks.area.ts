import { area, type Area } from '../../platform/area.js';
import { banksRoutes } from './banks.routes.js';

/** Banks: the company's bank accounts. */
export function banksArea(): Area {
  return area({}, async (app) => {
    await app.register(banksRoutes);
  });
}
