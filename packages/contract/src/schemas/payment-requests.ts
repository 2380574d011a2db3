import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { usageTypes } from '../enums.js';
import { addressShape } from './address.js';
import { calendarDateSchema } from './calendar-date.js';

/** spec 2 §3 Payment request, §4 statuses. */
export const paymentRequestTypes = ['Transaction', 'Account'] as const;
export type PaymentRequestType = (typeof paymentRequestTypes)[number];
export const paymentRequestStatuses = [
  'Open',
  'Completed',
  'PartCompleted',
  'Cancelled',
  'Expired',
  'Pending',
] as const;
export type PaymentRequestStatus = (typeof paymentRequestStatuses)[number];
export const captureTypes = ['Immediate', 'Reserve'] as const;
export type CaptureType = (typeof captureTypes)[number];
// Usage types live in enums.ts: the company preferences name them too.

/**
 * spec 2 §2, §9: the currencies the New Request dialog offers, as the spec names them. 'YEN' is not
 * an ISO 4217 code; it is stored as JPY (docs/decisions/024-payment-requests.md, "Payment requests").
 */
export const newRequestCurrencies = ['GBP', 'USD', 'EUR', 'THB', 'CAD', 'YEN'] as const;
export const currencyAliases: Readonly<Record<string, string>> = { YEN: 'JPY' };

/** spec 2 §2 New Request dialog defaults. */
export const newRequestDefaults = {
  amount: 100,
  dueInDays: 30,
  description: 'Goods and/or services.',
  paymentTerms: '30 days from transaction date',
  accountsLoaded: 20,
  invoiceReferencePrefix: 'INV',
} as const;

/** spec 2 §5 limits. */
export const paymentRequestLimits = {
  dialogDescription: 100,
  dialogPaymentTerms: 100,
  description: 1000,
  billing: {
    firstNames: 100,
    surname: 100,
    companyName: 100,
    emailAddress: 200,
    address1: 100,
    address2: 100,
    city: 100,
    state: 100,
    postCode: 20,
    country: 100,
  },
  contact: { text: 255, companyName: 500, emailAddress: 1000 },
  customerName: 255,
  customerReference: 255,
  amountMax: 999_999_999_999,
} as const;

/** spec 2 §5 messages (the quoted ones are the spec's own words). */
export const paymentRequestMessages = {
  accountRequired: 'Account is required',
  accountNotFound: 'Account not found in this company.',
  currencyRequired: 'Currency is required',
  currencyUnknown: 'Currency must be an ISO 4217 currency code, e.g. GBP.',
  captureTypeRequired: 'Capture type is required',
  amountRequired: 'Amount is required',
  amountNumber: 'Amount must be a number',
  amountPositive: 'Amount must be greater than 0',
  amountTooLarge: `Amount must be at most ${paymentRequestLimits.amountMax}`,
  amountDecimals: 'Amount can have at most 4 decimal places',
  dateInvalid: 'Enter a valid date',
  validUntilBeforeValidFrom: 'Valid To must be less than Valid From',
  dueDateBeforeTransactionDate: 'Due date must not be earlier than the transaction date',
  minimumPositive: 'Minimum Amount must be greater than 0',
  maximumPositive: 'Maximum Amount must be greater than 0',
  maximumNotAboveMinimum: 'Maximum Amount must be greater than 0 and/or Minimum Amount',
  minMaxNeedCanEditAmount:
    'Minimum and Maximum Amount can be set only when the amount can be edited',
  allocationNotFound: 'Transaction Allocation not found in Payment Request',
  amountBelowMinimum: 'Amount must not be less than the Minimum Amount',
  amountAboveMaximum: 'Amount must not be more than the Maximum Amount',
  amountAboveOutstanding: 'Amount must not be more than the amount outstanding on the transaction',
  allocationsRequired: 'Send at least one allocation',
  allocationDuplicated: 'Each transaction can appear only once',
  allocationsTooMany: 'Send at most 100 transaction allocations',
  allocationTransactionId:
    'Transaction id must be the id (a UUID) of a transaction of this company',
  transactionNotFound: 'Transaction not found in this company.',
  transactionOtherAccount: 'The transaction belongs to another account than the payment request',
  transactionOtherCurrency: 'The transaction must be in the currency of the payment request',
  transactionNotInvoice:
    'Only an Invoice, a Balance Increasing Transaction or a Proforma Invoice can be requested for payment',
  transactionNothingOutstanding: 'The transaction has nothing outstanding to pay',
  notOpen: 'Only Open payment requests can be edited',
  discountsApplied:
    'The payment request cannot be edited: settlement discounts or late payments are applied',
  usageTypeLocked:
    'The usage type can be changed only while the request is Open, of type Transaction, with Immediate capture and without payment transactions',
  notCancellable: 'Only an Open payment request can be cancelled',
  paymentInProgress:
    'A payment of this request is in progress: wait until the payer has finished, then try again',
  cancelled: 'Payment request cancelled',
  notSendable: 'Only an Open payment request can be sent to the payer',
  noEmailAddress:
    'The payment request has no billing contact e-mail address: add one to its billing contact, then send it',
  sent: (emailAddress: string) => `Payment request sent to ${emailAddress}`,
  notFound: 'The payment request was not found.',
  created: 'New payment request created',
  updated: 'Payment request updated',
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
} as const;

/** spec 2 §3 Contact. */
export const contactAddressSchema = z
  .object(addressShape(() => z.string().nullable()))
  .partial()
  .meta({ id: 'ContactAddress' });
export const contactSchema = z
  .object({
    companyName: z.string().nullable(),
    firstNames: z.string().nullable(),
    surname: z.string().nullable(),
    emailAddress: z.string().nullable(),
    address: contactAddressSchema.nullable(),
  })
  .partial()
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof contactSchema>;

