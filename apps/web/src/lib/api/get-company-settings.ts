import { companySettingsSchema, type CompanySettings } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiBase, companyClient } from '../http';
import { companyQueryKeys } from '../query-keys';

/** Keys of the company settings; shared: the header shows the logo, the settings pages edit. */
export const companySettingsKeys = () => companyQueryKeys('company-settings');

/** spec 3 §7 GET company-settings. */
export function getCompanySettings(signal?: AbortSignal): Promise<CompanySettings> {
  return companyClient.get('/company-settings', { schema: companySettingsSchema, signal });
}

export const companySettingsQueryOptions = () =>
  queryOptions({
    queryKey: companySettingsKeys().detail('current'),
    queryFn: ({ signal }) => getCompanySettings(signal),
  });

export function useCompanySettings() {
  return useQuery(companySettingsQueryOptions());
}

/**
 * The logo as an object URL: the logo call needs the Dataset-Id header, which an <img> cannot
 * send, so it is fetched with the company client and shown from memory.
 */
export function useCompanyLogo(): string | null {
  const { data: settings } = useCompanySettings();
  const logoUrl = settings?.logoUrl ?? null;
  const { data: blob } = useQuery({
    queryKey: [...companySettingsKeys().all(), 'logo', logoUrl],
    queryFn: ({ signal }) =>
      companyClient.get<Blob>(logoUrl!.slice(apiBase.length), { responseType: 'blob', signal }),
    enabled: logoUrl !== null,
    staleTime: Infinity,
  });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob || logoUrl === null) {
      setObjectUrl(null);
      return;
    }
    const url = URL.createObjectURL(blob);
    setObjectUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [blob, logoUrl]);
  return objectUrl;
}
