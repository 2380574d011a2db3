import { z } from 'zod';
import { processSchema } from 'zod/v4/core';
import { defineQueryFields } from '../query/query-fields.js';
import { findCurrency, minorUnitsIssue } from '../reference/currencies.js';
import { calendarDateInput, calendarDateSchema, dayNotBefore } from './calendar-date.js';
import { optionalEmailAddress } from './email.js';

/** spec 2 §3 Payment request, §4 statuses. */
export const paymentRequestTypes = ['Transaction', 'Account'] as const;
export type PaymentRequestType = (typeof paymentRequestTypes)[number];
export const paymentRequestStatuses = ['Open', 'Completed', 'PartCompleted', 'Cancelled', 'Expired', 'Pending'] as const;
export type PaymentRequestStatus = (typeof paymentRequestStatuses)[number];
export const captureTypes = ['Immediate', 'Reserve'] as const;
export type CaptureType = (typeof captureTypes)[number];
// Usage types live in enums.ts: the company preferences name them too.
import { usageTypes } from '../enums.js';
import { addressShape } from './address.js';

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
  minMaxNeedCanEditAmount: 'Minimum and Maximum Amount can be set only when the amount can be edited',
  allocationNotFound: 'Transaction Allocation not found in Payment Request',
  amountBelowMinimum: 'Amount must not be less than the Minimum Amount',
  amountAboveMaximum: 'Amount must not be more than the Maximum Amount',
  amountAboveOutstanding: 'Amount must not be more than the amount outstanding on the transaction',
  allocationsRequired: 'Send at least one allocation',
  allocationDuplicated: 'Each transaction can appear only once',
  allocationsTooMany: 'Send at most 100 transaction allocations',
  allocationTransactionId: 'Transaction id must be the id (a UUID) of a transaction of this company',
  transactionNotFound: 'Transaction not found in this company.',
  transactionOtherAccount: 'The transaction belongs to another account than the payment request',
  transactionOtherCurrency: 'The transaction must be in the currency of the payment request',
  transactionNotInvoice: 'Only an Invoice, a Balance Increasing Transaction or a Proforma Invoice can be requested for payment',
  transactionNothingOutstanding: 'The transaction has nothing outstanding to pay',
  notOpen: 'Only Open payment requests can be edited',
  discountsApplied: 'The payment request cannot be edited: settlement discounts or late payments are applied',
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

const m = paymentRequestMessages;

/** Trimmed text; empty or absent becomes null (spec 2 §2: all text values are trimmed). */
const optionalText = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, m.tooLong(label, max))
    .nullish()
    .transform((value) => (value ? value : null));

/** An optional date: an ISO date or date-time; empty becomes null (spec 2 §5). */
const optionalDate = z
  .union([z.literal(''), z.iso.datetime({ offset: true, message: m.dateInvalid }), z.iso.date({ message: m.dateInvalid })], {
    message: m.dateInvalid,
  })
  .nullish()
  .transform((value) => (value ? new Date(value).toISOString() : null));

/**
 * Issue 21 item 16: a valid-until given as a day ('2026-06-30', as the site's date fields send it)
 * lasts to the end of that day (UTC, as the site shows the day); a date-time stays as given.
 */
const optionalEndDate = z
  .union([z.literal(''), z.iso.datetime({ offset: true, message: m.dateInvalid }), z.iso.date({ message: m.dateInvalid })], {
    message: m.dateInvalid,
  })
  .nullish()
  .transform((value) => (!value ? null : new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : value).toISOString()));

/** An optional calendar day (issue 10 item 2); empty becomes null. */
const optionalDay = z
  .union([z.literal(''), calendarDateInput(m.dateInvalid)], { message: m.dateInvalid })
  .nullish()
  .transform((value) => (value ? value : null));

const requiredDay = (label: string) => calendarDateInput(`${label} must be a valid date`);

/** A currency as sent: an ISO code, or the dialog's 'YEN' (stored as JPY). */
const currency = z
  .string({ message: m.currencyRequired })
  .trim()
  .min(1, m.currencyRequired)
  .transform((value) => currencyAliases[value.toUpperCase()] ?? value.toUpperCase())
  .refine((code) => findCurrency(code) !== undefined, m.currencyUnknown);

/** A positive amount; a non-number answers 'Amount must be a number' (spec 2 §5). */
const positiveAmount = (positive: string = m.amountPositive) =>
  z
    .number({
      error: (issue) => (issue.input === undefined || issue.input === null ? m.amountRequired : m.amountNumber),
    })
    .gt(0, positive)
    .max(paymentRequestLimits.amountMax, m.amountTooLarge)
    .refine((value) => Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6, m.amountDecimals);

