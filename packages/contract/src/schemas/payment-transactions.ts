import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { feeLineSchema } from './money-rules.js';
import {
  paymentFeeTransactionSchema,
  transactionAccountSchema,
  transactionPaymentAllocationSchema,
} from './transactions.js';

/** spec 2 §3 Payment transaction */
export const paymentTransactionTypes = ['Payment', 'Refund'] as const;
export type PaymentTransactionType = (typeof paymentTransactionTypes)[number];

export const paymentTransactionStatuses = [
  'Processing',
  'Paid',
  'Failed',
  'NotAuthorised',
  'Rejected',
  'Refunded',
  'Disputed',
  'Cancelled',
  'Duplicated',
  'Pending',
] as const;
export type PaymentTransactionStatus = (typeof paymentTransactionStatuses)[number];

/** The statuses of the dashboard's rejected payments panel (`status/all-failures`). */
export const failedPaymentTransactionStatuses = ['Failed', 'NotAuthorised', 'Rejected'] as const;

export const allocatedStatuses = [
  'WaitingToBeAllocated',
  'Error',
  'Unallocated',
  'AutoAllocated',
  'ManuallyAllocated',
  'NotApplicable',
] as const;
export type AllocatedStatus = (typeof allocatedStatuses)[number];

export const paymentMethodTypes = ['Card', 'BankTransfer', 'BankDebit'] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/** spec 2 §3 Settlement status enumeration. */
export const settlementStatuses = ['Closed', 'Processing', 'Reserved', 'Scheduled'] as const;
export type SettlementStatus = (typeof settlementStatuses)[number];

/**
 * Where the money of a payment transaction stands (docs/decisions/146-settlement-status.md, "Settlement status"): held
 * for a later capture is Reserved; a bank debit not yet collected is Scheduled; anything else still
 * under way is Processing; a payment in a final status is Closed.
 */
export function settlementStatusOf(
  status: PaymentTransactionStatus,
  paymentMethodType: PaymentMethodType | null,
): SettlementStatus {
  if (status === 'Pending') return 'Reserved';
  if (status === 'Processing') return paymentMethodType === 'BankDebit' ? 'Scheduled' : 'Processing';
  return 'Closed';
}

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
    .describe(`false leaves ${part[0]!.toLowerCase()}${part.slice(1)} out; true or absent includes it.`);
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

/** One invoice as the payer page offered it when the payer started the payment (issue 14). */
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
 * What the payer page showed when the payer started this payment (issue 14: "what the payer saw
 * ... is stored with it, so the merchant can later see exactly what was offered").
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

/** A Refund as the original payment's detail lists it (issue 19). */
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

/**
 * Issue 19: the stages of a dispute or chargeback as providers report them. Opened and
 * UnderReview hold the payment Disputed; Lost gives the money back to the payer's bank (the
 * invoices owe again); Won returns it.
 */
export const disputeStages = ['Opened', 'UnderReview', 'Won', 'Lost'] as const;
export type DisputeStage = (typeof disputeStages)[number];

/** The payment a dispute is about, as the disputes list and its web hook events show it. */
export const disputedPaymentSchema = z
  .object({
    id: z.uuid(),
    ledgerlineReference: z.string(),
    status: z.enum(paymentTransactionStatuses),
    totalAmount: z.number(),
    currency: z.string(),
    customerName: z.string().nullable(),
    companyName: z.string().nullable(),
    accountId: z.uuid().nullable(),
    paymentRequestId: z.uuid().nullable(),
    paymentProviderName: z.string().nullable(),
    paymentProviderReference: z.string().nullable(),
  })
  .meta({ id: 'DisputedPayment' });

/** A dispute or chargeback of a payment (issue 19), from its provider's notifications. */
export const paymentDisputeSchema = z
  .object({
    id: z.uuid(),
    paymentTransactionId: z.uuid(),
    /** The provider's id of the dispute (Stripe `dp_…`); the payment's own id where it has none. */
    disputeReference: z.string(),
    /** What the payer's bank questions (can be less than the payment). */
    amount: z.number(),
    currency: z.string(),
    /** The provider's reason code (`fraudulent`, `product_not_received`, `charged_back`...). */
    reason: z.string().nullable(),
    stage: z.enum(disputeStages),
    /** The last moment evidence can be given at the provider, when it says. */
    respondBy: z.iso.datetime().nullable(),
    openedOn: z.iso.datetime(),
    /** When it was Won or Lost; null while open. */
    closedOn: z.iso.datetime().nullable(),
    updatedOn: z.iso.datetime(),
    /** On the disputes list and in web hook events; left out on the payment's own detail. */
    paymentTransaction: disputedPaymentSchema.optional(),
  })
  .meta({ id: 'PaymentDispute' });
export type PaymentDispute = z.infer<typeof paymentDisputeSchema>;

/** GET disputes: newest first; filter by stage (`stage eq Opened`), payment, provider reference. */
export const disputeQuery = defineQueryFields(
  {
    stage: { type: 'enum', values: disputeStages, sortable: true, filterable: true },
    openedOn: { type: 'date', sortable: true, filterable: true },
    respondBy: { type: 'date', sortable: true, filterable: true },
    closedOn: { type: 'date', sortable: true, filterable: true },
    amount: { type: 'number', sortable: true, filterable: true },
    currency: { type: 'string', sortable: true, filterable: true },
    reason: { type: 'string', filterable: true },
    disputeReference: { type: 'string', filterable: true },
    paymentTransactionId: { type: 'uuid', filterable: true },
  },
  { defaultSort: '-openedOn', search: { text: ['disputeReference', 'reason'], amount: 'amount' } },
);

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
     * A Refund: the payment it gives money back from (issue 19); null for a payment. Always
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
     * On the detail call only (issue 19): the payment's Refund transactions, newest first (a
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
    paymentMethodType: { type: 'enum', values: paymentMethodTypes, sortable: true, filterable: true },
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
  return z.object({ items: z.array(item), totalItems: z.number().int(), totalItemsEstimated: z.boolean() });
}
export const countExactLimit = 10_000;

