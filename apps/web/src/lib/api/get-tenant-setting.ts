import { tenantSettingResponse, type TenantSettingName } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { isApiError, tenantClient } from '../http';
import { queryKeys } from '../query-keys';

/**
 * spec 1 §7 GET tenant-settings/{name}: a switch of the tenant's contract, 'true' or 'false';
 * 404 means false. Shared: the dashboard, late payments and payment providers read settings.
 */
export async function getTenantSetting(
  name: TenantSettingName,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    const setting = await tenantClient.get(`/tenant-settings/${name}`, {
      // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
      schema: import.meta.env.DEV ? tenantSettingResponse : undefined,
      signal,
    });
    return setting.value === 'true';
  } catch (error) {
    if (isApiError(error) && error.status === 404) return false;
    throw error;
  }
}

export const tenantSettingQueryOptions = (name: TenantSettingName) =>
  queryOptions({
    queryKey: queryKeys.tenantSettings.detail(name),
    queryFn: ({ signal }) => getTenantSetting(name, signal),
    // spec 1 §9: settings can take up to 5 minutes to take effect.
    staleTime: 5 * 60 * 1000,
  });

export function useTenantSetting(name: TenantSettingName) {
  return useQuery(tenantSettingQueryOptions(name));
}