const optionalPositive = (message: string) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? m.amountRequired : m.amountNumber) })
    .gt(0, message)
    .max(paymentRequestLimits.amountMax, m.amountTooLarge)
    .nullish()
    .transform((value) => value ?? null);

/** Issue 21 item 15: an amount has at most its currency's minor units (JPY 0, KWD 3). */
function minorUnits(ctx: z.RefinementCtx, amount: number | null | undefined, currency: string | null | undefined, path: (string | number)[], label = 'Amount') {
  // An amount past 4 decimals already has its own message (amountDecimals): one message a field.
  if (typeof amount === 'number' && Math.abs(amount * 10_000 - Math.round(amount * 10_000)) >= 1e-6) return;
  const issue = minorUnitsIssue(amount, currency, label);
  if (issue) ctx.addIssue({ code: 'custom', message: issue, path });
}

const laterOrEqual = (from: string | null, until: string | null) => !from || !until || Date.parse(until) >= Date.parse(from);

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

/** spec 2 §5 Contact edit: every field optional, 255 / company 500 / e-mail 1000. */
const c = paymentRequestLimits.contact;
export const contactEditSchema = z
  .object({
    companyName: optionalText('Company name', c.companyName),
    firstNames: optionalText('First names', c.text),
    surname: optionalText('Surname', c.text),
    emailAddress: optionalEmailAddress(c.emailAddress, m.tooLong('Email address', c.emailAddress)),
    address: z
      .object(addressShape((label) => optionalText(label, c.text), { type: 'Type' }))
      .nullish()
      .transform((value) => value ?? null),
  })
  .meta({ id: 'ContactEdit' });

/** spec 2 §5 billing contact of a request created from an account page. */
const b = paymentRequestLimits.billing;
export const billingContactInputSchema = z
  .object({
    firstNames: optionalText('First name', b.firstNames),
    surname: optionalText('Last name', b.surname),
    companyName: optionalText('Company name', b.companyName),
    emailAddress: optionalEmailAddress(b.emailAddress, m.tooLong('Email', b.emailAddress)),
    address: z
      .object({
        address1: optionalText('Address 1', b.address1),
        address2: optionalText('Address 2', b.address2),
        city: optionalText('City', b.city),
        state: optionalText('State', b.state),
        postCode: optionalText('Post code', b.postCode),
        country: optionalText('Country', b.country),
      })
      .nullish()
      .transform((value) => value ?? null),
  })
  .meta({ id: 'BillingContactInput' });

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
    /** When the payment last changed status (the request page's timeline, issue 22 item 7). */
    statusDateTime: z.iso.datetime(),
    /** The Ledgerline payment reference, shown instead of the id (issue 22 item 7). */
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
    /** The mails of its link sent to the payer (detail only; issue 22 item 7). */
    mails: z.array(paymentRequestMailSchema).optional(),
  })
  .meta({ id: 'PaymentRequest' });
export type PaymentRequest = z.infer<typeof paymentRequestSchema>;

/** spec 2 §2 grid; §9 default sort createdOn descending. */
export const paymentRequestQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    requestType: { type: 'enum', values: paymentRequestTypes, sortable: true, filterable: true },
    requestStatus: { type: 'enum', values: paymentRequestStatuses, sortable: true, filterable: true },
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

/** The New Request dialog (spec 2 §2, §5): creates an invoice-like transaction and a Transaction request for it. */
export const createTransactionRequestBody = z
  .object({
    requestType: z.literal('Transaction'),
    accountId: z.uuid({ message: m.accountRequired }),
    currency,
    amount: positiveAmount(),
    transactionDate: requiredDay('Transaction date'),
    dueDate: requiredDay('Due date'),
    description: optionalText('Description', paymentRequestLimits.dialogDescription),
    paymentTerms: optionalText('Payment terms', paymentRequestLimits.dialogPaymentTerms),
  })
  .refine((body) => dayNotBefore(body.transactionDate, body.dueDate), { message: m.dueDateBeforeTransactionDate, path: ['dueDate'] })
  .superRefine((body, ctx) => minorUnits(ctx, body.amount, body.currency, ['amount']));

