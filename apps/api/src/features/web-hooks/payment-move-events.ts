import type { WebHookEventType } from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { recordWebhookEvents, type WebHookEventInput } from './web-hook-events.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

type Payload<T extends WebHookEventType> = WebHookEventInput<T>['payload'];

/** A payment's move as the web hook events see it (features/pay/settle.ts PaymentMove). */
export interface MoveForEvents {
  paymentTransactionId: string;
  /** The payment's own event, when the move has one. */
  eventType: WebHookEventType | null;
  /** The request the move completed, else null. */
  completedRequestId: string | null;
}

/**
 * The web hook events of payments' moves, written in the moves' transaction so the merchant's
 * systems hear of a move once it commits. The payloads of every move of a batch are read
 * together and the events written in one statement, each move's payment event before its
 * request's.
 */
export function createPaymentMoveEvents(read: {
  payments: (
    tx: Tx,
    scope: DatasetScope,
    ids: string[],
  ) => Promise<Map<string, Payload<WebHookEventType>>>;
  requests: (
    tx: Tx,
    scope: DatasetScope,
    ids: string[],
  ) => Promise<Map<string, Payload<'payment-request.completed'>>>;
}) {
  return async (tx: Tx, scope: DatasetScope, moves: MoveForEvents[]): Promise<void> => {
    const [payments, requests] = await Promise.all([
      read.payments(
        tx,
        scope,
        moves.flatMap((move) => (move.eventType ? [move.paymentTransactionId] : [])),
      ),
      read.requests(
        tx,
        scope,
        moves.flatMap((move) => (move.completedRequestId ? [move.completedRequestId] : [])),
      ),
    ]);
    await recordWebhookEvents(
      tx,
      scope,
      moves.flatMap((move) => [
        ...(move.eventType
          ? [
              {
                type: move.eventType,
                recordType: 'PaymentTransaction',
                recordId: move.paymentTransactionId,
                payload: payments.get(move.paymentTransactionId)!,
              },
            ]
          : []),
        ...(move.completedRequestId
          ? [
              {
                type: 'payment-request.completed' as const,
                recordType: 'PaymentRequest',
                recordId: move.completedRequestId,
                payload: requests.get(move.completedRequestId)!,
              },
            ]
          : []),
      ]),
    );
  };
}
