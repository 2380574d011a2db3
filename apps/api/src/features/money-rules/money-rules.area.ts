import { area, type Area } from '../../platform/area.js';
import { moneyRulesRoutes } from './money-rules.routes.js';

/** Money rules: their defaults and the quotes they make. */
export function moneyRulesArea(): Area {
  return area({}, async (app) => {
    await app.register(moneyRulesRoutes);
  });
}
