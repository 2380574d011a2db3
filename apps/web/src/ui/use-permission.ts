import type { Permission } from '@ledgerline/contract';
import { useCurrentUser } from '@/auth/api/get-me';
import { useFeatureFlags } from '@/lib/feature-flags';
import { checkPermission, type PermissionRule } from '@/lib/permissions';

/** Whether the signed-in user may do what `rule` needs (spec 1 §6), for disabling controls. */
export function usePermission(rule: PermissionRule | undefined): boolean {
  const flags = useFeatureFlags();
  const { data: user } = useCurrentUser();
  return checkPermission(rule, user?.permissions ?? [], flags);
}

/**
 * Whether the server grants the signed-in user `permission`, whatever the PermissionPolicy flag
 * says: the server always enforces (design §3), so a link to a page that needs the permission is
 * only worth showing to those who hold it.
 */
export function useGrantedByServer(permission: Permission): boolean {
  const { data: user } = useCurrentUser();
  return user?.permissions.includes(permission) ?? false;
}
