import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { currencies } from '../reference/currencies.js';
import { calendarDateInput, calendarDateSchema } from './calendar-date.js';
import { emailAddressMessage, optionalEmailAddress } from './email.js';
import { addressShape } from './address.js';

/** spec 2 §3 Accounting transaction types. */
export const transactionTypes = [
  'None',
  'Invoice',
  'Receipt',
  'CreditNote',
  'Payment',
  'BalanceIncreasingTransaction',
  'BalanceReducingTransaction',
  'Quotation',
  'ProformaInvoice',
  'OrderAcknowledgement',
  'GoodsDespatchNote',
] as const;
export type TransactionType = (typeof transactionTypes)[number];

/**
 * spec 2 §3 transactionTypeName: what a transaction's type is called when the ERP gives it no name
 * of its own (docs/decisions/145-accounting-transactions-transactiontypename.md, "Accounting transactions: transactionTypeName").
 */
export const transactionTypeNames: Readonly<Record<TransactionType, string>> = {
  None: 'None',
  Invoice: 'Invoice',
  Receipt: 'Receipt',
  CreditNote: 'Credit Note',
  Payment: 'Payment',
  BalanceIncreasingTransaction: 'Balance Increasing Transaction',
  BalanceReducingTransaction: 'Balance Reducing Transaction',
  Quotation: 'Quotation',
  ProformaInvoice: 'Proforma Invoice',
  OrderAcknowledgement: 'Order Acknowledgement',
  GoodsDespatchNote: 'Goods Despatch Note',
};

export const paidStatuses = ['Unpaid', 'PartPaid', 'FullyPaid'] as const;
export type PaidStatus = (typeof paidStatuses)[number];

export const settlementOfferTypes = [
  'None',
  'PercentageDiscount',
  'AbsoluteDiscount',
  'ReplacementAmount',
] as const;
export type SettlementOfferType = (typeof settlementOfferTypes)[number];
/** The types a person may offer; None is the absence of an offer. */
export const offerableSettlementOfferTypes = [
  'PercentageDiscount',
  'AbsoluteDiscount',
  'ReplacementAmount',
] as const;
export const settlementOfferStatuses = ['Open', 'Cancelled', 'Used'] as const;
export type SettlementOfferStatus = (typeof settlementOfferStatuses)[number];

/** Our limits where spec 2 leaves them open (docs/api.md); offer description 100 is spec 2 §5/§9. */
export const transactionLimits = {
  reference: 100,
  typeName: 100,
  description: 1000,
  paymentTermsDescription: 255,
  postingApplication: 100,
  customHostId: 100,
  contactText: 255,
  offerDescription: 100,
  maxAmount: 999_999_999_999_999,
} as const;

export const transactionMessages = {
  referenceRequired: 'Transaction reference is required.',
  typeRequired: `Transaction type must be one of ${transactionTypes.join(', ')}.`,
  dateRequired: 'Transaction date is required (a date, YYYY-MM-DD).',
  currencyUnknown: 'Currency must be an ISO 4217 currency code, e.g. GBP.',
  amountRequired: 'Transaction amount is required and must be a number.',
  accountRequired: 'Give the account as accountId or accountReference (one of them).',
  accountNotFound: 'The account was not found in this company.',
  duplicate:
    'A transaction with this reference and type already exists; send match-existing=true to update it.',
  // spec 2 §4, §5: settlement offers
  offerTypeRequired:
    'Choose a settlement offer type: PercentageDiscount, AbsoluteDiscount or ReplacementAmount.',
  offerDescriptionTooLong: 'Description must be at most 100 characters.',
  offerDates: 'Valid From must be less than Valid To',
  offerAmountRequired: 'An amount is required',
  offerAmountRange: 'Amount must be from 0 up to the outstanding amount of the transaction.',
  offerPercentageRequired: 'A percentage discount is required',
  offerPercentageRange: 'Percentage discount must be from 0 to 100.',
  offerFullyPaid: 'A fully paid transaction cannot get a new settlement offer.',
  offerTypeNotPresent:
    'Only settlement offers of the types already on this transaction can be added.',
  offerUsedEdit: 'A used settlement offer cannot be edited.',
  offerUsedDelete: 'A used settlement offer cannot be deleted.',
  offerNotFound: 'The settlement offer was not found.',
  offerIdRequired: 'Id must be the id (a UUID) of a settlement offer of this transaction.',
} as const;

const isoCurrencyCodes: ReadonlySet<string> = new Set(currencies.map((currency) => currency.code));

const optionalText = (max: number, label: string) =>
  z
    .string({ message: `${label} must be text.` })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((value) => (value ? value : null));

const money = (message: string) =>
  z
    .number({ message })
    .min(-transactionLimits.maxAmount, message)
    .max(transactionLimits.maxAmount, message);

export const transactionAddressSchema = z
  .object(addressShape(() => z.string().nullish()))
  .meta({ id: 'TransactionAddress' });

