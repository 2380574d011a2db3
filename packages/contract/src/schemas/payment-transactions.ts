import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { feeLineSchema } from './money-rules.js';
import {
  paymentFeeTransactionSchema,
  transactionAccountSchema,
  transactionPaymentAllocationSchema,
} from './transactions.js';
import { paymentDisputeSchema } from './payment-disputes.js';

import {
  allocatedStatuses,
  paymentMethodTypes,
  paymentTransactionStatuses,
  paymentTransactionTypes,
  settlementStatuses,
} from './payment-transaction-statuses.js';

/** spec 2 §3, §7: the payment provider configuration a payment transaction went through. */
export const paymentTransactionProviderSchema = z
  .object({
    id: z.uuid(),
    /** The configuration's own name (spec 3 §5). */
    name: z.string(),
    /** Which provider it is: Stripe, GoCardless, Opayo, Sandbox… */
    providerName: z.string(),
    isTest: z.boolean(),
    enabled: z.boolean(),
  })
  .meta({ id: 'PaymentTransactionProvider' });
export type PaymentTransactionProvider = z.infer<typeof paymentTransactionProviderSchema>;

/**
 * spec 2 §7 GET payment-transactions/{id} "flags for account, paymentRequest, paymentAllocations,
 * latePaymentTransactions", named like GET payment-requests' includeTransactions. Each is true when
 * absent (the detail page wants everything); false leaves its part out (docs/decisions/147-get-payment-transactions-id-flags-account-and.md).
 */
const includeFlag = (part: string) =>
  z
    .enum(['true', 'false'], { message: `include${part} must be true or false` })
    .optional()
    .transform((value) => value !== 'false')
    .describe(
      `false leaves ${part[0]!.toLowerCase()}${part.slice(1)} out; true or absent includes it.`,
    );
export const paymentTransactionDetailQuery = z.object({
  includeAccount: includeFlag('Account'),
  includePaymentRequest: includeFlag('PaymentRequest'),
  includePaymentAllocations: includeFlag('PaymentAllocations'),
  includeLatePaymentTransactions: includeFlag('LatePaymentTransactions'),
});
export type PaymentTransactionDetailFlags = z.output<typeof paymentTransactionDetailQuery>;

export const customerDetailsSchema = z
  .object({
    companyName: z.string().nullable(),
    firstNames: z.string().nullable(),
    surname: z.string().nullable(),
    emailAddress: z.string().nullable(),
    address1: z.string().nullable(),
    address2: z.string().nullable(),
    address3: z.string().nullable(),
    address4: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    postCode: z.string().nullable(),
    country: z.string().nullable(),
  })
  .partial()
  .meta({ id: 'CustomerDetails' });
export type CustomerDetails = z.infer<typeof customerDetailsSchema>;

/** The part of a payment request a payment transaction carries when `paymentrequest` is expanded. */
export const paymentTransactionRequestSchema = z
  .object({
    id: z.uuid(),
    customerName: z.string().nullable(),
    customerReference: z.string().nullable(),
    requestStatus: z.string(),
    amountToPay: z.number(),
    currency: z.string(),
  })
  .meta({ id: 'PaymentTransactionRequest' });

// Allocations and fee lines are the same records the accounting transaction shows (transactions.ts).
export { transactionPaymentAllocationSchema as paymentAllocationSchema } from './transactions.js';
export type PaymentAllocation = z.infer<typeof transactionPaymentAllocationSchema>;
export type PaymentFeeTransaction = z.infer<typeof paymentFeeTransactionSchema>;