/** spec 2 §3 Transaction allocation. */
export const transactionAllocationSchema = z
  .object({
    transactionId: z.uuid(),
    amount: z.number().nullable(),
    required: z.boolean().nullable(),
    canEditAmount: z.boolean().nullable(),
    minimumAmount: z.number().nullable(),
    maximumAmount: z.number().nullable(),
  })
  .meta({ id: 'TransactionAllocation' });
export type TransactionAllocation = z.infer<typeof transactionAllocationSchema>;

/** The accounting transactions of a request (expand=transactions), as its Transactions tab shows them. */
export const paymentRequestTransactionSchema = z
  .object({
    id: z.uuid(),
    transactionType: z.string(),
    transactionReference: z.string(),
    transactionDate: calendarDateSchema,
    dueDate: calendarDateSchema.nullable(),
    currency: z.string(),
    transactionAmount: z.number(),
    discountedAmount: z.number(),
    allocatedAmount: z.number(),
    paidStatus: z.string(),
  })
  .meta({ id: 'PaymentRequestTransaction' });
export type PaymentRequestTransaction = z.infer<typeof paymentRequestTransactionSchema>;

/** The payment attempts of a request, newest first (its Payment transactions tab). */
export const paymentRequestPaymentSchema = z
  .object({
    id: z.uuid(),
    createdOn: z.iso.datetime(),
    /** When the payment last changed status (the request page's timeline). */
    statusDateTime: z.iso.datetime(),
    /** The Ledgerline payment reference, shown instead of the id. */
    ledgerlineReference: z.string(),
    status: z.string(),
    totalAmount: z.number(),
    currency: z.string(),
  })
  .meta({ id: 'PaymentRequestPayment' });

/** A mail of the request's link sent to the payer (POST payment-requests/{id}/send), newest first. */
export const paymentRequestMailSchema = z
  .object({ sentOn: z.iso.datetime(), emailAddress: z.string() })
  .meta({ id: 'PaymentRequestMail' });
export type PaymentRequestMail = z.infer<typeof paymentRequestMailSchema>;

/** The answer of POST payment-requests/{id}/send: the address the link is being mailed to. */
export const paymentRequestSendSchema = z
  .object({ emailAddress: z.string() })
  .meta({ id: 'PaymentRequestSend' });
export type PaymentRequestPayment = z.infer<typeof paymentRequestPaymentSchema>;

export const paymentRequestSchema = z
  .object({
    id: z.uuid(),
    requestType: z.enum(paymentRequestTypes),
    requestStatus: z.enum(paymentRequestStatuses),
    captureType: z.enum(captureTypes),
    customerName: z.string().nullable(),
    customerReference: z.string().nullable(),
    currency: z.string(),
    amountToPay: z.number(),
    createdOn: z.iso.datetime(),
    validFrom: z.iso.datetime().nullable(),
    validUntil: z.iso.datetime().nullable(),
    paymentRequiredBy: calendarDateSchema.nullable(),
    description: z.string().nullable(),
    paymentTerms: z.string().nullable(),
    test: z.boolean(),
    /** `<PUBLIC_URL>/pay/<id>`: the payer page (not part of this product yet, docs/decisions/024-payment-requests.md). */
    requestUrl: z.string(),
    accountId: z.uuid().nullable(),
    account: z
      .object({
        id: z.uuid(),
        accountReference: z.string(),
        name: z.string(),
        /** spec 2 §4: the account's default usage type (null: none); always answered by the server. */
        defaultUsageType: z.enum(usageTypes).nullable().optional(),
      })
      .nullable(),
    billingContact: contactSchema.nullable(),
    deliveryContact: contactSchema.nullable(),
    options: z.object({ usage: z.enum(usageTypes).nullable() }),
    /** Whether details, contacts and allocations may be edited now (spec 2 §4). */
    canEdit: z.boolean().optional(),
    /** Whether the usage type may be changed now (spec 2 §4). */
    canChangeUsage: z.boolean().optional(),
    transactionAllocations: z.array(transactionAllocationSchema).optional(),
    transactions: z.array(paymentRequestTransactionSchema).optional(),
    paymentTransactions: z.array(paymentRequestPaymentSchema).optional(),
    /** The mails of its link sent to the payer (detail only). */
    mails: z.array(paymentRequestMailSchema).optional(),
  })
  .meta({ id: 'PaymentRequest' });
export type PaymentRequest = z.infer<typeof paymentRequestSchema>;

/** spec 2 §2 grid; §9 default sort createdOn descending. */
export const paymentRequestQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    requestType: { type: 'enum', values: paymentRequestTypes, sortable: true, filterable: true },
    requestStatus: {
      type: 'enum',
      values: paymentRequestStatuses,
      sortable: true,
      filterable: true,
    },
    captureType: { type: 'enum', values: captureTypes, sortable: true, filterable: true },
    customerName: { type: 'string', sortable: true, filterable: true },
    customerReference: { type: 'string', sortable: true, filterable: true },
    currency: { type: 'string', sortable: true, filterable: true },
    amountToPay: { type: 'number', sortable: true, filterable: true },
    createdOn: { type: 'date', sortable: true, filterable: true },
    validUntil: { type: 'date', sortable: true, filterable: true },
    accountId: { type: 'uuid', filterable: true },
  },
  {
    defaultSort: '-createdOn',
    expand: ['transactions'],
    search: { text: ['customerReference', 'customerName'], amount: 'amountToPay' },
  },
);

export const paymentRequestListQuery = z.object({
  includeTransactions: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('true: each item carries its transactionAllocations and transactions.'),
});
