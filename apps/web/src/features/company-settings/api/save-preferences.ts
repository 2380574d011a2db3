import { preferencesPageSchema, type SavePreferencesPageBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyPreferencesKeys } from '@/lib/api/company-preferences';
import { paymentRequestSettingsKeys } from '@/lib/api/payment-request-settings';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/**
 * PUT company-settings/all-preferences: the Preferences page's one Save, in one call so that a
 * refusal of any part saves nothing (spec 3 §2).
 */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SavePreferencesPageBody) =>
      companyClient.put('/company-settings/all-preferences', body, {
        schema: preferencesPageSchema,
      }),
    // What the other screens read of them (the default country, the request defaults) is current at once.
    onSuccess: (saved) => {
      queryClient.setQueryData(companyPreferencesKeys().detail('preferences'), saved.preferences);
      queryClient.setQueryData(
        paymentRequestSettingsKeys().detail('current'),
        saved.paymentRequest,
      );
      queryClient.setQueryData(
        companyQueryKeys('custom-host-id').detail('transaction'),
        saved.customHostId,
      );
    },
  });
}
