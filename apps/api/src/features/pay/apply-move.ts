import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { inDataset } from '../../platform/scope.js';
import { flushWrites, insertRow, setRequestStatus } from './deferred-writes.js';
import { confirm, release, restore, reverse, writeAllocations } from './lifecycle-allocations.js';
import {
  moveOf,
  requestStatusOf,
  type PaymentEvent,
  type PaymentMoveRule,
  type PaymentStatus,
  type RequestMoney,
  type RequestStatus,
} from './lifecycle.js';
import type { Offered } from './pay-page-answer.js';
import type { PayScope, PaymentRequestRow, PaymentRow } from './pay.repository.js';

/**
 * A move of the lifecycle's table (lifecycle.ts) applied in the caller's transaction: the
 * payment's status, its allocations (lifecycle-allocations.ts), its request's status and the audit.
 */
/** The request's money, read in one statement (requestStatusOf's facts). */
async function requestMoney(
  tx: Tx,
  scope: PayScope,
  request: PaymentRequestRow,
): Promise<RequestMoney> {
  const { tenantId, datasetId } = scope;
  const id = request.id;
  await flushWrites(tx);
  const result = (await tx.execute(sql`
    select
      coalesce(sum(a.allocated_amount + a.discounted_amount) filter (where a.status = 'Allocated'), 0)::text as held,
      coalesce(sum(a.allocated_amount + a.discounted_amount) filter (where a.status = 'Provisional'), 0)::text as reserved,
      (select count(*) from payment_transactions p where p.tenant_id = ${tenantId} and p.dataset_id = ${datasetId} and p.payment_request_id = ${id} and p.status = 'Paid')::int as "paidPayments",
      (select count(*) from payment_transactions p where p.tenant_id = ${tenantId} and p.dataset_id = ${datasetId} and p.payment_request_id = ${id} and p.status = 'Pending')::int as "pendingPayments",
      (select count(*) from payment_request_allocations x
        join transactions t on t.tenant_id = x.tenant_id and t.dataset_id = x.dataset_id and t.id = x.transaction_id
        where x.tenant_id = ${tenantId} and x.dataset_id = ${datasetId} and x.payment_request_id = ${id}
          and t.allocated_amount + t.discounted_amount < t.transaction_amount)::int as owing,
      (select count(*) from payment_request_allocations x
        join transactions t on t.tenant_id = x.tenant_id and t.dataset_id = x.dataset_id and t.id = x.transaction_id
        where x.tenant_id = ${tenantId} and x.dataset_id = ${datasetId} and x.payment_request_id = ${id}
          and t.allocated_amount + t.discounted_amount + coalesce((
            select sum(r.allocated_amount + r.discounted_amount) from payment_allocations r
            where r.tenant_id = t.tenant_id and r.dataset_id = t.dataset_id and r.transaction_id = t.id and r.status = 'Provisional'), 0)
            < t.transaction_amount)::int as "owingIfCaptured"
    from payment_allocations a
    join payment_transactions p on p.tenant_id = a.tenant_id and p.dataset_id = a.dataset_id and p.id = a.payment_transaction_id
    where p.tenant_id = ${tenantId} and p.dataset_id = ${datasetId} and p.payment_request_id = ${id}`)) as unknown as {
    rows: Omit<RequestMoney, 'usageType' | 'requestType' | 'amountToPay' | 'current'>[];
  };
  const row = result.rows[0]!;
  return {
    usageType: request.usageType,
    requestType: request.requestType,
    amountToPay: request.amountToPay,
    current: request.requestStatus,
    held: row.held,
    reserved: row.reserved,
    paidPayments: Number(row.paidPayments),
    pendingPayments: Number(row.pendingPayments),
    owing: Number(row.owing),
    owingIfCaptured: Number(row.owingIfCaptured),
  };
}

/**
 * The request's status derived again from its money, in the caller's transaction (the caller holds
 * the request's lock). Answers the request as it is now, and whether this completed it.
 */
export async function deriveRequestStatus(
  tx: Tx,
  scope: PayScope,
  request: PaymentRequestRow,
  /** The status when the move alone decides it (no read needed). */
  known?: RequestStatus,
) {
  const status = known ?? requestStatusOf(await requestMoney(tx, scope, request));
  if (status === request.requestStatus) return { request, completed: false };
  await setRequestStatus(tx, scope, request.id, status);
  return { request: { ...request, requestStatus: status }, completed: status === 'Completed' };
}

/** Who moved it, for the audit activity applyMove writes. */
export interface MoveActor {
  name: string;
  ipAddress?: string | null;
  requestId?: string | null;
}