/** The account-page variant (spec 2 §2, §5). */
export const createAccountRequestBody = z
  .object({
    requestType: z.literal('Account'),
    captureType: z.enum(captureTypes, { message: m.captureTypeRequired }),
    currency,
    amountToPay: positiveAmount(),
    description: optionalText('Description', paymentRequestLimits.description),
    customerName: optionalText('Customer name', paymentRequestLimits.customerName),
    customerReference: optionalText('Customer reference', paymentRequestLimits.customerReference),
    accountId: z.uuid({ message: m.accountRequired }),
    validFrom: optionalDate,
    // Absent (undefined) takes the company's default link expiry; null or '' means none.
    validUntil: optionalEndDate.optional(),
    paymentRequiredBy: optionalDay,
    billingContact: billingContactInputSchema.nullish().transform((value) => value ?? null),
    test: z.boolean().default(false),
  })
  .refine((body) => laterOrEqual(body.validFrom, body.validUntil ?? null), { message: m.validUntilBeforeValidFrom, path: ['validUntil'] })
  .superRefine((body, ctx) => minorUnits(ctx, body.amountToPay, body.currency, ['amountToPay']));

/** The accounting transaction types a payer can be asked to pay (docs/decisions/025-a-payment-request-for-several-existing-invoices.md). */
export const payableTransactionTypes = ['Invoice', 'BalanceIncreasingTransaction', 'ProformaInvoice'] as const;

/** spec 2 §3: at most this many existing transactions in one request. */
export const maxTransactionAllocations = 100;

/**
 * spec 2 §3 transactionAllocations: a Transaction request asking for several EXISTING invoices of
 * the account (an ERP, or staff from the account page). The amount of an entry is what is asked
 * for that transaction; absent, its whole outstanding amount. Currency, absent, is the invoices'.
 */
export const createInvoicesRequestBody = z
  .object({
    requestType: z.literal('Transaction'),
    accountId: z.uuid({ message: m.accountRequired }),
    currency: currency.optional().transform((value) => value ?? null),
    transactionAllocations: z
      .array(
        z.object({
          transactionId: z.uuid({ message: m.allocationTransactionId }).transform((id) => id.toLowerCase()),
          amount: positiveAmount()
            .nullish()
            .transform((value) => value ?? null),
        }),
        { message: m.allocationsRequired },
      )
      .min(1, m.allocationsRequired)
      .max(maxTransactionAllocations, m.allocationsTooMany)
      .refine((list) => new Set(list.map((a) => a.transactionId)).size === list.length, m.allocationDuplicated),
    description: optionalText('Description', paymentRequestLimits.description),
    customerReference: optionalText('Customer reference', paymentRequestLimits.customerReference),
    captureType: z.enum(captureTypes, { message: m.captureTypeRequired }).default('Immediate'),
    usageType: z
      .enum(usageTypes, { message: 'Usage type must be Single or Multiple' })
      .nullish()
      .transform((value) => value ?? null),
    validUntil: optionalEndDate,
    paymentRequiredBy: optionalDay,
    billingContact: billingContactInputSchema.nullish().transform((value) => value ?? null),
  })
  // Without a currency the invoices' is checked by the server.
  .superRefine((body, ctx) =>
    body.transactionAllocations.forEach((allocation, index) =>
      minorUnits(ctx, allocation.amount, body.currency, ['transactionAllocations', index, 'amount']),
    ),
  )
  .meta({ id: 'CreateInvoicesPaymentRequest' });
export type CreateInvoicesRequestBody = z.input<typeof createInvoicesRequestBody>;

/**
 * requestType 'Transaction' has two shapes: with `transactionAllocations` (existing invoices) or
 * the New Request dialog's amount and dates (a new invoice). The key's presence picks the shape, so
 * each answers with its own messages (a plain union would mix both shapes' issues).
 */
const transactionRequestBody = z
  .looseObject({ requestType: z.literal('Transaction') })
  .transform((body, ctx) => {
    const shape = 'transactionAllocations' in body ? createInvoicesRequestBody : createTransactionRequestBody;
    const parsed = shape.safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  })
  .meta({
    description:
      "requestType 'Transaction': either the New Request dialog's shape (amount, transactionDate, dueDate, …: a new invoice) " +
      'or existing invoices (CreateInvoicesPaymentRequest: transactionAllocations, …).',
  });

// The OpenAPI document (and the cross-tenant matrix that reads it) shows the two shapes the key
// chooses between, not the loose object the dispatch starts from: as zod renders a union.
transactionRequestBody._zod.processJSONSchema = (ctx, json, params) => {
  json.anyOf = [createTransactionRequestBody, createInvoicesRequestBody].map((option, index) =>
    processSchema(option, ctx, { ...params, path: [...params.path, 'anyOf', index] }),
  );
};

