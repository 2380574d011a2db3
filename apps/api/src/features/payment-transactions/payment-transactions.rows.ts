import Big from 'big.js';
import {
  settlementStatusOf,
  type PaymentDispute,
  type PaymentTransaction,
  type PaymentTransactionSummary,
} from '@ledgerline/contract';
import type {
  paymentDisputes,
  paymentRequests,
  paymentTransactions,
} from '../../db/schema-receivables.js';

/** A payment transaction's row and a payment request's, as the repositories read them. */
export type Row = typeof paymentTransactions.$inferSelect;
export type RequestRow = typeof paymentRequests.$inferSelect;

const amount = (value: string | null) => (value === null ? null : Number(value));

/** The payment request a payment names, as the payment shows it. */
function requestSummaryOf(request: RequestRow | null): PaymentTransaction['paymentRequest'] {
  return request
    ? {
        id: request.id,
        customerName: request.customerName,
        customerReference: request.customerReference,
        requestStatus: request.requestStatus,
        amountToPay: Number(request.amountToPay),
        currency: request.currency,
      }
    : null;
}

/** A payment as the API shows it; `request` undefined leaves `paymentRequest` out. */
export function toPaymentTransaction(row: Row, request?: RequestRow | null): PaymentTransaction {
  return {
    id: row.id,
    type: row.type as PaymentTransaction['type'],
    status: row.status as PaymentTransaction['status'],
    allocatedStatus: row.allocatedStatus as PaymentTransaction['allocatedStatus'],
    ledgerlineReference: row.ledgerlineReference,
    createdOn: row.createdOn.toISOString(),
    statusDateTime: row.statusDateTime.toISOString(),
    totalAmount: Number(row.totalAmount),
    currency: row.currency,
    fee: amount(row.fee),
    feeCurrency: row.feeCurrency,
    customerName: row.customerName,
    companyName: row.companyName,
    customerDetails: (row.customerDetails as PaymentTransaction['customerDetails']) ?? null,
    accountId: row.accountId,
    payerId: row.payerId,
    paymentRequestId: row.paymentRequestId,
    ...(request === undefined ? {} : { paymentRequest: requestSummaryOf(request) }),
    paymentProviderId: row.paymentProviderId,
    paymentProviderName: row.paymentProviderName,
    paymentProviderReference: row.paymentProviderReference,
    paymentMethodType: row.paymentMethodType as PaymentTransaction['paymentMethodType'],
    settlementStatus: settlementStatusOf(
      row.status as PaymentTransaction['status'],
      row.paymentMethodType as PaymentTransaction['paymentMethodType'],
    ),
    refundOfId: row.refundOfId,
    refundReason: row.refundReason,
  };
}

/** A dispute as the API shows it. */
export function toPaymentDispute(row: typeof paymentDisputes.$inferSelect): PaymentDispute {
  return {
    id: row.id,
    paymentTransactionId: row.paymentTransactionId,
    disputeReference: row.disputeReference,
    amount: Number(row.amount),
    currency: row.currency,
    reason: row.reason,
    stage: row.stage as PaymentDispute['stage'],
    respondBy: row.respondBy?.toISOString() ?? null,
    openedOn: row.openedOn.toISOString(),
    closedOn: row.closedOn?.toISOString() ?? null,
    updatedOn: row.updatedOn.toISOString(),
  };
}

/** A refund as its payment lists it. */
export function toSummary(row: Row): PaymentTransactionSummary {
  return {
    id: row.id,
    type: row.type as PaymentTransactionSummary['type'],
    status: row.status as PaymentTransactionSummary['status'],
    ledgerlineReference: row.ledgerlineReference,
    createdOn: row.createdOn.toISOString(),
    statusDateTime: row.statusDateTime.toISOString(),
    totalAmount: Number(row.totalAmount),
    currency: row.currency,
    paymentProviderReference: row.paymentProviderReference,
    refundOfId: row.refundOfId,
    refundReason: row.refundReason,
  };
}

/** Statuses of a payment that can give money back, and refunds that count against it (pay/refunds.ts). */
const refundable = new Set(['Paid', 'Duplicated']);
const countedRefunds = new Set(['Processing', 'Refunded']);

/**
 * What is left to refund of a payment: its total less its Processing and Refunded refunds, and 0
 * for anything but a Paid or Duplicated payment.
 */
export function refundableAmountOf(
  payment: Pick<Row, 'type' | 'status' | 'totalAmount'>,
  refunds: Pick<Row, 'status' | 'totalAmount'>[],
): number {
  const taken = refunds
    .filter((refund) => countedRefunds.has(refund.status))
    .reduce((sum, refund) => sum.plus(refund.totalAmount), new Big(0));
  const left = new Big(payment.totalAmount).minus(taken);
  return payment.type === 'Payment' && refundable.has(payment.status) && left.gt(0)
    ? Number(left)
    : 0;
}
