import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import { flushWrites } from './deferred-writes.js';
import type { Moved, PaymentMove } from './finish-move.js';
import type { PayScope } from './pay.repository.js';

/** What follows a payment's finishing moves: their web hook events, then the mails. */

export interface FinishDeps {
  database: Database;
  log: FastifyBaseLogger;
  /** notifications.mail.ts paymentStatusesChanged: one check for the moves of a batch. */
  notify?: (scope: PayScope, changes: PaymentStatusChange[]) => Promise<void>;
  /** The payer's receipt mail (pay.receipt.ts). */
  receipt?: (scope: PayScope, paymentTransactionId: string) => Promise<void>;
  /**
   * The outgoing web hook events of a move, written in the move's own transaction (the outbox), so
   * they are delivered exactly when the move commits.
   */
  recordEvents?: (tx: Tx, scope: PayScope, moves: PaymentMove[]) => Promise<void>;
}

/** What staff and payers may be told of a committed move (the notifications' wording). */
function changesOf(result: Moved): PaymentStatusChange[] {
  const { payment } = result;
  if (!payment) return [];
  if (result.changed) {
    const mail = result.rule?.mail;
    return mail ? [{ paymentTransactionId: payment.id, ...mail }] : [];
  }
  // Told once per payment: the mail's event key is the payment and the status.
  if (result.processing)
    return [{ paymentTransactionId: payment.id, status: 'Processing', from: 'Provider' }];
  return [];
}

/**
 * After the commit of one or several moves: the notification mails (one check for all of them)
 * and the payers' receipts. The moves are committed: a mail that fails is logged, never undoes
 * them (their jobs retry).
 */
export async function afterMoves(deps: FinishDeps, scope: PayScope, results: Moved[]) {
  const tasks: Promise<void>[] = [];
  const changes = results.flatMap(changesOf);
  if (deps.notify && changes.length > 0) tasks.push(deps.notify(scope, changes));
  for (const { changed, payment } of results) {
    const payerEmail = (payment?.customerDetails as { emailAddress?: string } | null)?.emailAddress;
    if (deps.receipt && changed && payment?.status === 'Paid' && payerEmail)
      tasks.push(deps.receipt(scope, payment.id));
  }
  for (const result of await Promise.allSettled(tasks))
    if (result.status === 'rejected')
      deps.log.error(
        { err: result.reason, paymentTransactionIds: changes.map((c) => c.paymentTransactionId) },
        'after-payment work failed',
      );
}

/** Moves' web hook events, in their transaction (the outbox), read as the moves left things. */
export async function recordMoveEvents(deps: FinishDeps, tx: Tx, scope: PayScope, moved: Moved[]) {
  // The payloads read what the moves wrote, including what a batch held back.
  await flushWrites(tx);
  const moves = moved.flatMap((result) => (result.events ? [result.events] : []));
  if (deps.recordEvents && moves.length > 0) await deps.recordEvents(tx, scope, moves);
}