export const createPaymentRequestBody = z
  .discriminatedUnion('requestType', [transactionRequestBody, createAccountRequestBody], {
    message: "requestType must be 'Transaction' (New Request dialog) or 'Account' (account page)",
  })
  .meta({ id: 'CreatePaymentRequest' });
export type CreatePaymentRequestBody = z.input<typeof createPaymentRequestBody>;
export type CreatePaymentRequestInput = z.output<typeof createPaymentRequestBody>;
export type CreateTransactionRequestBody = z.input<typeof createTransactionRequestBody>;
export type CreateInvoicesRequestInput = z.output<typeof createInvoicesRequestBody>;

/** PATCH payment-requests (spec 2 §5 Payment request edit, Contact edit): absent fields stay, null clears. */
export const updatePaymentRequestBody = z
  .object({
    id: z.uuid({ message: 'Id must be the id (a UUID) of a payment request of this company.' }),
    description: optionalText('Description', paymentRequestLimits.description).optional(),
    validFrom: optionalDate.optional(),
    validUntil: optionalEndDate.optional(),
    paymentRequiredBy: optionalDay.optional(),
    usageType: z.enum(usageTypes, { message: 'Usage type must be Single or Multiple' }).optional(),
    billingContact: contactEditSchema.nullable().optional(),
    deliveryContact: contactEditSchema.nullable().optional(),
  })
  .refine((body) => laterOrEqual(body.validFrom ?? null, body.validUntil ?? null), { message: m.validUntilBeforeValidFrom, path: ['validUntil'] })
  .meta({ id: 'UpdatePaymentRequest' });
export type UpdatePaymentRequestBody = z.input<typeof updatePaymentRequestBody>;
export type UpdatePaymentRequestInput = z.output<typeof updatePaymentRequestBody>;

/** One entry of PATCH payment-requests/{id}/transaction-allocation-info (spec 2 §5 Allocation edit). */
export const allocationInfoInputSchema = z
  .object({
    transactionId: z.uuid({ message: 'Transaction id must be a UUID' }),
    amount: optionalPositive(m.amountPositive),
    required: z.boolean().nullish().transform((value) => value ?? null),
    canEditAmount: z.boolean().nullish().transform((value) => value ?? null),
    minimumAmount: optionalPositive(m.minimumPositive),
    maximumAmount: optionalPositive(m.maximumPositive),
  })
  .superRefine((allocation, ctx) => {
    const limited = allocation.minimumAmount !== null || allocation.maximumAmount !== null;
    if (limited && allocation.canEditAmount !== true) {
      ctx.addIssue({ code: 'custom', message: m.minMaxNeedCanEditAmount, path: [allocation.minimumAmount !== null ? 'minimumAmount' : 'maximumAmount'] });
    }
    if (allocation.minimumAmount !== null && allocation.maximumAmount !== null && !(allocation.maximumAmount > allocation.minimumAmount)) {
      ctx.addIssue({ code: 'custom', message: m.maximumNotAboveMinimum, path: ['maximumAmount'] });
    }
    // Issue 10 item 6: the amount lies within the limits it is given with.
    const issue = allocationAmountIssue(allocation.amount, allocation);
    if (issue) ctx.addIssue({ code: 'custom', message: issue, path: ['amount'] });
  });

/**
 * Issue 10 item 6: an allocation's amount lies within its minimum and maximum and, when the
 * transaction's outstanding amount is known, not above it. The message, or null when it fits.
 */
export function allocationAmountIssue(
  amount: number | null,
  limits: { minimumAmount: number | null; maximumAmount: number | null; outstanding?: number | null },
): string | null {
  if (amount === null) return null;
  if (limits.minimumAmount !== null && amount < limits.minimumAmount) return m.amountBelowMinimum;
  if (limits.maximumAmount !== null && amount > limits.maximumAmount) return m.amountAboveMaximum;
  if (limits.outstanding !== undefined && limits.outstanding !== null && amount > limits.outstanding) return m.amountAboveOutstanding;
  return null;
}
export const allocationInfoBody = z
  .array(allocationInfoInputSchema)
  .min(1, m.allocationsRequired)
  .max(1000)
  .refine((list) => new Set(list.map((a) => a.transactionId)).size === list.length, m.allocationDuplicated)
  .meta({ id: 'TransactionAllocationInfo' });
export type AllocationInfoBody = z.input<typeof allocationInfoBody>;
export type AllocationInfoInput = z.output<typeof allocationInfoBody>;
