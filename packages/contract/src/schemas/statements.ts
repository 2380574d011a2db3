import { z } from 'zod';
import { payCompanySchema } from './pay.js';

/**
 * Account statements: `POST accounts/{id}/statement-link` issues a link to a public
 * page listing every open invoice of the account, worked out for today, where the payer ticks
 * some or all and pays them in one payment. Paying makes (or reuses) a Transaction payment request
 * of the invoices ticked, and the payer continues on its `/pay/{id}` page.
 */

/** The answer of POST accounts/{id}/statement-link. */
export const statementLinkSchema = z
  .object({
    /** `<PUBLIC_URL>/statement/<token>`: the token is the only key to the page. */
    url: z.string(),
    /** When the link stops working (the company's payment request link expiry); null: never. */
    expiresAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'StatementLink' });
export type StatementLink = z.infer<typeof statementLinkSchema>;

/** One open invoice of the statement, as it stands if paid today. */
export const statementInvoiceSchema = z
  .object({
    transactionId: z.uuid(),
    reference: z.string(),
    description: z.string().nullable(),
    transactionDate: z.iso.date().nullable(),
    dueDate: z.iso.date().nullable(),
    currency: z.string(),
    /** What the invoice still owes, before today's discount and fees. */
    outstandingAmount: z.number(),
    /** The early-payment discount if paid today (0 when none). */
    discount: z.number(),
    /** The late-payment fees if paid today (0 when none). */
    fees: z.number(),
    /** A plain-words line on why fees apply, or null when none do. */
    feesReason: z.string().nullable(),
    /** What paying the invoice in full costs today: after its discount, with its fees. */
    amountToPay: z.number(),
    overdue: z.boolean(),
  })
  .meta({ id: 'StatementInvoice' });
export type StatementInvoice = z.infer<typeof statementInvoiceSchema>;

/** GET statements/{token}: the statement, oldest invoice first. */
export const statementPageSchema = z
  .object({
    company: payCompanySchema,
    accountName: z.string(),
    accountReference: z.string(),
    /** The day the figures are worked out for. */
    quotedOn: z.iso.date(),
    expiresAt: z.iso.datetime({ offset: true }).nullable(),
    invoices: z.array(statementInvoiceSchema),
    /** Per currency, what paying every open invoice costs today. */
    totals: z.array(z.object({ currency: z.string(), amountToPay: z.number() })),
  })
  .meta({ id: 'StatementPage' });
export type StatementPage = z.infer<typeof statementPageSchema>;

/** The most invoices one payment of a statement pays (a payment request's allocation limit). */
export const maxStatementInvoices = 100;

/** POST statements/{token}/pay: the invoices ticked (the server works out the amounts). */
export const statementPayBody = z
  .object({
    transactionIds: z.array(z.uuid()).min(1).max(maxStatementInvoices),
  })
  .meta({ id: 'StatementPayBody' });
export type StatementPayBody = z.infer<typeof statementPayBody>;

/** The payment request that pays the invoices ticked: the payer continues at `payUrl`. */
export const statementPaySchema = z
  .object({
    paymentRequestId: z.uuid(),
    /** `/pay/{paymentRequestId}`, relative to the site. */
    payUrl: z.string(),
    /** Whether an Open request asking exactly these invoices was reused. */
    reused: z.boolean(),
  })
  .meta({ id: 'StatementPay' });
export type StatementPay = z.infer<typeof statementPaySchema>;

/** The statement page's and calls' messages (docs/api.md has no spec text for them). */
export const statementMessages = {
  unknown: 'This statement link does not exist. Ask the company for a new one.',
  expired: 'This statement link has expired. Ask the company for a new one.',
  nothingOpen: 'Nothing is open on this statement: every invoice is paid.',
  nothingChosen: 'Choose at least one invoice to pay.',
  listedTwice: 'List each invoice once.',
  notOnStatement: 'This invoice is not open on this statement any more. Refresh the page.',
  oneCurrency: 'Choose invoices in one currency: one payment is in one currency.',
} as const;
