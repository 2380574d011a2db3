import { hasPermissions, type FeatureFlags, type Permission } from '@ledgerline/contract';
import { isFlagOn } from './feature-flags';

/**
 * What a route, menu entry or control needs (spec 1 §2.1, §2.2, §6):
 * - one permission, or a list that requires all of them;
 * - `{ anyOf }`: any one of them (the payment providers menu entry);
 * - a function of the feature flags (access keys: ManageAccessKeys or ManageSubscriptionKeys
 *   depending on NewAccessKeyPage).
 */
export type PermissionRule =
  | Permission
  | readonly Permission[]
  | { readonly anyOf: readonly Permission[] }
  | ((flags: FeatureFlags) => PermissionRule | undefined);

/** spec 1 §6: with the PermissionPolicy flag off every check passes. */
export function checkPermission(
  rule: PermissionRule | undefined,
  granted: readonly string[],
  flags: FeatureFlags,
): boolean {
  const policy = isFlagOn(flags, 'PermissionPolicy');
  if (rule === undefined) return true;
  if (typeof rule === 'function') return checkPermission(rule(flags), granted, flags);
  if (typeof rule === 'object' && 'anyOf' in rule) {
    return !policy || rule.anyOf.some((permission) => hasPermissions(granted, permission, policy));
  }
  return hasPermissions(granted, rule, policy);
}