export interface MoveInput {
  /** The payment, locked by the caller (select … for update) in `tx`. */
  payment: PaymentRow;
  event: PaymentEvent;
  /** The payment's request, locked by the caller after the payment; its status is derived again. */
  request?: PaymentRequestRow | null;
  /** What the payer was shown (allocate, provision). */
  offered?: Offered | null;
  /** A part capture's, refund's or dispute's amount (major units); null: the whole. */
  amount?: Big | null;
  /** Columns the provider's answer sets with the move (its reference, the method, a capture's amount). */
  set?: Partial<
    Pick<
      PaymentRow,
      'paymentProviderReference' | 'paymentMethodType' | 'totalAmount' | 'providerStep'
    >
  >;
  /**
   * The audit activity: written here for a provider's or a job's move; null when a staff route's
   * own activity records it (its operation is the rule's `audit`).
   */
  audit: { actor: MoveActor; errorMessage?: string | null } | null;
}

export interface AppliedMove {
  rule: PaymentMoveRule;
  before: PaymentStatus;
  payment: PaymentRow;
  /** The request as the move left it, and whether the move completed it. */
  request: PaymentRequestRow | null;
  completedRequestId: string | null;
  /** What a `reverse` move took from the allocations (0 for any other move). */
  reversed: Big;
}

export class MoveRefused extends Error {
  constructor(
    readonly from: string,
    readonly event: PaymentEvent,
  ) {
    super(`A ${from} payment cannot be moved by ${event}.`);
  }
}

/** The move's allocation effect (lifecycle-allocations.ts): what a `reverse` took, else 0. */
async function applyAllocations(
  tx: Tx,
  scope: PayScope,
  rule: PaymentMoveRule,
  input: MoveInput,
): Promise<Big> {
  const { payment } = input;
  const amount = input.amount ?? null;
  const effect = rule.allocations;
  if (effect === 'allocate' || effect === 'provision')
    await writeAllocations(
      tx,
      scope,
      payment,
      input.offered ?? null,
      effect === 'allocate' ? 'Allocated' : 'Provisional',
    );
  else if (effect === 'confirm') await confirm(tx, scope, payment.id, amount);
  else if (effect === 'release') await release(tx, scope, payment.id);
  else if (effect === 'reverse') return reverse(tx, scope, payment.id, amount);
  else if (effect === 'restore') await restore(tx, scope, payment.id, amount);
  return new Big(0);
}

/**
 * Applies one move of the table in the caller's transaction: the payment's status (and what the
 * provider's answer sets), its allocations and invoices, its request's status derived again, and
 * the audit activity. Throws MoveRefused when the table has no such move. The caller writes the
 * move's web hook event (rule.webHook) in the same transaction and sends its mail after the commit.
 */
export async function applyMove(tx: Tx, scope: PayScope, input: MoveInput): Promise<AppliedMove> {
  const { payment, event } = input;
  const rule = moveOf(payment.status, event);
  if (!rule) throw new MoveRefused(payment.status, event);
  // Everything below is issued without waiting where no value depends on an earlier answer: the
  // statements run in the order issued, so what reads reads after what writes (docs/decisions/086-provider-notifications-are-settled-inline.md
  // "Provider notifications are settled inline").
  const moved = Promise.all([
    tx
      .update(paymentTransactions)
      .set({
        status: rule.to,
        statusDateTime: sql`now()`,
        ...(rule.to !== 'Processing' ? { providerStep: null } : {}),
        ...input.set,
        ...(rule.allocatedStatus ? { allocatedStatus: rule.allocatedStatus } : {}),
      })
      .where(and(inDataset(paymentTransactions, scope), eq(paymentTransactions.id, payment.id)))
      .returning(),
    input.audit
      ? insertRow(tx, auditActivities, {
          tenantId: scope.tenantId,
          id: uuidv7(),
          datasetId: scope.datasetId,
          operation: rule.audit,
          resourceType: 'PaymentTransaction',
          resourceId: payment.id,
          userName: input.audit.actor.name,
          status: 200,
          errorMessage: input.audit.errorMessage ?? null,
          ipAddress: input.audit.actor.ipAddress ?? null,
          requestId: input.audit.actor.requestId ?? null,
        })
      : null,
  ]);
  // Awaited below; a failure fails the transaction either way.
  moved.catch(() => undefined);
  let request = input.request ?? null;
  let completedRequestId: string | null = null;
  let reversed = new Big(0);
  try {
    const effect = rule.allocations;
    reversed = await applyAllocations(tx, scope, rule, input);
    if (request && (effect !== 'none' || rule.to !== payment.status || event === 'duplicate')) {
      // A Single request a payment has just been Paid for is Completed (requestStatusOf): the
      // settle path's common move needs no read (bench/pay.ts's notification throughput).
      const known =
        request.usageType !== 'Multiple' && rule.to === 'Paid' ? 'Completed' : undefined;
      const derived = await deriveRequestStatus(tx, scope, request, known);
      request = derived.request;
      if (derived.completed) completedRequestId = request.id;
    }
  } catch (error) {
    // The move's own failure, if it failed, is the cause (what came after it was aborted).
    await moved;
    throw error;
  }
  const [[after]] = await moved;
  return {
    rule,
    before: payment.status as PaymentStatus,
    payment: after!,
    request,
    completedRequestId,
    reversed,
  };
}