/** One invoice as the payer page offered it when the payer started the payment. */
export const payerQuoteInvoiceSchema = z
  .object({
    transactionId: z.uuid(),
    /** The accounting transaction's reference as it reads now (null when it has been deleted). */
    reference: z.string().nullable(),
    outstandingAmount: z.number(),
    /** The early-payment discount offered (0 when none). */
    discount: z.number(),
    offer: z
      .object({
        id: z.uuid(),
        source: z.enum(['Manual', 'Generated']),
        description: z.string().nullable(),
        /** The last day the discount applied. */
        validUntil: z.iso.date().nullable(),
      })
      .nullable(),
    /** Late-payment fee lines (statutory interest, fixed sum) with their plain-words description. */
    fees: z.array(feeLineSchema),
    /** The page's plain-words line on why fees applied; null when none did or it was not stored. */
    feesReason: z.string().nullable(),
    /**
     * The amount the payer chose for this invoice when they paid less than in full (it then gives
     * up its discount and fee lines); null when paid as offered.
     */
    chosenAmount: z.number().nullable(),
    amountToPay: z.number(),
  })
  .meta({ id: 'PayerQuoteInvoice' });
export type PayerQuoteInvoice = z.infer<typeof payerQuoteInvoiceSchema>;

/**
 * What the payer page showed when the payer started this payment, stored with it so that the
 * merchant can later see exactly what was offered.
 */
export const payerQuoteSchema = z
  .object({
    /** When the payer started the payment. */
    quotedAt: z.iso.datetime(),
    /** The day the discounts and fees were worked out for. */
    quotedOn: z.iso.date(),
    currency: z.string(),
    /** The invoices of a Transaction-type request; empty for an Account-type request. */
    invoices: z.array(payerQuoteInvoiceSchema),
    discountTotal: z.number(),
    feeTotal: z.number(),
    /** The total the page offered to pay in full. */
    total: z.number(),
    /** The amount the payer chose to pay (the total, unless they paid part). */
    amountChosen: z.number(),
  })
  .meta({ id: 'PayerQuote' });
export type PayerQuote = z.infer<typeof payerQuoteSchema>;

/** A Refund as the original payment's detail lists it. */
export const paymentTransactionSummarySchema = z
  .object({
    id: z.uuid(),
    type: z.enum(paymentTransactionTypes),
    status: z.enum(paymentTransactionStatuses),
    ledgerlineReference: z.string(),
    createdOn: z.iso.datetime(),
    statusDateTime: z.iso.datetime(),
    totalAmount: z.number(),
    currency: z.string(),
    paymentProviderReference: z.string().nullable(),
    refundOfId: z.uuid().nullable(),
    refundReason: z.string().nullable(),
  })
  .meta({ id: 'PaymentTransactionSummary' });
export type PaymentTransactionSummary = z.infer<typeof paymentTransactionSummarySchema>;

export const paymentTransactionSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(paymentTransactionTypes),
    status: z.enum(paymentTransactionStatuses),
    allocatedStatus: z.enum(allocatedStatuses),
    /** Ledgerline's own payment reference. */
    ledgerlineReference: z.string(),
    createdOn: z.iso.datetime(),
    statusDateTime: z.iso.datetime(),
    totalAmount: z.number(),
    currency: z.string(),
    fee: z.number().nullable(),
    feeCurrency: z.string().nullable(),
    customerName: z.string().nullable(),
    companyName: z.string().nullable(),
    customerDetails: customerDetailsSchema.nullable(),
    accountId: z.uuid().nullable(),
    payerId: z.uuid().nullable(),
    paymentRequestId: z.uuid().nullable(),
    paymentRequest: paymentTransactionRequestSchema.nullable().optional(),
    paymentProviderId: z.uuid().nullable(),
    paymentProviderName: z.string().nullable(),
    paymentProviderReference: z.string().nullable(),
    paymentMethodType: z.enum(paymentMethodTypes).nullable(),
    /** spec 2 §3: where the money stands (settlementStatusOf). Always answered by the server. */
    settlementStatus: z.enum(settlementStatuses).optional(),
    /** On the detail call (includeAccount): the account paid on, to link to it; null when none. */
    account: transactionAccountSchema.nullable().optional(),
    /** On the detail call: the provider configuration it went through; null when none. */
    paymentProvider: paymentTransactionProviderSchema.nullable().optional(),
    /**
     * A Refund: the payment it gives money back from; null for a payment. Always
     * answered; optional only so records written before refunds existed still parse.
     */
    refundOfId: z.uuid().nullable().optional(),
    /** A Refund: staff's reason, or the provider's for one it started; null for a payment. */
    refundReason: z.string().nullable().optional(),
    /** On the detail call only. */
    paymentAllocations: z.array(transactionPaymentAllocationSchema).optional(),
    paymentFeeTransactions: z.array(paymentFeeTransactionSchema).optional(),
    /** On the detail call only: what the payer page offered; null for payments not made there. */
    payerQuote: payerQuoteSchema.nullable().optional(),
    /**
     * On the detail call only: the payment's Refund transactions, newest first (a
     * Refund's own detail has none).
     */
    refunds: z.array(paymentTransactionSummarySchema).optional(),
    /**
     * On the detail call only: what can still be refunded — the amount paid less the refunds
     * made or under way (0 for a Refund and for a payment that cannot be refunded).
     */
    refundableAmount: z.number().optional(),
    /** On the detail call only: the payment's disputes and chargebacks, newest first. */
    disputes: z.array(paymentDisputeSchema).optional(),
  })
  .meta({ id: 'PaymentTransaction' });
