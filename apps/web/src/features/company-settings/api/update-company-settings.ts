import type { CompanySettings, UpdateCompanySettingsBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companySettingsKeys } from '@/lib/api/get-company-settings';
import { companyClient } from '@/lib/http';

/** spec 3 §7 PUT company-settings: the company details. */
export function updateCompanySettings(body: UpdateCompanySettingsBody): Promise<CompanySettings> {
  return companyClient.put('/company-settings', body);
}

export function useUpdateCompanySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanySettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companySettingsKeys().all() }),
  });
}
