import { paymentRequestSchema, type CreateInvoicesRequestBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';
import { accountKeys } from './account-keys';

/** spec 2 §7 POST payment-requests, requestType Transaction with transactionAllocations: existing invoices. */
export function createInvoicesPaymentRequest(body: CreateInvoicesRequestBody) {
  return companyClient.post('/payment-requests', body, { schema: paymentRequestSchema });
}

/** The account's Payment requests tab and its count badge show the new request. */
export function useCreateInvoicesPaymentRequest(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvoicesPaymentRequest,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: companyQueryKeys('payment-requests').all() }),
        queryClient.invalidateQueries({ queryKey: accountKeys().detail(accountId) }),
      ]),
  });
}
