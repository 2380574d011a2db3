import { z } from 'zod';
import { processSchema } from 'zod/v4/core';
import { usageTypes } from '../enums.js';
import { addressShape } from './address.js';
import { dayNotBefore } from './calendar-date.js';
import { optionalEmailAddress } from './email.js';
import { captureTypes, paymentRequestLimits } from './payment-requests.js';
import {
  m,
  optionalText,
  optionalDate,
  optionalEndDate,
  optionalDay,
  requiredDay,
  currency,
  positiveAmount,
  optionalPositive,
  minorUnits,
  laterOrEqual,
} from './payment-request-fields.js';

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
  .refine((body) => dayNotBefore(body.transactionDate, body.dueDate), {
    message: m.dueDateBeforeTransactionDate,
    path: ['dueDate'],
  })
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
  .refine((body) => laterOrEqual(body.validFrom, body.validUntil ?? null), {
    message: m.validUntilBeforeValidFrom,
    path: ['validUntil'],
  })
  .superRefine((body, ctx) => minorUnits(ctx, body.amountToPay, body.currency, ['amountToPay']));

/** The accounting transaction types a payer can be asked to pay (docs/decisions/025-a-payment-request-for-several-existing-invoices.md). */
export const payableTransactionTypes = [
  'Invoice',
  'BalanceIncreasingTransaction',
  'ProformaInvoice',
] as const;

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
          transactionId: z
            .uuid({ message: m.allocationTransactionId })
            .transform((id) => id.toLowerCase()),
          amount: positiveAmount()
            .nullish()
            .transform((value) => value ?? null),
        }),
        { message: m.allocationsRequired },
      )
      .min(1, m.allocationsRequired)
      .max(maxTransactionAllocations, m.allocationsTooMany)
      .refine(
        (list) => new Set(list.map((a) => a.transactionId)).size === list.length,
        m.allocationDuplicated,
      ),
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
      minorUnits(ctx, allocation.amount, body.currency, [
        'transactionAllocations',
        index,
        'amount',
      ]),
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
    const shape =
      'transactionAllocations' in body ? createInvoicesRequestBody : createTransactionRequestBody;
    const parsed = shape.safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ ...issue, code: 'custom', message: issue.message, path: issue.path });
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
  .refine((body) => laterOrEqual(body.validFrom ?? null, body.validUntil ?? null), {
    message: m.validUntilBeforeValidFrom,
    path: ['validUntil'],
  })
  .meta({ id: 'UpdatePaymentRequest' });
export type UpdatePaymentRequestBody = z.input<typeof updatePaymentRequestBody>;
export type UpdatePaymentRequestInput = z.output<typeof updatePaymentRequestBody>;

/** One entry of PATCH payment-requests/{id}/transaction-allocation-info (spec 2 §5 Allocation edit). */
export const allocationInfoInputSchema = z
  .object({
    transactionId: z.uuid({ message: 'Transaction id must be a UUID' }),
    amount: optionalPositive(m.amountPositive),
    required: z
      .boolean()
      .nullish()
      .transform((value) => value ?? null),
    canEditAmount: z
      .boolean()
      .nullish()
      .transform((value) => value ?? null),
    minimumAmount: optionalPositive(m.minimumPositive),
    maximumAmount: optionalPositive(m.maximumPositive),
  })
  .superRefine((allocation, ctx) => {
    const limited = allocation.minimumAmount !== null || allocation.maximumAmount !== null;
    if (limited && allocation.canEditAmount !== true) {
      ctx.addIssue({
        code: 'custom',
        message: m.minMaxNeedCanEditAmount,
        path: [allocation.minimumAmount !== null ? 'minimumAmount' : 'maximumAmount'],
      });
    }
    if (
      allocation.minimumAmount !== null &&
      allocation.maximumAmount !== null &&
      !(allocation.maximumAmount > allocation.minimumAmount)
    ) {
      ctx.addIssue({ code: 'custom', message: m.maximumNotAboveMinimum, path: ['maximumAmount'] });
    }
    // The amount lies within the limits it is given with.
    const issue = allocationAmountIssue(allocation.amount, allocation);
    if (issue) ctx.addIssue({ code: 'custom', message: issue, path: ['amount'] });
  });

/**
 * An allocation's amount lies within its minimum and maximum and, when the
 * transaction's outstanding amount is known, not above it. The message, or null when it fits.
 */
export function allocationAmountIssue(
  amount: number | null,
  limits: {
    minimumAmount: number | null;
    maximumAmount: number | null;
    outstanding?: number | null;
  },
): string | null {
  if (amount === null) return null;
  if (limits.minimumAmount !== null && amount < limits.minimumAmount) return m.amountBelowMinimum;
  if (limits.maximumAmount !== null && amount > limits.maximumAmount) return m.amountAboveMaximum;
  if (
    limits.outstanding !== undefined &&
    limits.outstanding !== null &&
    amount > limits.outstanding
  )
    return m.amountAboveOutstanding;
  return null;
}
export const allocationInfoBody = z
  .array(allocationInfoInputSchema)
  .min(1, m.allocationsRequired)
  .max(1000)
  .refine(
    (list) => new Set(list.map((a) => a.transactionId)).size === list.length,
    m.allocationDuplicated,
  )
  .meta({ id: 'TransactionAllocationInfo' });
export type AllocationInfoBody = z.input<typeof allocationInfoBody>;
export type AllocationInfoInput = z.output<typeof allocationInfoBody>;
