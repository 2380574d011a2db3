import { tenantQueryKeys } from '@/lib/query-keys';

/**
 * spec 1 §2.8: access keys (NewAccessKeyPage flag on) and the older subscription keys have the
 * same set of calls under two paths.
 */
export type KeyKind = 'access' | 'subscription';

export const keyPaths: Record<KeyKind, string> = {
  access: '/access-keys',
  subscription: '/subscription-keys',
};

const accessKeys = tenantQueryKeys('access-keys');
const subscriptionKeys = tenantQueryKeys('subscription-keys');

export function keyQueryKeys(kind: KeyKind) {
  const keys = kind === 'access' ? accessKeys : subscriptionKeys;
  return {
    ...keys,
    count: () => [...keys.all(), 'count'] as const,
    maximum: () => [...keys.all(), 'maximum'] as const,
  };
}
