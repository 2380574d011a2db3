import { goCardlessAuthoriseStart, goCardlessCompleteResult } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/** GoCardless's authorisation address for this server (the add page goes there at once). */
export function startGoCardlessAuthorisation(state: string) {
  return companyClient.get('/gocardless/authorise/start', {
    query: { state },
    schema: goCardlessAuthoriseStart,
  });
}

/** spec 3 §7 POST gocardless/authorise/complete: success, paymentProviderId, errorMessage. */
export function completeGoCardlessAuthorisation(code: string) {
  return companyClient.post('/gocardless/authorise/complete', undefined, {
    query: { code },
    schema: goCardlessCompleteResult,
  });
}

export function useCompleteGoCardlessAuthorisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeGoCardlessAuthorisation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentProviderKeys().all() }),
  });
}
