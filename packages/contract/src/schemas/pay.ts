import { z } from 'zod';
import { feeLineSchema } from './money-rules.js';

/**
 * The payer page: `GET /api/v0/pay/{id}` and the calls it makes, all without sign-in.
 * Amounts are numbers in the request's currency, worked out by the server; the browser never
 * sends an amount it computed, only the part it asks to pay of an Account request that allows it.
 *
 * An id that does not exist answers exactly like an expired request (`{ state: 'Expired' }` and
 * nothing else), so the page never reveals whether an id exists.
 */
export const payPageStates = [
  'Open',
  'NotYetOpen',
  'Completed',
  'PartCompleted',
  'Cancelled',
  'Expired',
] as const;
export type PayPageState = (typeof payPageStates)[number];

/** The three groups the page shows methods in, in this order. */
export const payMethodGroups = ['Card', 'BankTransfer', 'BankDebit'] as const;
export type PayMethodGroup = (typeof payMethodGroups)[number];

export const payCompanySchema = z
  .object({
    name: z.string(),
    /** An address the page can load without sign-in (`/api/v0/pay/{id}/logo`), or null. */
    logoUrl: z.string().nullable(),
    website: z.string().nullable(),
    emailAddress: z.string().nullable(),
    telephone: z.string().nullable(),
    /** The postal address, one line per entry, empty lines left out. */
    addressLines: z.array(z.string()),
  })
  .meta({ id: 'PayCompany' });
export type PayCompany = z.infer<typeof payCompanySchema>;

/** One invoice of a Transaction-type request, as it stands if paid today. */
export const payInvoiceSchema = z
  .object({
    transactionId: z.uuid(),
    reference: z.string(),
    description: z.string().nullable(),
    transactionDate: z.iso.date().nullable(),
    dueDate: z.iso.date().nullable(),
    outstandingAmount: z.number(),
    /** The early-payment discount that applies if paid today (0 when none). */
    discount: z.number(),
    offer: z
      .object({
        id: z.uuid(),
        source: z.enum(['Manual', 'Generated']),
        description: z.string().nullable(),
        /** The last day the discount applies. */
        validUntil: z.iso.date().nullable(),
      })
      .nullable(),
    /** Late-payment fee lines (statutory interest, fixed sum). */
    fees: z.array(feeLineSchema),
    /** A plain-words line on why fees apply, or null when none do. */
    feesReason: z.string().nullable(),
    /**
     * What the request asks of this invoice today: the allocation's amount (less what this
     * request already paid of it), or the whole invoice after its discount with its fees. A part
     * carries no discount and no fee lines.
     */
    amountToPay: z.number(),
    /** What paying the whole invoice costs today: after its discount, with its fees. */
    amountInFull: z.number(),
    /**
     * The payer may change what they pay of this invoice (docs/decisions/081-payers-may-change-what-they-pay-of-an-invoice.md "Payers may change what
     * they pay of an invoice"): the bounds of its amount in the pay call's `invoices`; null when the
     * amount is fixed. Paying less than `amountToPay` gives up the discount and the fee lines.
     */
    editable: z
      .object({
        minimumAmount: z.number(),
        maximumAmount: z.number(),
        /** False: the payer may leave the invoice out (amount 0). */
        required: z.boolean(),
      })
      .nullable(),
  })
  .meta({ id: 'PayInvoice' });
export type PayInvoice = z.infer<typeof payInvoiceSchema>;

export const payMethodSchema = z
  .object({
    configurationId: z.uuid(),
    providerName: z.string(),
    /** What the payer reads on the button, e.g. "Card" or the configuration's display name. */
    displayName: z.string(),
    group: z.enum(payMethodGroups),
    isDefault: z.boolean(),
    /** A test configuration: the page says no money moves. */
    isTest: z.boolean(),
    /**
     * The amounts this method takes (its payment amount filter, spec 3 §3); null or absent: no
     * bound. The page offers it only for an amount between them.
     */
    minimumAmount: z.number().nullable().optional(),
    maximumAmount: z.number().nullable().optional(),
    /**
     * The configuration stores cards (spec 3 §2 store-card details): the page shows the payer a
     * "save this card" box, ticked at first when `checkedByDefault` (save-card option default).
     * Absent: no box, and no card is stored.
     */
    saveCard: z.object({ checkedByDefault: z.boolean() }).optional(),
  })
  .meta({ id: 'PayMethod' });
