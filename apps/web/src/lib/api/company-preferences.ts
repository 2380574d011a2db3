import {
  companyPreferencesSchema,
  type CompanyPreferences,
  type UpdateCompanyPreferencesBody,
} from '@ledgerline/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '../http';
import { companyQueryKeys, companyRootKey } from '../query-keys';

/**
 * spec 3 §7 company-settings/preferences: the default settlement group and late-payment
 * configuration. Shared: the settlements and late-payments areas both show and set a default.
 */
export const companyPreferencesKeys = () => companyQueryKeys('company-preferences');

export function getCompanyPreferences(signal?: AbortSignal): Promise<CompanyPreferences> {
  return companyClient.get('/company-settings/preferences', {
    schema: companyPreferencesSchema,
    signal,
  });
}

export const companyPreferencesQueryOptions = () =>
  queryOptions({
    queryKey: companyPreferencesKeys().detail('preferences'),
    queryFn: ({ signal }) => getCompanyPreferences(signal),
  });

export function useCompanyPreferences() {
  return useQuery(companyPreferencesQueryOptions());
}

export function useUpdateCompanyPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCompanyPreferencesBody) =>
      companyClient.put('/company-settings/preferences', body, {
        schema: companyPreferencesSchema,
      }),
    // The default tags of both grids read isDefault from their own lists.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyRootKey() }),
  });
}