/** spec 2 §3 Contact of a transaction: a contact with job title and lists of e-mails and addresses. */
export const transactionContactSchema = z
  .object({
    companyName: z.string().nullish(),
    firstNames: z.string().nullish(),
    surname: z.string().nullish(),
    jobTitle: z.string().nullish(),
    emailAddress: z.string().nullish(),
    emailAddresses: z.array(z.string()).nullish(),
    address: transactionAddressSchema.nullish(),
    addresses: z.array(transactionAddressSchema).nullish(),
  })
  .meta({ id: 'TransactionContact' });
export type TransactionContact = z.infer<typeof transactionContactSchema>;

/** What a connector may send as contact: every text bounded. */
const contactText = z.string().trim().max(transactionLimits.contactText).nullish();
const contactAddressBody = z.object(addressShape(() => contactText));
const contactBody = z.object({
  companyName: contactText,
  firstNames: contactText,
  surname: contactText,
  jobTitle: contactText,
  emailAddress: optionalEmailAddress(
    transactionLimits.contactText,
    `Email address must be at most ${transactionLimits.contactText} characters.`,
  ),
  emailAddresses: z
    .array(
      z
        .string()
        .trim()
        .max(transactionLimits.contactText)
        .pipe(z.email({ message: emailAddressMessage })),
    )
    .max(20)
    .nullish(),
  address: contactAddressBody.nullish(),
  addresses: z.array(contactAddressBody).max(20).nullish(),
});

export const transactionAccountSchema = z
  .object({
    id: z.uuid(),
    accountReference: z.string(),
    name: z.string(),
    currency: z.string().nullable(),
  })
  .meta({ id: 'TransactionAccount' });
export type TransactionAccount = z.infer<typeof transactionAccountSchema>;

export const settlementOfferSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(settlementOfferTypes),
    transactionId: z.uuid(),
    status: z.enum(settlementOfferStatuses),
    description: z.string().nullable(),
    validFrom: calendarDateSchema.nullable(),
    validUntil: calendarDateSchema.nullable(),
    currency: z.string(),
    amount: z.number().nullable(),
    percentageDiscount: z.number().nullable(),
    priority: z.number().int(),
    createdOn: z.iso.datetime(),
  })
  .meta({ id: 'SettlementOffer' });
export type SettlementOffer = z.infer<typeof settlementOfferSchema>;

export const transactionDocumentSchema = z
  .object({
    id: z.uuid(),
    createdOn: z.iso.datetime(),
    fileType: z.string(),
    fileName: z.string(),
    fileSize: z.number().int(),
  })
  .meta({ id: 'TransactionDocument' });
export type TransactionDocument = z.infer<typeof transactionDocumentSchema>;

export const transactionPaymentAllocationSchema = z
  .object({
    id: z.uuid(),
    createdOn: z.iso.datetime(),
    type: z.string(),
    status: z.string(),
    entityType: z.string(),
    transactionId: z.uuid().nullable(),
    /** The allocated transaction's reference, on a payment's detail. */
    transactionReference: z.string().nullable().optional(),
    accountId: z.uuid().nullable(),
    paymentTransactionId: z.uuid(),
    settlementOfferId: z.uuid().nullable(),
    discountedAmount: z.number(),
    allocatedAmount: z.number(),
  })
  .meta({ id: 'PaymentAllocation' });

export const paymentFeeTransactionSchema = z
  .object({
    id: z.uuid(),
    createdOn: z.iso.datetime(),
    transactionId: z.uuid().nullable(),
    paymentTransactionId: z.uuid(),
    feeDetails: z.array(
      z.object({
        type: z.string().nullish(),
        currency: z.string().nullish(),
        amount: z.number().nullish(),
      }),
    ),
  })
  .meta({ id: 'PaymentFeeTransaction' });

/** spec 2 §3 Accounting transaction, as the list shows it. */
export const transactionSchema = z
  .object({
    id: z.uuid(),
    transactionReference: z.string(),
    transactionSecondReference: z.string().nullable(),
    orderReference: z.string().nullable(),
    transactionType: z.enum(transactionTypes),
    /**
     * The ERP's own name of the type, else the type in words (transactionTypeNames). Always
     * answered; optional so records and fixtures from before it still parse.
     */
    transactionTypeName: z.string().optional(),
    transactionDate: calendarDateSchema,
    dueDate: calendarDateSchema.nullable(),
    transactionAmount: z.number(),
    discountedAmount: z.number(),
    allocatedAmount: z.number(),
    currency: z.string(),
    paidStatus: z.enum(paidStatuses),
    description: z.string().nullable(),
    paymentTermsDescription: z.string().nullable(),
    postingApplication: z.string().nullable(),
    customHostId: z.string().nullable(),
    accountId: z.uuid(),
    account: transactionAccountSchema.nullable().optional(),
    createdOn: z.iso.datetime(),
    updatedOn: z.iso.datetime(),
  })
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof transactionSchema>;