/** PATCH payment-transactions/{id}/allocated-status (spec 2 §4, §7). */
export const allocatedStatusBody = z
  .object({ status: z.enum(allocatedStatuses, { message: 'Choose an allocated status.' }) })
  .meta({ id: 'AllocatedStatusChange' });
export type AllocatedStatusBody = z.infer<typeof allocatedStatusBody>;

/** spec 2 §3 Export options */
export const exportTypes = ['PaymentsAndAllocations', 'Allocations'] as const;
export type ExportType = (typeof exportTypes)[number];

export const paymentTransactionMessages = {
  fromBeforeTo: 'From Date must be less than To Date',
  allocatedStatusUnknown: 'Choose allocated statuses from the list.',
} as const;

/**
 * GET payment-transactions/export (spec 2 §7). Dates are UTC midnights from the dialog; `toDate`
 * includes its whole day. `excludeAllocatedStatus` is a comma list of the statuses not ticked.
 */
export const exportQuerySchema = z
  .object({
    exportType: z.enum(exportTypes, { message: 'Choose an export type.' }).default('PaymentsAndAllocations'),
    fromDate: z.iso.datetime({ offset: true, message: 'From Date must be a date.' }).optional(),
    toDate: z.iso.datetime({ offset: true, message: 'To Date must be a date.' }).optional(),
    paymentProviderId: z.uuid({ message: 'Choose a payment provider.' }).optional(),
    excludeAllocatedStatus: z
      .string()
      .max(500)
      .optional()
      .transform((value, context) => {
        const items = (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
        for (const item of items) {
          if (!(allocatedStatuses as readonly string[]).includes(item)) {
            context.addIssue({ code: 'custom', message: paymentTransactionMessages.allocatedStatusUnknown });
            return z.NEVER;
          }
        }
        return items as AllocatedStatus[];
      }),
    filter: z.string().max(4000).optional(),
    /** The list's search box, with "include table filters" (issue 22 item 6). */
    search: z.string().max(4000).optional(),
  })
  // spec 2 §5: the message is for a from later than to; from = to is that one whole day (to is inclusive).
  .refine((query) => !query.fromDate || !query.toDate || Date.parse(query.fromDate) <= Date.parse(query.toDate), {
    message: paymentTransactionMessages.fromBeforeTo,
    path: ['fromDate'],
  });
export type ExportQuery = z.input<typeof exportQuerySchema>;

/** The columns of PaymentTransactions.csv, in order (docs/api.md). */
export const exportColumns = [
  'PaymentTransactionId',
  'Type',
  'Status',
  'AllocatedStatus',
  'Reference',
  'CreatedOn',
  'StatusDateTime',
  'Currency',
  'TotalAmount',
  'Fee',
  'FeeCurrency',
  'CustomerName',
  'CompanyName',
  'AccountId',
  'PaymentRequestId',
  'PaymentProvider',
  'PaymentProviderReference',
  'PaymentMethodType',
  'AllocationId',
  'AllocationType',
  'AllocationStatus',
  'AllocationEntityType',
  'AllocationTransactionId',
  'AllocationAccountId',
  'DiscountedAmount',
  'AllocatedAmount',
] as const;

/** spec 2 §3 Import result */
export const importStatuses = ['NotImported', 'Imported', 'Duplicate'] as const;
export const importResultStatuses = ['Error', 'Warning', 'Ok'] as const;

export const importResultSchema = z
  .object({
    processedCount: z.number().int(),
    importedCount: z.number().int(),
    notImportedCount: z.number().int(),
    duplicatedCount: z.number().int(),
    results: z.array(
      z.object({
        /** The id as the file gave it. */
        id: z.string(),
        /** The file's line number (the header is line 1). */
        line: z.number().int(),
        resultStatus: z.enum(importResultStatuses),
        importStatus: z.enum(importStatuses),
        allocatedStatus: z.string().nullable(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof importResultSchema>;

/** The allocated-status import file (docs/api.md). */
export const importLimits = { maxBytes: 50 * 1024 * 1024, maxRows: 200_000 } as const;

/**
 * The template the import dialog offers (issue 22 item 12): the two columns the import reads and
 * one example row, which the server reads like any file (payment-transactions.import.test.ts).
 */
export const importTemplate = {
  fileName: 'allocated-statuses-template.csv',
  text: 'PaymentTransactionId,AllocatedStatus\r\n0199f0aa-0000-7000-8000-000000000001,ManuallyAllocated\r\n',
} as const;

export const importMessages = {
  noFile: 'Choose a CSV file to import.',
  columns: 'The file needs the columns PaymentTransactionId and AllocatedStatus.',
  empty: 'The file has no rows to import.',
  tooManyRows: `The file has more than ${importLimits.maxRows.toLocaleString('en-GB')} rows; split it.`,
  tooLarge: `The file is larger than ${importLimits.maxBytes / 1024 / 1024} MB; split it.`,
  oneFileAtATime: 'Import one file at a time.',
  malformed: 'The upload could not be read: send the file as multipart/form-data.',
} as const;

/** spec 2 §4, §7: capture (all or part of) and cancel a Pending payment. */
export const pendingMessages = {
  amountRequired: 'Amount to capture must be a number.',
  amountPositive: 'Amount to capture must be more than 0.',
  amountTooLarge: 'Amount to capture cannot be more than the amount authorised.',
  noteTooLong: 'Note must be at most 500 characters.',
  notPending: 'Only a pending payment can be captured or cancelled.',
} as const;

const note = z
  .string()
  .trim()
  .max(500, pendingMessages.noteTooLong)
  .nullish()
  .transform((value) => (value ? value : null));

export const captureBody = z
  .object({
    amountToCapture: z
      .number({ message: pendingMessages.amountRequired })
      .positive(pendingMessages.amountPositive)
      .max(999_999_999_999_999, pendingMessages.amountTooLarge),
    note,
  })
  .meta({ id: 'CapturePendingPayment' });
export type CaptureBody = z.input<typeof captureBody>;

export const cancelBody = z.object({ note }).meta({ id: 'CancelPendingPayment' });
export type CancelBody = z.input<typeof cancelBody>;

/** isError answers are shown as errors (spec 1 §8); the payment as it is afterwards. */
export const pendingActionResultSchema = z
  .object({ isError: z.boolean(), errorMessage: z.string().nullable(), paymentTransaction: paymentTransactionSchema })
  .meta({ id: 'PendingActionResult' });
export type PendingActionResult = z.infer<typeof pendingActionResultSchema>;

/** spec 2 §3 Provider event (its payload is read separately). */
export const providerEventSchema = z
  .object({
    id: z.uuid(),
    providerName: z.string(),
    eventType: z.string(),
    recordType: z.string().nullable(),
    recordId: z.string().nullable(),
    status: z.string().nullable(),
    payloadFileName: z.string().nullable(),
    createdOn: z.iso.datetime(),
  })
  .meta({ id: 'ProviderEvent' });
export type ProviderEvent = z.infer<typeof providerEventSchema>;

/** Issue 19: a refund staff ask for, through the payment's provider. */
export const refundLimits = { reason: 500 } as const;
export const refundMessages = {
  amountRequired: 'Amount to refund must be a number.',
  amountPositive: 'Amount to refund must be more than 0.',
  amountTooLarge: 'Amount to refund cannot be more than what is left of the payment.',
  /** The 422 when it is more than what is left: says how much is. */
  moreThanLeft: (left: string) =>
    `Amount to refund cannot be more than what is left of the payment (${left}).`,
  reasonTooLong: `Reason must be at most ${refundLimits.reason} characters.`,
  notRefundable: 'Only a paid payment can be refunded.',
  isRefund: 'A refund cannot be refunded.',
  notSupported:
    'Ledgerline cannot refund payments through this provider; refund it in the provider’s own dashboard.',
} as const;

export const refundBody = z
  .object({
    amount: z
      .number({ message: refundMessages.amountRequired })
      .positive(refundMessages.amountPositive)
      .max(999_999_999_999_999, refundMessages.amountTooLarge),
    reason: z
      .string()
      .trim()
      .max(refundLimits.reason, refundMessages.reasonTooLong)
      .nullish()
      .transform((value) => (value ? value : null)),
  })
  .meta({ id: 'RefundPayment' });
export type RefundBody = z.input<typeof refundBody>;

/**
 * POST payment-transactions/{id}/refund: the payment as it is afterwards and the Refund
 * transaction (null when the provider refused: `isError` with its words, nothing changed).
 * A Refund with status Processing is under way at the provider; its notification finishes it.
 */
export const refundResultSchema = z
  .object({
    isError: z.boolean(),
    errorMessage: z.string().nullable(),
    paymentTransaction: paymentTransactionSchema,
    refund: paymentTransactionSchema.nullable(),
  })
  .meta({ id: 'RefundResult' });
export type RefundResult = z.infer<typeof refundResultSchema>;

/**
 * Issue 19: reservations — Pending payments (authorised, not captured), the one lapsing first
 * first, with bulk capture (the whole of each) and bulk cancel. The site builds its queue from these.
 */
export const reservationLimits = { maxPageSize: 100, defaultPageSize: 25, maxBulk: 100 } as const;

export const reservationMessages = {
  idsRequired: 'Choose at least one reservation.',
  tooMany: `Choose at most ${reservationLimits.maxBulk} reservations at a time.`,
  idInvalid: 'Each reservation id must be a UUID.',
  notFound: 'The payment transaction was not found.',
} as const;

export const reservationsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(reservationLimits.maxPageSize)
    .default(reservationLimits.defaultPageSize),
});
export type ReservationsQuery = z.infer<typeof reservationsQuery>;

export const reservationSchema = paymentTransactionSchema
  .extend({
    /** When the provider's authorisation lapses: the expiry job cancels it then. */
    expiresOn: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Reservation' });
export type Reservation = z.infer<typeof reservationSchema>;

export const reservationsPageSchema = z
  .object({ items: z.array(reservationSchema), totalItems: z.number().int() })
  .meta({ id: 'ReservationsPage' });
export type ReservationsPage = z.infer<typeof reservationsPageSchema>;

export const reservationActionBody = z
  .object({
    ids: z
      .array(z.uuid({ message: reservationMessages.idInvalid }), {
        message: reservationMessages.idsRequired,
      })
      .min(1, reservationMessages.idsRequired)
      .max(reservationLimits.maxBulk, reservationMessages.tooMany),
    note,
  })
  .meta({ id: 'ReservationAction' });
export type ReservationActionBody = z.input<typeof reservationActionBody>;

/** One result per id, in the order sent; a refusal (the provider's, not Pending, not found) says why. */
export const reservationActionResultSchema = z
  .object({
    results: z.array(
      z.object({
        id: z.uuid(),
        isError: z.boolean(),
        errorMessage: z.string().nullable(),
        paymentTransaction: paymentTransactionSchema.nullable(),
      }),
    ),
  })
  .meta({ id: 'ReservationActionResult' });
export type ReservationActionResult = z.infer<typeof reservationActionResultSchema>;

/** The reservations routes (issue 19): the server registers them, the site calls them. */
export const reservationRoutes = {
  list: { method: 'GET', path: '/api/v0/payment-transactions/reservations', permission: null },
  capture: {
    method: 'POST',
    path: '/api/v0/payment-transactions/reservations/capture',
    permission: 'CapturePendingPayment',
  },
  cancel: {
    method: 'POST',
    path: '/api/v0/payment-transactions/reservations/cancel',
    permission: 'CancelPendingPayment',
  },
} as const;
