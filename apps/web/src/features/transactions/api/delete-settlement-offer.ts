import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { transactionKeys } from './transaction-keys';

/**
 * spec 2 §7 DELETE transactions/{id}/settlement-offers. The offer goes in `offerId`: fetch
 * wrappers send no DELETE body (docs/api.md).
 */
export function deleteSettlementOffer(transactionId: string, offerId: string): Promise<unknown> {
  return companyClient.delete(
    `/transactions/${encodeURIComponent(transactionId)}/settlement-offers`,
    { query: { offerId } },
  );
}

export function useDeleteSettlementOffer(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offerId: string) => deleteSettlementOffer(transactionId, offerId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: transactionKeys().detail(transactionId) }),
  });
}
