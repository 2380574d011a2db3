import { area, type AppContext, type Area } from '../../platform/area.js';
import { fundingRoutes } from './funding.routes.js';

/** Funding: Capitalise's funding search, behind its feature flag. */
export function fundingArea(ctx: AppContext): Area {
  const { config } = ctx;
  return area({}, async (app) => {
    await app.register(fundingRoutes, {
      flags: ctx.flags,
      capitalise: { url: config.CAPITALISE_URL, introducerKey: config.CAPITALISE_INTRODUCER_KEY },
    });
  });
}
