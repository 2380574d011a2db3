import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  featureFlagsQuery,
  featureFlagsResponse,
  signInConfigResponse,
  siteInfoResponse,
  type SiteInfo,
} from '@ledgerline/contract';
import type { FeatureFlagStore } from '../../platform/feature-flags.js';

export interface InfoRoutesOptions {
  flags: FeatureFlagStore;
  signIn: { issuer: string; clientId: string; scope: string; resource: string | null };
  site: SiteInfo;
}

export async function infoRoutes(app: FastifyInstance, options: InfoRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v0/info/feature-flags',
    {
      config: { access: 'none' },
      schema: {
        tags: ['info'],
        summary: 'Feature flags for a client (no sign-in needed)',
        querystring: featureFlagsQuery,
        response: { 200: featureFlagsResponse },
      },
    },
    async () => ({ featureFlags: await options.flags.all() }),
  );

  r.get(
    '/api/v0/info/sign-in',
    {
      config: { access: 'none' },
      schema: {
        tags: ['info'],
        summary: 'Where and how the site signs in (OpenID Connect with PKCE)',
        response: { 200: signInConfigResponse },
      },
    },
    async () => ({
      ...options.signIn,
      redirectPath: '/signin-callback',
      postLogoutRedirectPath: '/',
    }),
  );

  r.get(
    '/api/v0/info/site',
    {
      config: { access: 'none' },
      schema: {
        tags: ['info'],
        summary:
          "This installation's terms of service and privacy policy addresses, and whether the site reports errors and web vitals",
        response: { 200: siteInfoResponse },
      },
    },
    async () => options.site,
  );
}
