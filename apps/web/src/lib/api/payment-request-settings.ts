import {
  paymentRequestSettingsSchema,
  type PaymentRequestSettings,
  type UpdatePaymentRequestSettingsBody,
} from '@ledgerline/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '../http';
import { companyQueryKeys } from '../query-keys';

/**
 * spec 3 §7 company-settings/payment-request: the default link expiry and usage type. Shared:
 * Preferences edits them, the New Request dialogs of two areas show them.
 */
export const paymentRequestSettingsKeys = () => companyQueryKeys('payment-request-settings');

export function getPaymentRequestSettings(signal?: AbortSignal): Promise<PaymentRequestSettings> {
  return companyClient.get('/company-settings/payment-request', {
    schema: paymentRequestSettingsSchema,
    signal,
  });
}

export const paymentRequestSettingsQueryOptions = () =>
  queryOptions({
    queryKey: paymentRequestSettingsKeys().detail('current'),
    queryFn: ({ signal }) => getPaymentRequestSettings(signal),
  });

export function usePaymentRequestSettings() {
  return useQuery(paymentRequestSettingsQueryOptions());
}

export function useUpdatePaymentRequestSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePaymentRequestSettingsBody) =>
      companyClient.put('/company-settings/payment-request', body, {
        schema: paymentRequestSettingsSchema,
      }),
    onSuccess: (saved) =>
      queryClient.setQueryData(paymentRequestSettingsKeys().detail('current'), saved),
  });
}

/**
 * The company's payment request defaults for a New Request dialog, or null while they load or
 * when they cannot be read (the dialog then works without them: no error page).
 */
export function usePaymentRequestDefaults(): PaymentRequestSettings | null {
  const { data } = useQuery({
    ...paymentRequestSettingsQueryOptions(),
    meta: { statusRouting: false },
  });
  return data ?? null;
}