export type PayMethod = z.infer<typeof payMethodSchema>;

export const payReceiptSchema = z
  .object({
    paymentId: z.uuid(),
    /** Ledgerline's payment reference. */
    reference: z.string(),
    amount: z.number(),
    currency: z.string(),
    paidAt: z.iso.datetime({ offset: true }),
    paymentMethodType: z.string().nullable(),
    providerName: z.string().nullable(),
  })
  .meta({ id: 'PayReceipt' });
export type PayReceipt = z.infer<typeof payReceiptSchema>;

const unavailablePageSchema = z.object({ state: z.literal('Expired') });

export const payPageSchema = z
  .object({
    id: z.uuid(),
    /** NotYetOpen: before the request's validFrom (nothing can be paid yet). */
    state: z.enum(['Open', 'NotYetOpen', 'Completed', 'PartCompleted', 'Cancelled']),
    requestType: z.enum(['Transaction', 'Account']),
    usageType: z.enum(['Single', 'Multiple']),
    /** The request's customer reference, or null. */
    reference: z.string().nullable(),
    description: z.string().nullable(),
    customerName: z.string().nullable(),
    /**
     * The request's billing contact, to fill the payer's name and e-mail in for them: the
     * person the request was sent to. Null when the request has none.
     */
    billingContact: z
      .object({
        firstNames: z.string().nullable(),
        surname: z.string().nullable(),
        emailAddress: z.string().nullable(),
      })
      .nullable(),
    currency: z.string(),
    /** The day the figures are worked out for (the company's today). */
    quotedOn: z.iso.date(),
    /** When the link opens (state NotYetOpen until then), or null. */
    validFrom: z.iso.datetime({ offset: true }).nullable(),
    /** When the link stops working (the expired page after it), or null. */
    validUntil: z.iso.datetime({ offset: true }).nullable(),
    /** The day payment is due; after it the request is overdue but still payable. */
    paymentRequiredBy: z.iso.date().nullable(),
    /** Open or PartCompleted past paymentRequiredBy: the page says payment is overdue. */
    overdue: z.boolean(),
    company: payCompanySchema,
    /** Transaction requests: the invoices; Account requests: empty. */
    invoices: z.array(payInvoiceSchema),
    /** Sum of the invoices' discounts (0 for Account requests). */
    discountTotal: z.number(),
    /** Sum of the invoices' fee lines (0 for Account requests). */
    feeTotal: z.number(),
    /** What is left to pay now, after what has already been paid. */
    amountToPay: z.number(),
    /** Already paid against this request. */
    paidAmount: z.number(),
    /** Account requests that allow paying part: the bounds of `amount` in the pay call. */
    partPayment: z.object({ minimumAmount: z.number(), maximumAmount: z.number() }).nullable(),
    /**
     * Enabled configurations whose filters match the currency and an amount the payer may pay (the
     * amount to pay, or up to it when the payer may choose), the default first.
     */
    methods: z.array(payMethodSchema),
    /** Completed / PartCompleted: the latest successful payment. */
    receipt: payReceiptSchema.nullable(),
    /** The request is a test one (or every method is a test one): the page says so. */
    test: z.boolean(),
  })
  .meta({ id: 'PayPage' });

export const payPageAnswerSchema = z
  .union([payPageSchema, unavailablePageSchema])
  .meta({ id: 'PayPageAnswer' });
export type PayPage = z.infer<typeof payPageSchema>;
export type PayPageAnswer = z.infer<typeof payPageAnswerSchema>;

