import { area, type Area } from '../../platform/area.js';
import { tenantSettingsRoutes } from './tenant-settings.routes.js';

/** Tenant settings: what the tenant owner sets for every company. */
export function tenantSettingsArea(): Area {
  return area({}, async (app) => {
    await app.register(tenantSettingsRoutes);
  });
}
