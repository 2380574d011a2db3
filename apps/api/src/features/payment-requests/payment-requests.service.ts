import {
  paymentRequestMessages as m,
  type AllocationInfoInput,
  type CreatePaymentRequestInput,
  type PageQuery,
  type PaymentRequest,
  type UpdatePaymentRequestInput,
  type paymentRequestQuery,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { ConflictError, UnprocessableError, ValidationError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import { updateAllocations } from './payment-requests.allocations.js';
import { createPaymentRequest } from './payment-requests.create.js';
import {
  assertEditable,
  load,
  notFound,
  present,
  type RequestsContext,
} from './payment-requests.read.js';
import type {
  PaymentRequestRow,
  PaymentRequestValues,
  PaymentRequestsRepository,
} from './payment-requests.repository.js';

type Fields = (typeof paymentRequestQuery)['fields'];

/** PATCH payment-requests: absent fields stay, null clears (spec 2 §4, §5). */
async function updateRequest(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  input: UpdatePaymentRequestInput,
): Promise<PaymentRequest> {
  const row = await ctx.repository.find(tx, scope, input.id, true);
  if (!row) throw notFound();
  const state = await assertEditable(ctx, tx, scope, row);
  const values: Partial<PaymentRequestValues> = {};
  if (input.description !== undefined) values.description = input.description;
  if (input.validFrom !== undefined)
    values.validFrom = input.validFrom ? new Date(input.validFrom) : null;
  if (input.validUntil !== undefined)
    values.validUntil = input.validUntil ? new Date(input.validUntil) : null;
  if (input.paymentRequiredBy !== undefined) values.paymentRequiredBy = input.paymentRequiredBy;
  if (input.billingContact !== undefined) values.billingContact = input.billingContact;
  if (input.deliveryContact !== undefined) values.deliveryContact = input.deliveryContact;
  if (input.usageType !== undefined && input.usageType !== row.usageType) {
    if (!state.canChangeUsage) throw new ConflictError(m.usageTypeLocked, 'usageTypeLocked');
    values.usageType = input.usageType;
  }
  // The stored pair must stay in order when only one side changes.
  const validFrom = values.validFrom !== undefined ? values.validFrom : row.validFrom;
  const validUntil = values.validUntil !== undefined ? values.validUntil : row.validUntil;
  if (validFrom && validUntil && validUntil < validFrom)
    throw new ValidationError({ validUntil: [m.validUntilBeforeValidFrom] });
  await ctx.repository.update(tx, scope, row.id, values);
  return load(ctx, tx, scope, row.id, { allocations: true, payments: true, editState: true });
}

/**
 * POST payment-requests/{id}/cancel: an Open request becomes Cancelled; the payer's link then
 * says so. Not while a payer is at a provider's page with a payment of it (the row lock makes a
 * start and a cancel take turns): that payment could still take money.
 */
async function cancelRequest(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  id: string,
): Promise<PaymentRequest> {
  const row = await ctx.repository.find(tx, scope, id, true);
  if (!row) throw notFound();
  if (row.requestStatus !== 'Open')
    throw new ConflictError(m.notCancellable, 'paymentRequestNotCancellable');
  const since = new Date(Date.now() - ctx.holdMinutes * 60_000);
  if (await ctx.repository.paymentInProgress(tx, scope, id, since))
    throw new ConflictError(m.paymentInProgress, 'paymentRequestPaymentInProgress');
  await ctx.repository.update(tx, scope, id, { requestStatus: 'Cancelled' });
  return load(ctx, tx, scope, id, { allocations: true, payments: true, editState: true });
}

/**
 * POST payment-requests/{id}/send: who the link of an Open request is mailed to, its billing
 * contact's e-mail address. The mail itself goes out after the commit.
 */
async function sendable(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  id: string,
): Promise<{ emailAddress: string; requestUrl: string; row: PaymentRequestRow }> {
  const row = await ctx.repository.find(tx, scope, id);
  if (!row) throw notFound();
  if (row.requestStatus !== 'Open')
    throw new ConflictError(m.notSendable, 'paymentRequestNotSendable');
  const emailAddress = (
    row.billingContact as { emailAddress?: string | null } | null
  )?.emailAddress?.trim();
  if (!emailAddress) throw new UnprocessableError(m.noEmailAddress);
  return { emailAddress, requestUrl: ctx.requestUrl(row.id), row };
}

/** The detail: allocations, payment attempts, mails and edit state always; transactions when expanded. */
const detail = (expandTransactions: boolean) => ({
  allocations: true,
  transactions: expandTransactions,
  payments: true,
  editState: true,
  mails: true,
});

/**
 * spec 2 §2–§5 payment requests. `publicUrl` makes each request's payment URL, the payer page's
 * address (features/pay).
 */
export function createPaymentRequestsService(deps: {
  repository: PaymentRequestsRepository;
  publicUrl: string;
  /** PAY_ATTEMPT_HOLD_MINUTES: how long a started payment holds its request (default 10). */
  holdMinutes?: number;
}) {
  const { repository, publicUrl } = deps;
  const ctx: RequestsContext = {
    repository,
    requestUrl: (id) => `${publicUrl}/pay/${id}`,
    holdMinutes: deps.holdMinutes ?? 10,
  };
  return {
    async page(
      tx: Tx,
      scope: DatasetScope,
      query: PageQuery<Fields, 'transactions'>,
      includeTransactions: boolean,
    ) {
      const { rows, total } = await repository.page(tx, scope, query);
      const withTransactions = includeTransactions || query.expand.includes('transactions');
      const items = await present(ctx, tx, scope, rows, {
        allocations: withTransactions,
        transactions: withTransactions,
      });
      return { items, totalItems: total.count, totalItemsEstimated: total.estimated };
    },

    count: (tx: Tx, scope: DatasetScope, query: Pick<PageQuery<Fields>, 'filters'>) =>
      repository.count(tx, scope, query),

    get: (tx: Tx, scope: DatasetScope, id: string, expandTransactions: boolean) =>
      load(ctx, tx, scope, id, detail(expandTransactions)),

    /** Several requests as the detail answers them (web hook payloads say what the page says), by id; those not found left out. */
    async getMany(tx: Tx, scope: DatasetScope, ids: string[], expandTransactions: boolean) {
      const rows = await repository.findMany(tx, scope, ids);
      const presented = await present(ctx, tx, scope, rows, detail(expandTransactions));
      return new Map(presented.map((request, i) => [rows[i]!.id, request]));
    },

    create: (tx: Tx, scope: DatasetScope, input: CreatePaymentRequestInput) =>
      createPaymentRequest(ctx, tx, scope, input),
    update: (tx: Tx, scope: DatasetScope, input: UpdatePaymentRequestInput) =>
      updateRequest(ctx, tx, scope, input),
    cancel: (tx: Tx, scope: DatasetScope, id: string) => cancelRequest(ctx, tx, scope, id),
    sendable: (tx: Tx, scope: DatasetScope, id: string) => sendable(ctx, tx, scope, id),
    updateAllocations: (tx: Tx, scope: DatasetScope, id: string, input: AllocationInfoInput) =>
      updateAllocations(ctx, tx, scope, id, input),
  };
}
export type PaymentRequestsService = ReturnType<typeof createPaymentRequestsService>;
