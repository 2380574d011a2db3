import {
  settlementOfferSchema,
  type CreateSettlementOfferBody,
  type SettlementOffer,
  type UpdateSettlementOfferBody,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { transactionKeys } from './transaction-keys';

const offersPath = (transactionId: string) =>
  `/transactions/${encodeURIComponent(transactionId)}/settlement-offers`;

/** spec 2 §7 POST transactions/{id}/settlement-offers. */
export function createSettlementOffer(
  transactionId: string,
  body: CreateSettlementOfferBody,
): Promise<SettlementOffer> {
  return companyClient.post(offersPath(transactionId), body, { schema: settlementOfferSchema });
}

/** spec 2 §7 PUT transactions/{id}/settlement-offers (the body carries the offer's id). */
export function updateSettlementOffer(
  transactionId: string,
  body: UpdateSettlementOfferBody,
): Promise<SettlementOffer> {
  return companyClient.put(offersPath(transactionId), body, { schema: settlementOfferSchema });
}

/** spec 2 §4: after an offer is added or edited the transaction is reloaded. */
export function useSaveSettlementOffer(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSettlementOfferBody | UpdateSettlementOfferBody) =>
      'id' in body && body.id
        ? updateSettlementOffer(transactionId, body as UpdateSettlementOfferBody)
        : createSettlementOffer(transactionId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: transactionKeys().detail(transactionId) }),
  });
}
