import { companySettingsSchema, type CompanySettings } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiBase, companyClient } from '../http';
import { companyQueryKeys } from '../query-keys';

/** Keys of the company settings; shared: the header shows the logo, the settings pages edit. */
export const companySettingsKeys = () => companyQueryKeys('company-settings');

/** spec 3 §7 GET company-settings. */
export function getCompanySettings(signal?: AbortSignal): Promise<CompanySettings> {
  // Checked in development and tests only: a first-load call (lib/http.ts, `schema`).
  return companyClient.get('/company-settings', {
    schema: import.meta.env.DEV ? companySettingsSchema : undefined,
    signal,
  });
}

export const companySettingsQueryOptions = () =>
  queryOptions({
    queryKey: companySettingsKeys().detail('current'),
    queryFn: ({ signal }) => getCompanySettings(signal),
  });

export function useCompanySettings() {
  return useQuery(companySettingsQueryOptions());
}

/** A blob as a data: URL (the site's CSP allows data: images, not blob:). */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The logo could not be read.'));
    reader.readAsDataURL(blob);
  });
}

/**
 * The logo as a data: URL: the logo call needs the Dataset-Id header, which an <img> cannot
 * send, so it is fetched with the company client and shown from memory.
 */
export function useCompanyLogo(): string | null {
  const { data: settings } = useCompanySettings();
  const logoUrl = settings?.logoUrl ?? null;
  const { data } = useQuery({
    queryKey: [...companySettingsKeys().all(), 'logo', logoUrl],
    queryFn: async ({ signal }) =>
      dataUrlOf(
        await companyClient.get<Blob>(logoUrl!.slice(apiBase.length), {
          responseType: 'blob',
          signal,
        }),
      ),
    enabled: logoUrl !== null,
    staleTime: Infinity,
  });
  return logoUrl === null ? null : (data ?? null);
}
