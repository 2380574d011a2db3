import type { TenantSettingName } from '@ledgerline/contract';
import { getCompanyId } from './storage';

type ListParams = Record<string, unknown>;

/**
 * Keys of one area, in the Medusa query-key-factory style: `all()` invalidates everything of the
 * area, `lists()` every list, `detail(id)` one record.
 */
function keysUnder<const Prefix extends readonly unknown[]>(all: () => Prefix) {
  return {
    all,
    lists: () => [...all(), 'list'] as const,
    list: (params: ListParams = {}) => [...all(), 'list', params] as const,
    details: () => [...all(), 'detail'] as const,
    detail: (id: string | number) => [...all(), 'detail', id] as const,
  };
}

/** An area of the tenant (users, companies). */
export function tenantQueryKeys<const Area extends string>(area: Area) {
  return keysUnder(() => [area] as const);
}

/** An area of the current company: keys lead with the company id, so companies never share data. */
export function companyQueryKeys<const Area extends string>(area: Area) {
  return keysUnder(() => ['company', getCompanyId(), area] as const);
}

const users = tenantQueryKeys('users');
const datasets = tenantQueryKeys('datasets');

export const queryKeys = {
  info: {
    signIn: () => ['info', 'sign-in'] as const,
    site: () => ['info', 'site'] as const,
    featureFlags: (target: string) => ['info', 'feature-flags', target] as const,
    oidcDiscovery: (issuer: string) => ['info', 'oidc-discovery', issuer] as const,
  },
  users: { ...users, me: () => [...users.all(), 'me'] as const },
  datasets: {
    ...datasets,
    exists: (id: number) => [...datasets.all(), 'exists', id] as const,
  },
  tenantSettings: {
    all: () => ['tenant-settings'] as const,
    detail: (name: TenantSettingName) => ['tenant-settings', name] as const,
  },
};