/** `POST /api/v0/pay/{id}/payments`: start a payment with one of the page's methods. */
export const startPaymentBodySchema = z
  .object({
    configurationId: z.uuid({ message: 'Choose how to pay' }),
    /** Only for requests with `partPayment`; otherwise the server's amount is used. */
    amount: z
      .number({ message: 'Amount must be a number' })
      .positive('Amount must be greater than 0')
      .optional(),
    /**
     * Only for invoices the page shows as `editable`: what the payer pays of each (0 leaves out one
     * that is not required). Invoices not listed are paid in full.
     */
    invoices: z
      .array(
        z.object({
          transactionId: z.uuid({ message: 'Choose an invoice of this request' }),
          amount: z
            .number({ message: 'Amount must be a number' })
            .min(0, 'Amount cannot be negative'),
        }),
      )
      .max(1000)
      .optional(),
    /**
     * The payer agreed to have the card saved (the page's box). Only a method with `saveCard`
     * stores it; absent or false: the card is used for this payment only.
     */
    saveCard: z.boolean({ message: 'Save card must be true or false' }).optional(),
    payer: z
      .object({
        firstNames: z.string().trim().max(100).optional(),
        surname: z.string().trim().max(100).optional(),
        companyName: z.string().trim().max(100).optional(),
        emailAddress: z.email({ message: 'Enter a valid email address' }).max(200).optional(),
      })
      .optional(),
  })
  .meta({ id: 'StartPayment' });
export type StartPaymentBody = z.infer<typeof startPaymentBodySchema>;

/** Where the page sends the payer next. */
export const paymentNextStepSchema = z
  .discriminatedUnion('kind', [
    /** Ledgerline's own Sandbox: the page shows its test card form. */
    z.object({ kind: z.literal('sandbox') }),
    /** Stripe Checkout, TrueLayer auth_uri, GoCardless billing request flow, hosted card pages. */
    z.object({ kind: z.literal('redirect'), url: z.url() }),
    /** A hosted form that must be POSTed (Opayo Form, TranSafe hosted page). */
    z.object({ kind: z.literal('post'), url: z.url(), fields: z.record(z.string(), z.string()) }),
    /** OPPWA COPYandPAY: the page loads the widget script and shows the form. */
    z.object({
      kind: z.literal('oppwa'),
      checkoutId: z.string(),
      scriptUrl: z.url(),
      brands: z.string(),
      shopperResultUrl: z.url(),
    }),
    /**
     * TranSafe (Monetra) PaymentFrame: the page shows the frame (`frameUrl`, its HMAC fields also
     * as the iframe's `data-hmac-*` attributes), asks it for a card ticket, and posts the ticket
     * to `POST pay/{id}/payments/{paymentId}/transafe`.
     */
    z.object({
      kind: z.literal('transafe-frame'),
      frameUrl: z.url(),
      /** The frame's origin: the page talks to it and listens to it only. */
      frameOrigin: z.string(),
      /** `data-hmac-*` attribute → value, `data-hmac-hmacsha256` included. */
      attributes: z.record(z.string(), z.string()),
    }),
    /**
     * Opayo Pi: the page loads Opayo.js (`scriptUrl`), mounts its drop-in card form with the
     * merchant session key, and posts the card identifier it gives to
     * `POST pay/{id}/payments/{paymentId}/opayo`.
     */
    z.object({
      kind: z.literal('opayo-pi'),
      scriptUrl: z.url(),
      merchantSessionKey: z.string(),
    }),
  ])
  .meta({ id: 'PaymentNextStep' });
export type PaymentNextStep = z.infer<typeof paymentNextStepSchema>;

export const startedPaymentSchema = z
  .object({
    paymentId: z.uuid(),
    amount: z.number(),
    currency: z.string(),
    next: paymentNextStepSchema,
  })
  .meta({ id: 'StartedPayment' });
export type StartedPayment = z.infer<typeof startedPaymentSchema>;

