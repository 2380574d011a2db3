import { area, type Area } from '../../platform/area.js';
import { disputesRoutes } from './disputes.routes.js';

/** Disputes: a payment's chargebacks, read and answered. */
export function disputesArea(): Area {
  return area({}, async (app) => {
    await app.register(disputesRoutes);
  });
}
