import type { FeatureFlagName } from '../enums.js';
import { paymentProviderType } from './payment-provider-types.js';

/** What a route behind a feature flag answers while the flag is off (the site's own words). */
const featureOffMessages: Record<FeatureFlagName, string> = {
  PermissionPolicy: 'This feature is not enabled for this site.',
  NewAccessKeyPage: 'This feature is not enabled for this site.',
  OpayoPi: 'Opayo Pi is not enabled for this site.',
  Capitalise: 'Funding search is not enabled for this site.',
  settlementConfigurations: 'Settlement configurations are not enabled for this site.',
  paymentPlans: 'Payment plans are not available yet.',
};

/**
 * What the server answers when a feature flag, a tenant setting or the
 * company's type withholds a feature (docs/decisions/101-feature-flags-and-tenant-settings-are-checked-by.md, "Feature flags and tenant settings are
 * checked by the server"). A provider kind refused in a body is a 422 on `providerName` (the
 * form shows it inline); a route whose feature is off answers 404.
 */
export const featureGateMessages = {
  /** A kind whose `<Name>Provider` flag is off. */
  providerSwitchedOff: (providerName: string) =>
    `${paymentProviderType(providerName)?.displayName ?? providerName} is not available on this installation. Choose another payment provider.`,
  /** A beta kind while the tenant setting ShowBetaPaymentProviders is not 'true'. */
  providerBeta: (providerName: string) =>
    `${paymentProviderType(providerName)?.displayName ?? providerName} is in beta and not enabled on your site. Contact us to become a beta site.`,
  /** A test-only kind (the Sandbox) outside a demo company. */
  testProviderOutsideDemo: (providerName: string) =>
    `${paymentProviderType(providerName)?.displayName ?? providerName} moves no money, so it can only be used in a demo company.`,
  /** Opayo's integrated form while the OpayoPi flag is off (spec 3 §3: offered only when flagged). */
  opayoPiOff:
    'Opayo Pi (the integrated card form) is not available on this installation. Choose Server.',
  /** A route whose feature flag is off (404). */
  featureOff: (flag: FeatureFlagName) => featureOffMessages[flag],
} as const;
