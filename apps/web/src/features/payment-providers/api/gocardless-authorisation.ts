import { authoriseStart, goCardlessCompleteResult } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentProviderKeys } from './payment-provider-keys';

/**
 * GoCardless's authorisation address for this server, with a state the server issued for this
 * session (the add page goes there at once).
 */
export function startGoCardlessAuthorisation() {
  return companyClient.post('/gocardless/authorise/start', undefined, { schema: authoriseStart });
}

/** spec 3 §7 POST gocardless/authorise/complete: success, paymentProviderId, errorMessage. */
export function completeGoCardlessAuthorisation(input: { code: string; state: string }) {
  return companyClient.post('/gocardless/authorise/complete', undefined, {
    query: input,
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
