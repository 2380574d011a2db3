import { paymentRequestSendSchema } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentRequestKeys } from './get-payment-requests';

/** POST payment-requests/{id}/send mails the link to the billing contact. */
export function sendPaymentRequest(id: string) {
  return companyClient.post(`/payment-requests/${id}/send`, undefined, {
    schema: paymentRequestSendSchema,
  });
}

export function useSendPaymentRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendPaymentRequest,
    // The mail goes out in the background; the page's timeline shows it once it has.
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentRequestKeys().all() }),
  });
}
