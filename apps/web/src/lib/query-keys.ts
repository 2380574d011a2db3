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

/**
 * The roots of the cache, typed once: every area of the tenant and of the current company whose
 * answers the cache keeps. A feature's keys come from its area's name here, so a misspelt root is
 * a type error, and a feature that reads another area's records (the payment providers' list for
 * the export dialog, an account's payment requests) uses that area's root, which that area's
 * changes invalidate.
 */
export const tenantAreas = [
  'access-keys',
  'activities',
  'datasets',
  'funding',
  'geo-data',
  'payment-provider-types',
  'subscription-keys',
  'users',
] as const;
export const companyAreas = [
  'accounts',
  'activities',
  'banks',
  'company-preferences',
  'company-settings',
  'custom-host-id',
  'dashboard',
  'disputes',
  'late-payments',
  'notifications',
  'payment-providers',
  'payment-request-settings',
  'payment-requests',
  'payment-transactions',
  'provider-events',
  'reminder-preview',
  'reminder-schedules',
  'reports',
  'settlements',
  'transactions',
  'web-hooks',
] as const;
export type TenantArea = (typeof tenantAreas)[number];
export type CompanyArea = (typeof companyAreas)[number];

/** An area of the tenant (users, companies). */
export function tenantQueryKeys<const Area extends TenantArea>(area: Area) {
  return keysUnder(() => [area] as const);
}

/** The root of every key of the current company (every area's keys lead with it). */
export const companyRootKey = () => ['company'] as const;

/** An area of the current company: keys lead with the company id, so companies never share data. */
export function companyQueryKeys<const Area extends CompanyArea>(area: Area) {
  return keysUnder(() => [...companyRootKey(), getCompanyId(), area] as const);
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
