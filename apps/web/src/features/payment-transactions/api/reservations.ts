import {
  reservationActionResultSchema,
  reservationRoutes,
  reservationsPageSchema,
  type ReservationActionBody,
} from '@ledgerline/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { paymentTransactionKeys } from './get-payment-transactions';

const apiPath = (path: string) => path.replace(/^\/api\/v0/, '');

/** GET payment-transactions/reservations — Pending payments, the one lapsing first first. */
export function getReservations(page: number, pageSize: number, signal?: AbortSignal) {
  return companyClient.get(apiPath(reservationRoutes.list.path), {
    query: { page, pageSize },
    schema: reservationsPageSchema,
    signal,
  });
}

export function useReservations(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...paymentTransactionKeys().all(), 'reservations', { page, pageSize }],
    queryFn: ({ signal }) => getReservations(page, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}

/** Bulk capture (the whole of each) or cancel; one result per id, in the order sent. */
export function useReservationAction(action: 'capture' | 'cancel') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReservationActionBody) =>
      companyClient.post(apiPath(reservationRoutes[action].path), body, {
        schema: reservationActionResultSchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentTransactionKeys().all() }),
  });
}
