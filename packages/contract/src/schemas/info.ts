import { z } from 'zod';

export const featureFlagsQuery = z.object({ target: z.string().max(50).optional() });
export const featureFlagsResponse = z
  .object({ featureFlags: z.record(z.string(), z.boolean()) })
  .meta({ id: 'FeatureFlags' });
export type FeatureFlags = z.infer<typeof featureFlagsResponse>['featureFlags'];

/** How the site signs in (not in the spec: the site needs the provider's address and client id). */
export const signInConfigResponse = z
  .object({
    issuer: z.string(),
    clientId: z.string(),
    scope: z.string(),
    resource: z.string().nullable(),
    redirectPath: z.string(),
    postLogoutRedirectPath: z.string(),
  })
  .meta({ id: 'SignInConfig' });
export type SignInConfig = z.infer<typeof signInConfigResponse>;

export const tenantSettingResponse = z
  .object({ name: z.string(), value: z.enum(['true', 'false']) })
  .meta({ id: 'TenantSetting' });

export const loginBody = z.object({ accessToken: z.string().min(1).max(16384) });

/**
 * `GET /api/v0/invitations/accept`: the link an invitation mails when users sign in at an external
 * identity provider; its token is the single-use proof the first sign-in brings.
 */
export const invitationAcceptQuery = z.object({
  token: z.string({ message: 'The invitation link is incomplete.' }).min(20).max(200),
});

/**
 * What the site needs to know of this installation: where the
 * operator's terms of service and privacy policy live (null: none configured, the user menu
 * leaves the item out), and whether the site reports its errors and web vitals.
 */
export const siteInfoResponse = z
  .object({
    termsOfServiceUrl: z.string().nullable(),
    privacyPolicyUrl: z.string().nullable(),
    clientReports: z.boolean(),
  })
  .meta({ id: 'SiteInfo' });
export type SiteInfo = z.infer<typeof siteInfoResponse>;
