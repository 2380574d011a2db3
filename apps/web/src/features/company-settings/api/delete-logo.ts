import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companySettingsKeys } from '@/lib/api/get-company-settings';
import { companyClient } from '@/lib/http';

/** spec 3 §7 DELETE company-settings/logo. */
export function deleteLogo(): Promise<void> {
  return companyClient.delete('/company-settings/logo');
}

export function useDeleteLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLogo,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companySettingsKeys().all() }),
  });
}
