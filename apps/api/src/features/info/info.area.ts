import { area, type AppContext, type Area } from '../../platform/area.js';
import { infoRoutes } from './info.routes.js';

/** Info: what the site needs before sign-in (its links, the sign-in settings, the flags). */
export function infoArea(ctx: AppContext): Area {
  const { config } = ctx;
  return area({}, async (app) => {
    await app.register(infoRoutes, {
      flags: ctx.flags,
      site: {
        termsOfServiceUrl: config.TERMS_OF_SERVICE_URL ?? null,
        privacyPolicyUrl: config.PRIVACY_POLICY_URL ?? null,
        clientReports: config.CLIENT_REPORTS,
      },
      signIn: {
        issuer: config.oidcIssuer,
        clientId: config.OIDC_CLIENT_ID,
        scope: config.OIDC_SCOPE,
        resource: config.embeddedIdp ? config.oidcAudience : null,
      },
    });
  });
}
