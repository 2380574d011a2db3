import { useCurrentUser } from '@/auth/api/get-me';
import { useFeatureFlags } from '@/lib/feature-flags';
import { checkPermission, type PermissionRule } from '@/lib/permissions';

/** Whether the signed-in user may do what `rule` needs (spec 1 §6), for disabling controls. */
export function usePermission(rule: PermissionRule | undefined): boolean {
  const flags = useFeatureFlags();
  const { data: user } = useCurrentUser();
  return checkPermission(rule, user?.permissions ?? [], flags);
}
