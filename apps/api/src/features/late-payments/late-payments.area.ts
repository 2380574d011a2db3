import { area, type Area } from '../../platform/area.js';
import { latePaymentsRoutes } from './late-payments.routes.js';

/** Late payments: interest and compensation rules. */
export function latePaymentsArea(): Area {
  return area({}, async (app) => {
    await app.register(latePaymentsRoutes);
  });
}
