import type { CompanyLogo } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companySettingsKeys } from '@/lib/api/get-company-settings';
import { companyClient } from '@/lib/http';

/** spec 3 §7 PUT company-settings/logo: multipart imageFile and originalFilename. */
export function uploadLogo(file: File): Promise<CompanyLogo> {
  const form = new FormData();
  form.append('originalFilename', file.name);
  form.append('imageFile', file, file.name);
  return companyClient.put('/company-settings/logo', form);
}

export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadLogo,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companySettingsKeys().all() }),
  });
}