export type PaymentTransaction = z.infer<typeof paymentTransactionSchema>;

/** spec 2 §2 payment transactions grid; default sort statusDateTime descending (§9). */
export const paymentTransactionQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    type: { type: 'enum', values: paymentTransactionTypes, sortable: true, filterable: true },
    ledgerlineReference: { type: 'string', sortable: true, filterable: true },
    statusDateTime: { type: 'date', sortable: true, filterable: true },
    createdOn: { type: 'date', sortable: true, filterable: true },
    companyName: { type: 'string', sortable: true, filterable: true },
    customerName: { type: 'string', sortable: true, filterable: true },
    totalAmount: { type: 'number', sortable: true, filterable: true },
    currency: { type: 'string', sortable: true, filterable: true },
    status: { type: 'enum', values: paymentTransactionStatuses, sortable: true, filterable: true },
    allocatedStatus: { type: 'enum', values: allocatedStatuses, sortable: true, filterable: true },
    paymentMethodType: {
      type: 'enum',
      values: paymentMethodTypes,
      sortable: true,
      filterable: true,
    },
    accountId: { type: 'uuid', filterable: true },
    payerId: { type: 'uuid', filterable: true },
    paymentRequestId: { type: 'uuid', filterable: true },
    paymentProviderId: { type: 'uuid', filterable: true },
  },
  {
    defaultSort: '-statusDateTime',
    expand: ['paymentrequest'],
    search: { text: ['ledgerlineReference', 'customerName', 'companyName'], amount: 'totalAmount' },
  },
);

/** A count that is exact up to `countExactLimit` and the database's estimate past it. */
export const countSchema = z
  .object({
    count: z.number().int(),
    /** True when `count` is the planner's estimate rather than an exact count. */
    estimated: z.boolean(),
  })
  .meta({ id: 'Count' });
export type Count = z.infer<typeof countSchema>;

/**
 * A page of a list that can hold millions of rows: `totalItems` is exact up to
 * `countExactLimit` and an estimate past it, which `totalItemsEstimated` says (docs/decisions/009-totals-of-lists-that-can-hold-millions-of-rows.md).
 */
export function estimatedPageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    totalItems: z.number().int(),
    totalItemsEstimated: z.boolean(),
  });
}
export const countExactLimit = 10_000;

/** PATCH payment-transactions/{id}/allocated-status (spec 2 §4, §7). */
export const allocatedStatusBody = z
  .object({ status: z.enum(allocatedStatuses, { message: 'Choose an allocated status.' }) })
  .meta({ id: 'AllocatedStatusChange' });
export type AllocatedStatusBody = z.infer<typeof allocatedStatusBody>;
