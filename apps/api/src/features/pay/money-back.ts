import type { FastifyBaseLogger } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Tx } from '../../db/client.js';
import { providerEvents } from '../../db/schema-receivables.js';
import type { NotificationDispute, NotificationRefund } from '../../providers/checkout.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import { noPayment } from './finish-move.js';
import { onDispute, type Locked } from './money-back-disputes.js';
import {
  claimAndLock,
  closeGroup,
  endLane,
  groupIn,
  openGroup,
  startLane,
  unclaim,
} from './money-back-group.js';
import { onLateFailure, onRefund } from './money-back-refunds.js';
import type { PayScope } from './pay.repository.js';
import { claimNotice, markNotice } from './provider-notices.repository.js';
import { lockPaymentAndRequest, readHeldTells, tellsHeldAbout, writeHeldTells } from './refunds.js';

/** What a stored notice says about money going back (provider-notices' summary). */
export interface MoneyBackNotice {
  notificationId: string;
  configurationId: string;
  providerName: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: string | null;
  errorMessage: string | null;
  lateFailure?: boolean;
  refund?: NotificationRefund;
  dispute?: NotificationDispute;
}

/** Whether a notice is one of these (it is then handled here, not on the completion path). */
export const isMoneyBack = (summary: { refund?: unknown; dispute?: unknown }) =>
  summary.refund !== undefined || summary.dispute !== undefined;

/*
 * A provider's refunds, disputes and late failures (NotificationEvent.refund, .dispute,
 * .lateFailure), each handled exactly once (the transaction claims the stored notice) through the
 * payment lifecycle: refunds and late failures in money-back-refunds.ts, disputes in
 * money-back-disputes.ts, a drain's group of them in one transaction in money-back-group.ts.
 */

/**
 * Handles one stored notice about `paymentId` (of the notice's configuration) in the caller's
 * transaction; what staff must be told once it has committed is added to `changes`
 * (`tellStaff`). The drain handles several in one transaction this way.
 */
export async function handleIn(
  tx: Tx,
  scope: PayScope,
  paymentId: string,
  notice: MoneyBackNotice,
  changes: PaymentStatusChange[],
  /**
   * What a group's claimAndLock read already: the claim, and the payment and its request as
   * locked then (undefined: read them here, as a lane's later notice must).
   */
  pre?: { claimed: boolean; locked: Locked | undefined },
) {
  const actor = { name: `${notice.providerName} notification` };
  // The claim and the payment's lock leave together (the connection pipelines them), as on
  // the completion path (finish.ts load).
  const [claimed, locked] = await Promise.all([
    pre ? pre.claimed : claimNotice(tx, scope, notice.notificationId),
    pre?.locked ?? lockPaymentAndRequest(tx, scope, paymentId),
  ]);
  if (!claimed) return;
  const group = groupIn(tx);
  const mark = (outcome: string) =>
    group
      ? void group.outcomes.push({ lane: group.lane, id: notice.notificationId, outcome })
      : markNotice(tx, scope, notice.notificationId, outcome);
  if (!locked || locked.payment.paymentProviderId !== notice.configurationId) {
    await mark(noPayment);
    return;
  }
  // A web hook event of the group told about this payment or its request is read as it is
  // before this moves it again (refunds.ts holdTells).
  if (tellsHeldAbout(tx, locked.payment.id, locked.payment.paymentRequestId))
    await readHeldTells(tx);
  const providerEvent = {
    tenantId: scope.tenantId,
    datasetId: scope.datasetId,
    id: uuidv7(),
    paymentTransactionId: paymentId,
    providerName: notice.providerName,
    eventType: notice.eventType,
    recordType: 'notification',
    recordId: notice.eventId,
    status: notice.refund?.status ?? notice.dispute?.stage ?? notice.status ?? 'unknown',
    payload: notice.payload,
    payloadFileName: `${notice.eventId}.json`,
  } satisfies typeof providerEvents.$inferInsert;
  // Kept whatever it moves: with the group's at its end, else it leaves with the next
  // statement and is awaited with the moves.
  const kept = group
    ? void group.providerEvents.push({ lane: group.lane, row: providerEvent })
    : tx.insert(providerEvents).values(providerEvent);
  const outcomes: string[] = [];
  const moves = async () => {
    if (notice.lateFailure)
      outcomes.push(await onLateFailure(tx, scope, locked, notice, actor, changes));
    // Each part reads the payment as the part before left it.
    const fresh = async () =>
      outcomes.length > 0 ? (await lockPaymentAndRequest(tx, scope, paymentId))! : locked;
    if (notice.dispute)
      outcomes.push(await onDispute(tx, scope, await fresh(), notice.dispute, actor, changes));
    if (notice.refund)
      outcomes.push(await onRefund(tx, scope, await fresh(), notice.refund, actor));
  };
  await Promise.all([kept, moves()]);
  await mark(outcomes.join('; '));
}

/** The money-back notices' handling, with what follows a commit (staff's mails). */
export function createMoneyBack(deps: {
  database: Database;
  log: FastifyBaseLogger;
  /** notifications.mail.ts paymentStatusesChanged, after the commit. */
  notify?: (scope: PayScope, changes: PaymentStatusChange[]) => Promise<void>;
}) {
  const { database, log } = deps;
  /** After the commit: staff's mails of the moves (a failure is logged, never undoes them). */
  async function tellStaff(scope: PayScope, changes: PaymentStatusChange[]) {
    if (deps.notify && changes.length > 0)
      await deps
        .notify(scope, changes)
        .catch((error: unknown) =>
          log.error(
            { err: error, paymentTransactionIds: changes.map((c) => c.paymentTransactionId) },
            'dispute mail failed',
          ),
        );
  }

  /** Handles one stored notice about `paymentId` in a transaction of its own. */
  async function handle(scope: PayScope, paymentId: string, notice: MoneyBackNotice) {
    const changes: PaymentStatusChange[] = [];
    await database.withTenant(scope.tenantId, (tx) =>
      handleIn(tx, scope, paymentId, notice, changes),
    );
    await tellStaff(scope, changes);
  }

  return {
    handle,
    handleIn,
    tellStaff,
    openGroup,
    startLane,
    endLane,
    closeGroup,
    writeHeldTells,
    claimAndLock,
    unclaim,
  };
}
export type MoneyBack = ReturnType<typeof createMoneyBack>;