/** GET transactions/{id}: the transaction with everything its page shows (spec 2 §2). */
export const transactionDetailSchema = transactionSchema
  .extend({
    account: transactionAccountSchema,
    contact: transactionContactSchema.nullable(),
    /** spec 2 §4: transaction amount − paid allocation − discount, exact decimals. */
    amountOwed: z.number(),
    settlementOffers: z.array(settlementOfferSchema),
    documents: z.array(transactionDocumentSchema),
    paymentAllocations: z.array(transactionPaymentAllocationSchema),
    paymentFeeTransactions: z.array(paymentFeeTransactionSchema),
  })
  .meta({ id: 'TransactionDetail' });
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

/** POST transactions (ERP connectors). The account is named by accountId or accountReference. */
export const createTransactionBody = z
  .object({
    accountId: z.uuid({ message: transactionMessages.accountRequired }).nullish(),
    accountReference: z.string().trim().max(transactionLimits.reference).nullish(),
    transactionReference: z
      .string({ message: transactionMessages.referenceRequired })
      .trim()
      .min(1, transactionMessages.referenceRequired)
      .max(
        transactionLimits.reference,
        `Transaction reference must be at most ${transactionLimits.reference} characters.`,
      ),
    transactionSecondReference: optionalText(transactionLimits.reference, 'Second reference'),
    orderReference: optionalText(transactionLimits.reference, 'Order reference'),
    transactionType: z.enum(transactionTypes, { message: transactionMessages.typeRequired }),
    transactionTypeName: optionalText(transactionLimits.typeName, 'Transaction type name'),
    transactionDate: calendarDateInput(transactionMessages.dateRequired),
    dueDate: calendarDateInput('Due date must be a date (YYYY-MM-DD).').nullish(),
    currency: z
      .string({ message: transactionMessages.currencyUnknown })
      .trim()
      .refine((value) => isoCurrencyCodes.has(value), transactionMessages.currencyUnknown),
    transactionAmount: money(transactionMessages.amountRequired),
    discountedAmount: money('Discounted amount must be a number.').nullish(),
    allocatedAmount: money('Allocated amount must be a number.').nullish(),
    paidStatus: z
      .enum(paidStatuses, { message: `Paid status must be one of ${paidStatuses.join(', ')}.` })
      .nullish(),
    description: optionalText(transactionLimits.description, 'Description'),
    paymentTermsDescription: optionalText(
      transactionLimits.paymentTermsDescription,
      'Payment terms',
    ),
    postingApplication: optionalText(transactionLimits.postingApplication, 'Posting application'),
    customHostId: optionalText(transactionLimits.customHostId, 'Custom host id'),
    contact: contactBody.nullish(),
  })
  .superRefine((body, ctx) => {
    if ((body.accountId ? 1 : 0) + (body.accountReference ? 1 : 0) !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['accountId'],
        message: transactionMessages.accountRequired,
      });
    }
  })
  .meta({
    id: 'CreateTransaction',
    examples: [
      {
        accountReference: 'ACME001',
        transactionReference: 'INV-10042',
        orderReference: 'PO-7781',
        transactionType: 'Invoice',
        transactionDate: '2026-11-02',
        dueDate: '2026-12-02',
        currency: 'GBP',
        transactionAmount: 1200,
        allocatedAmount: 0,
        paidStatus: 'Unpaid',
        description: 'Widgets, November',
        paymentTermsDescription: '30 days from transaction date',
        postingApplication: 'Sage 200',
        contact: {
          companyName: 'Acme Widgets Ltd',
          firstNames: 'Jo',
          surname: 'Bloggs',
          emailAddress: 'accounts@acme.example',
        },
      },
    ],
  });
export type CreateTransactionBody = z.input<typeof createTransactionBody>;
export type CreateTransactionInput = z.output<typeof createTransactionBody>;

export const matchExistingQuery = z.object({
  'match-existing': z
    .enum(['true', 'false'], { message: "match-existing must be 'true' or 'false'." })
    .optional()
    .describe(
      'true: a transaction with the same reference and type is updated instead of refused.',
    ),
});

/** spec 2 §2 accounting transactions grid; spec 2 §9 default sort: transaction date descending. */
export const transactionQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    transactionReference: { type: 'string', sortable: true, filterable: true },
    transactionType: { type: 'enum', values: transactionTypes, sortable: true, filterable: true },
    transactionDate: { type: 'day', sortable: true, filterable: true },
    dueDate: { type: 'day', sortable: true, filterable: true },
    transactionAmount: { type: 'number', sortable: true, filterable: true },
    paidStatus: { type: 'enum', values: paidStatuses, sortable: true, filterable: true },
    currency: { type: 'string', sortable: true, filterable: true },
    accountId: { type: 'uuid', filterable: true },
    /** Filters through the account (a join on the accounts' name index); not sortable. */
    accountName: { type: 'string', filterable: true },
  },
  {
    defaultSort: '-transactionDate',
    expand: ['account'],
    search: { text: ['transactionReference', 'accountName'], amount: 'transactionAmount' },
  },
);
