import { area, type AppContext, type Area } from '../../platform/area.js';
import { createAccessKeysRepository } from './access-keys.repository.js';
import { accessKeysRoutes } from './access-keys.routes.js';
import { createAccessKeysService } from './access-keys.service.js';

/** Access keys: the machine clients' bearer keys. */
export function accessKeysArea(ctx: AppContext): Area {
  return area({}, async (app) => {
    await app.register(accessKeysRoutes, {
      keys: createAccessKeysService({
        repository: createAccessKeysRepository(),
        maximum: ctx.config.ACCESS_KEY_MAXIMUM,
      }),
    });
  });
}
