import type { JSONWebKeySet } from 'jose';
import { area, type AppContext, type Area } from '../../platform/area.js';
import { createSignInThrottle } from '../../platform/sign-in-throttle.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
import { createTokenVerifier } from './token-verifier.js';

/** Sign-in and sign-out: the identity provider's tokens exchanged for a session. */
export function authArea(
  ctx: AppContext,
  needs: { localJwks?: () => Promise<JSONWebKeySet> },
): Area {
  const { config, database, sessions } = ctx;
  const verifyToken = createTokenVerifier({
    issuer: config.oidcIssuer,
    audience: config.oidcAudience,
    localJwks: needs.localJwks,
  });
  return area({}, async (app) => {
    await app.register(authRoutes, {
      auth: createAuthService({ database, verifyToken, sessions }),
      sessions,
      database,
      cookieSecure: config.cookieSecure,
      framed: config.frameAncestors.length > 0,
      sessionHours: config.SESSION_ABSOLUTE_HOURS,
      publicUrl: config.publicUrl,
      throttle: createSignInThrottle(database, {
        perAddressPerMinute: config.RATE_LIMIT_LOGIN_PER_MINUTE,
      }),
    });
  });
}