/** `GET /api/v0/pay/{id}/payments/{paymentId}`: the page polls this after the payer returns. */
export const payPaymentOutcomes = [
  'Waiting',
  'Succeeded',
  'Reserved',
  'Failed',
  'Cancelled',
] as const;
export const payPaymentStatusSchema = z
  .object({
    paymentId: z.uuid(),
    /** The payment transaction's status (Processing, Paid, Pending, Failed, ...). */
    status: z.string(),
    outcome: z.enum(payPaymentOutcomes),
    /** A message for the payer when it failed (e.g. 'Your card was declined'). */
    message: z.string().nullable(),
    receipt: payReceiptSchema.nullable(),
    /**
     * Only in the answer to a card identifier (Opayo Pi) whose card issuer wants 3-D Secure: the
     * page POSTs `creq` and `threeDSSessionData` to `acsUrl`, the issuer's page.
     */
    challenge: z
      .object({ acsUrl: z.url(), creq: z.string(), threeDSSessionData: z.string() })
      .optional(),
  })
  .meta({ id: 'PayPaymentStatus' });
export type PayPaymentStatus = z.infer<typeof payPaymentStatusSchema>;

/** `POST /api/v0/pay/{id}/payments/{paymentId}/sandbox`: the Sandbox test card form. */
export const sandboxCardBodySchema = z
  .object({
    cardholderName: z.string().trim().min(1, 'Enter the name on the card').max(100),
    cardNumber: z
      .string()
      .transform((value) => value.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^\d{12,19}$/, 'Enter a card number of 12 to 19 digits')),
    expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Enter the expiry as MM/YY'),
    cvc: z.string().regex(/^\d{3,4}$/, 'Enter the 3 or 4 digit security code'),
  })
  .meta({ id: 'SandboxCard' });
export type SandboxCardBody = z.infer<typeof sandboxCardBodySchema>;

/**
 * Sandbox test cards: these succeed, are declined, or are reserved (authorised, to be captured
 * by staff); any other valid number succeeds.
 */
export const sandboxCards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  reserved: '4000000000003220',
} as const;

const ticketMissing = 'The card details were not received. Please enter them again.';
const ticketUnverified = 'The card details could not be verified. Please enter them again.';

/**
 * `POST /api/v0/pay/{id}/payments/{paymentId}/transafe`: the card ticket the TranSafe PaymentFrame
 * gave the page (`ticket`) and the frame's HMAC over it (`monetra_resp_hmacsha256`). The amount is
 * the payment's, never the browser's.
 */
export const tranSafeTicketBodySchema = z
  .object({
    ticket: z.string({ message: ticketMissing }).trim().min(1, ticketMissing).max(200),
    ticketHmac: z
      .string({ message: ticketUnverified })
      .regex(/^[0-9a-fA-F]{64}$/, ticketUnverified),
  })
  .meta({ id: 'TranSafeTicket' });
export type TranSafeTicketBody = z.infer<typeof tranSafeTicketBodySchema>;

const cardIdentifierMissing = 'The card details were not received. Please enter them again.';

/**
 * `POST /api/v0/pay/{id}/payments/{paymentId}/opayo`: the card identifier Opayo.js gave the page,
 * and what 3-D Secure wants to know of the payer's browser (the server adds its address, user
 * agent and Accept header). The amount is the payment's, never the browser's.
 */
export const opayoCardBodySchema = z
  .object({
    cardIdentifier: z
      .string({ message: cardIdentifierMissing })
      .trim()
      .min(1, cardIdentifierMissing)
      .max(100),
    browser: z
      .object({
        language: z.string().trim().max(35).optional(),
        colorDepth: z.number().int().min(1).max(64).optional(),
        screenHeight: z.number().int().min(0).max(100000).optional(),
        screenWidth: z.number().int().min(0).max(100000).optional(),
        /** `new Date().getTimezoneOffset()`: minutes behind UTC. */
        timeZoneOffset: z.number().int().min(-900).max(900).optional(),
      })
      .optional(),
  })
  .meta({ id: 'OpayoCard' });
export type OpayoCardBody = z.infer<typeof opayoCardBodySchema>;

/** What a card issuer's 3-D Secure page POSTs back (form fields, as the ACS sends them). */
export const opayoChallengeBodySchema = z.object({
  cres: z.string().max(10000).optional(),
  threeDSSessionData: z.string().max(1024).optional(),
});
export type OpayoChallengeBody = z.infer<typeof opayoChallengeBodySchema>;
