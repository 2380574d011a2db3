import { z } from 'zod';
import { paymentTransactionStatuses } from './payment-transaction-statuses.js';
import { defineQueryFields } from '../query/query-fields.js';

/**
 * The stages of a dispute or chargeback as providers report them. Opened and
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

/** A dispute or chargeback of a payment, from its provider's notifications. */
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
