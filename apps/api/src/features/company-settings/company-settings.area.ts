import { area, type Area } from '../../platform/area.js';
import { companyPreferencesRoutes } from './company-preferences.routes.js';
import { createCompanySettingsRepository } from './company-settings.repository.js';
import { companySettingsRoutes } from './company-settings.routes.js';
import { createCompanySettingsService } from './company-settings.service.js';

/** Company settings: the company's details and its preferences. */
export function companySettingsArea(): Area {
  return area({}, async (app) => {
    await app.register(companyPreferencesRoutes);
    await app.register(companySettingsRoutes, {
      service: createCompanySettingsService({ repository: createCompanySettingsRepository() }),
    });
  });
}
