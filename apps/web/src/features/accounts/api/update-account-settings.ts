import { accountSchema, type Account, type AccountSettingsBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { accountKeys } from './account-keys';

/** spec 2 §7 PUT accounts/{id}/settings. */
export function updateAccountSettings(id: string, body: AccountSettingsBody): Promise<Account> {
  return companyClient.put(`/accounts/${encodeURIComponent(id)}/settings`, body, {
    schema: accountSchema,
  });
}

export function useUpdateAccountSettings(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountSettingsBody) => updateAccountSettings(id, body),
    onSuccess: (account) => {
      // The answer has no counts; keep the badges of the cached account.
      queryClient.setQueryData<Account>(accountKeys().detail(id), (cached) => ({
        ...account,
        counts: cached?.counts,
      }));
      return queryClient.invalidateQueries({ queryKey: accountKeys().lists() });
    },
  });
}
